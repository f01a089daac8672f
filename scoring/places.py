"""Final places of an event: the playoff's places first, then the qualifying order.

Once an event's playoff is decided (its bracket has a champion), the final standings list the
bracket's players first, by the places the bracket gave them (the ACC's: 1, 2, then every
semifinal loser shares 3rd, every quarterfinal loser 5th, and so on; a third-place match splits
3 and 4), and everyone else after them in qualifying order (a tie in qualifying stays a shared
place). Before that, and for the standings after an earlier game, an entry's place is its
qualifying rank.

This is the one reading of places: the standings pages, the exports, the API, the event and
club archives, the seasons (master points are awarded by place) ask it, never the bracket or
the rank on their own.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Case, F, IntegerField, Value, When
from django.db.models.expressions import Combinable

from tournaments.models import Bracket

from .models import Standing, StandingsSnapshot


@dataclass(frozen=True)
class FinalPlaces:
    """An event's final places, as a few exceptions to "place = qualifying rank".

    ``moved`` holds every entry whose place is not its rank (the bracket's players, and those
    the bracket's players pushed down from above the last qualifier: a withdrawn player, a
    player who lost the draw of lots at the cut); ``shared`` counts how many entries hold each
    place, for the "3=" a shared place is written with. ``decided`` says whether the places
    come from a decided playoff at all.
    """

    event_id: int
    decided: bool = False
    moved: dict[int, int] = field(default_factory=dict)
    shared: Counter = field(default_factory=Counter)

    def place(self, entry_id: int, rank: int) -> int:
        """The final place of an entry that has ``rank`` in the latest qualifying standings."""
        return self.moved.get(entry_id, rank)

    def label(self, entry_id: int, rank: int, tied: bool = False) -> str:
        """The place as the standings write it: "3=" when it is shared."""
        place = self.place(entry_id, rank)
        shared = self.shared[place] > 1 if self.decided else tied
        return f"{place}=" if shared else str(place)

    def expression(self) -> Combinable:
        """The place of a :class:`~scoring.models.Standing` row in SQL, for ``annotate(place=)``:
        the rank, but for the few moved entries."""
        if not self.moved:
            return F("rank")
        by_place: defaultdict[int, list[int]] = defaultdict(list)
        for entry_id, place in self.moved.items():
            by_place[place].append(entry_id)
        return Case(
            *(When(entry_id__in=ids, then=Value(place)) for place, ids in sorted(by_place.items())),
            default=F("rank"),
            output_field=IntegerField(),
        )


def _unplaced_share(placed: Iterable[int]) -> int:
    """The place bracket players still without one share (the semifinal losers while the
    third-place match waits): the first place nobody holds and nobody skips past."""
    taken = Counter(placed)
    place = 1
    while place in taken:
        place += taken[place]
    return place


def compute_places(
    ranks: Iterable[tuple[int, int]], bracket_places: dict[int, int], bracket_entries: Iterable[int]
) -> dict[int, int]:
    """Every entry's final place (pure): ``ranks`` are (entry, qualifying rank) of the latest
    standings, ``bracket_places`` the decided bracket's places, ``bracket_entries`` everyone
    in the bracket. Bracket players come first by their bracket place; the others follow in
    qualifying order, sharing a place where they share a rank."""
    in_bracket = set(bracket_entries) | set(bracket_places)
    places = dict(bracket_places)
    unplaced = [entry for entry in in_bracket if entry not in places]
    if unplaced:
        share = _unplaced_share(places.values())
        places.update(dict.fromkeys(unplaced, share))
    rest = sorted((rank, entry) for entry, rank in ranks if entry not in in_bracket)
    ahead = len(in_bracket)
    previous_rank, previous_place = None, 0
    for seen, (rank, entry) in enumerate(rest):  # seen: the players outside placed so far
        place = previous_place if rank == previous_rank else ahead + seen + 1
        places[entry] = place
        previous_rank, previous_place = rank, place
    return places


def final_places_for(event_ids: Iterable[int]) -> dict[int, FinalPlaces]:
    """The final places of several events at once (the club archive): three queries."""
    ids = list(event_ids)
    result = {pk: FinalPlaces(pk) for pk in ids}
    brackets = {
        event_id: (places, seeds)
        for event_id, places, seeds in Bracket.objects.filter(
            event_id__in=ids, champion__isnull=False
        ).values_list("event_id", "places", "seeds")
    }
    if not brackets:
        return result
    latest: dict[int, int] = {}
    for event_id, snapshot_id in (
        StandingsSnapshot.objects.filter(event_id__in=list(brackets))
        .order_by("event_id", "after_game")
        .values_list("event_id", "pk")
    ):
        latest[event_id] = snapshot_id  # the last one per event wins
    ranks: defaultdict[int, list[tuple[int, int]]] = defaultdict(list)
    for event_id, entry_id, rank in Standing.objects.filter(
        snapshot_id__in=list(latest.values())
    ).values_list("event_id", "entry_id", "rank"):
        ranks[event_id].append((entry_id, rank))
    for event_id, (places, seeds) in brackets.items():
        bracket_places = {int(pk): place for pk, place in (places or {}).items()}
        rows = ranks.get(event_id, [])
        all_places = compute_places(rows, bracket_places, seeds or [])
        rank_of = dict(rows)
        result[event_id] = FinalPlaces(
            event_id,
            decided=True,
            moved={e: p for e, p in all_places.items() if rank_of.get(e) != p},
            shared=Counter(all_places.values()),
        )
    return result


def final_places(event_id: int, after_game: int | None = None) -> FinalPlaces:
    """The final places of an event's latest standings (see the module's docstring); the
    standings after an earlier game (``after_game`` not the last) have no final places."""
    if after_game is not None:
        last = (
            StandingsSnapshot.objects.filter(event_id=event_id)
            .order_by("-after_game")
            .values_list("after_game", flat=True)
            .first()
        )
        if last != after_game:
            return FinalPlaces(event_id)
    return final_places_for([event_id])[event_id]
