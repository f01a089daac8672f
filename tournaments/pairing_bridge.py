"""The bridge between the database and the pure generators in ``tournaments.pairing``.

It loads an event's entries and history (who met whom, byes, forbidden pairs, the playoff's
games), calls the generator the event's format asks for, and writes tables and matches back.
A :class:`PairingError` becomes a :class:`ServiceError` with the same code, and every
:class:`Compromise` a generator made becomes a plain-language note naming the players, on the
game and on the table concerned. Callers (``tournaments.services``) hold the transaction and the
event's row lock; nothing here commits on its own.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import cast

from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ServiceError

from . import hooks, pairing
from .error_codes import TournamentsError
from .models import (
    Bracket,
    Entry,
    Event,
    ForbiddenPair,
    GameResult,
    PlayoffGame,
    PlayoffMatch,
    Round,
    Table,
    entry_names,
)
from .pairing import Compromise, PairingError, Seating, pair_key


def service_error(exc: PairingError, field: str | None = None) -> ServiceError:
    """The TD-facing error for a field or bracket a generator could not handle."""
    messages = {
        "too_few_players": _("At least two active players are needed."),
        "forbidden_pairs": _(
            "No seating keeps every forbidden pair apart in this field: lift a forbidden pair "
            "or change the field."
        ),
        "forbidden_in_round_robin": _(
            "A round robin has everyone meet everyone, but the field holds a forbidden pair: "
            "lift the restriction or choose another pairing method."
        ),
        "too_many_qualifiers": _("More qualifiers than entrants."),
        "too_few_qualifiers": _("A playoff needs at least two qualifiers."),
        "bad_best_of": _("A match is best of an odd number of games (1, 3, 5, ...)."),
        "bad_options": _(
            "A double-elimination bracket has no third-place match or consolation bracket."
        ),
        "bracket_too_small": _(
            "A third-place match or consolation bracket needs at least three qualifiers."
        ),
        "match_decided": _("This match is already decided."),
        "match_not_ready": _("This match is still waiting for a player."),
        "not_in_match": _("That player is not playing in this match."),
        "not_seated": _("Both players must have a seat in this game."),
        "same_player": _("Choose two different players to swap."),
    }
    return ServiceError(TournamentsError(exc.code), messages.get(exc.code, str(exc)), field=field)


# --- History -------------------------------------------------------------------------------------


@dataclass(slots=True)
class History:
    """What the earlier games of an event say: meetings, byes, and game 1's field."""

    met: Counter
    byes: Counter
    first_field: list[int]


def load_history(event: Event, *, exclude: Round | None = None) -> History:
    """Meetings and byes over every game of ``event`` (but ``exclude``), one query."""
    met: Counter = Counter()
    byes: Counter = Counter()
    first_field: list[int] = []
    tables = Table.objects.filter(round__event=event)
    if exclude is not None:
        tables = tables.exclude(round=exclude)
    for number, a, b in tables.values_list("round__number", "seat_a_id", "seat_b_id"):
        if b is None:
            byes[a] += 1
        else:
            met[pair_key(a, b)] += 1
        if number == 1:
            first_field.extend(x for x in (a, b) if x is not None)
    return History(met, byes, sorted(first_field))


def forbidden_for(event: Event) -> list[tuple[int, int]]:
    """The event's forbidden pairs as entry-id pairs."""
    return list(ForbiddenPair.objects.filter(event=event).values_list("entry_a_id", "entry_b_id"))


def active_entries(event: Event) -> list[Entry]:
    """Checked-in, not withdrawn entries in entry order: the field of the next game."""
    return list(
        event.entries.filter(checked_in=True, withdrawn=False)
        .select_related("player")
        .order_by("pk")
    )


def require_field(active: list[Entry], minimum: int, messages) -> None:
    """Refuse a draw for fewer than ``minimum`` checked-in, active players."""
    if len(active) < minimum:
        raise ServiceError(TournamentsError.TOO_FEW_PLAYERS, str(messages.too_few) % {"n": minimum})


def round_seed(event: Event, number: int) -> int:
    """A seed for round ``number`` derived from the event's, stored so every draw reproduces."""
    return (event.seed * 1_000_003 + number) % (2**31)


def movement_seed(event: Event) -> int:
    """The seed of a qualifying draw's table movement: game 1's (the event's own, unless game 1
    was drawn again with a new one), continued by every later game."""
    first = event.rounds.filter(number=1).values_list("seed", flat=True).first()
    return event.seed % (2**31) if first is None else first


def pairs_seed(event: Event, number: int, fresh: int | None = None) -> int:
    """The seed of a two-player game's draw, stored on the game.

    A qualifying draw uses one seed for every game: its table movement is one seeded shuffle
    of the starting field, continued game after game, and a new seed each game broke it after
    two or three games (the draw then fell back to the random pairing for 19 of 22 games of a
    1,000-player event). Other draws take a seed per game. ``fresh`` is a new seed for a game
    drawn again: it is the game's seed (for a later qualifying game, the seed of the fallback
    draw only; the movement stays game 1's).
    """
    if fresh is not None:
        return fresh
    if event.pairing == Event.Pairing.QUALIFYING:
        return movement_seed(event)
    return round_seed(event, number)


def first_swiss_order(players: Iterable[int], seed: int) -> list[int]:
    """The field of a first Swiss game (nobody has a score yet) in a seeded random order.

    Neighbours in this order meet (1 v 2, 3 v 4), so the first game's pairs are a draw, the
    same for the same seed; the standings order (alphabetical while everybody is level) would
    pair the field by name. An event seeded by club rating orders it by rating instead.
    """
    order = sorted(players)
    random.Random(f"{seed}:swiss-start").shuffle(order)
    return order


def names_of(event: Event) -> dict[Hashable, str]:
    """Each entry's player name by entry id (the generators' players are entry ids)."""
    return {pk: name for pk, name in entry_names(event.entries).items()}


def entry_id(player: Hashable) -> int:
    """A generator's player back as the entry id the bridge gave it."""
    return cast(int, player)


def swiss_order(event: Event, players: Iterable[int]) -> tuple[list[int], dict[int, int]]:
    """The field in the order of the event's own ranking chain, and each player's score.

    The ranking is computed on every committed result at draw time (not read from a
    standings table a job may still be rebuilding), so the draw right after the last result
    pairs on the final standings of that game.
    """
    field = set(players)
    ranking = [row for row in hooks.current_ranking(event.pk) if row.entry_id in field]
    ranked = {row.entry_id for row in ranking}
    # A late entry not yet in the standings joins at the bottom, in entry order.
    order = [row.entry_id for row in ranking] + sorted(field - ranked)
    if event.seed_by_rating:
        order = rating_order(event, order, {row.entry_id: row.rank for row in ranking})
    scores = {row.entry_id: row.score for row in ranking}
    return order, {pk: scores.get(pk, 0) for pk in order}


def rating_order(event: Event, entries: list[int], ranks: Mapping[int, int]) -> list[int]:
    """``entries`` by ``ranks`` (the unranked last), players level there by club rating,
    highest first (the scoring app's provider; no ratings: the order given is kept).

    The first Swiss game (nobody ranked yet) is then seeded by rating, top half against
    bottom half, and players tied in the standings are ordered by rating, not by entry.
    """
    ratings = hooks.entry_ratings(event.pk)
    last = max(ranks.values(), default=0) + 1
    # sorted() is stable: equal ratings (two newcomers) keep the order they came in.
    return sorted(entries, key=lambda e: (ranks.get(e, last), -ratings.get(e, 0.0)))


# --- Seating a game ------------------------------------------------------------------------------


def seat_game(event: Event, number: int, players: list[int], seed: int, history: History):
    """The seating of game ``number`` for ``players`` by the event's pairing method."""
    forbidden = forbidden_for(event)
    limit = event.meetings_per_opponent
    qualifying_later = event.pairing == Event.Pairing.QUALIFYING and number > 1
    try:
        if event.pairing == Event.Pairing.SWISS:
            order, scores = swiss_order(event, players)
            if not (history.met or history.byes or event.seed_by_rating):
                order = first_swiss_order(order, seed)
            return pairing.pair_swiss(
                order,
                score=cast(Mapping[Hashable, int], scores),
                met=history.met,
                byes=history.byes,
                forbidden=forbidden,
                max_meetings=limit,
            )
        if event.pairing == Event.Pairing.ROUND_ROBIN:
            start = history.first_field or sorted(players)
            if set(start) == set(players):
                schedule = pairing.round_robin(start, seed=event.seed, forbidden=forbidden)
                if number > len(schedule):
                    raise ServiceError(
                        TournamentsError.ROUND_ROBIN_COMPLETE,
                        _("The round robin is complete: %(n)s games, everyone has met.")
                        % {"n": len(schedule)},
                    )
                return schedule[number - 1]
            # The field changed: the schedule no longer applies; draw within the meeting limit.
        return pairing.draw_qualifying_game(
            players,
            game_number=number,
            # A later qualifying game continues game 1's movement; its own seed draws only
            # when the movement does not apply (so a new seed can draw it again).
            seed=movement_seed(event) if qualifying_later else seed,
            draw_seed=seed,
            met=history.met,
            byes=history.byes,
            starting_field=history.first_field or sorted(players),
            max_meetings=limit,
            forbidden=forbidden,
        )
    except PairingError as exc:
        raise service_error(exc) from None


def seed_matters(event: Event, round_: Round) -> bool:
    """Whether the seed chose ``round_``'s seating: a first Swiss game not seeded by rating,
    game 1's movement and a random draw; not a later Swiss game (the standings), a later game
    of the movement (game 1's seed) or a round robin's schedule (the event's seed)."""
    match round_.method:
        case "swiss":
            return round_.number == 1 and not event.seed_by_rating
        case "movement":
            return round_.number == 1
        case "round_robin":
            return False
    return True


def same_draw_reason(event: Event, number: int) -> str:
    """Why game ``number`` drawn again from a new seed is seated as before, by the event's
    pairing method (a Swiss game after the first, a round robin's schedule and a qualifying
    game after the first follow the standings, the schedule or the movement, not the seed)."""
    swap = _("Swap seats by hand in a draft to change it.")
    if event.pairing == Event.Pairing.SWISS and number > 1:
        why = _(
            "Game %(n)s is paired by the standings (Swiss), and the same standings give the "
            "same pairs; a new seed changes nothing."
        )
    elif event.pairing == Event.Pairing.ROUND_ROBIN:
        why = _(
            "Game %(n)s follows the round robin's schedule, fixed by the event's seed; a new "
            "seed for one game would break the schedule."
        )
    elif event.pairing == Event.Pairing.QUALIFYING and number > 1:
        why = _(
            "Game %(n)s follows the table movement begun in game 1, which keeps everyone "
            "meeting new opponents; a new seed for one game would break it."
        )
    else:
        why = _("Drawing game %(n)s again gives the same seating: no other keeps the rules.")
    return f"{why % {'n': number}} {swap}"


def describe(
    compromise: Compromise,
    names: Mapping[Hashable, str],
    met: Mapping,
    byes: Mapping,
    *,
    hand: bool = False,
) -> str:
    """A generator's compromise in the TD's language, naming the players."""
    who = [names.get(p, str(p)) for p in compromise.players]
    match compromise.kind:
        case "repeat" if hand:
            times = met.get(pair_key(*compromise.players), 0) + 1
            return _("%(a)s and %(b)s meet for time %(n)s.") % {
                "a": who[0],
                "b": who[1],
                "n": times,
            }
        case "repeat":
            times = met.get(pair_key(*compromise.players), 0) + 1
            return _(
                "%(a)s and %(b)s meet for time %(n)s: no seating within the meeting limit "
                "exists for this field."
            ) % {"a": who[0], "b": who[1], "n": times}
        case "second_bye":
            return _(
                "%(name)s has bye number %(n)s although another player has fewer: no other "
                "bye let the rest of the field be seated."
            ) % {"name": who[0], "n": byes.get(compromise.players[0], 0) + 1}
        case "forbidden":
            return _("%(a)s and %(b)s are a forbidden pair.") % {"a": who[0], "b": who[1]}
        case "missing":
            return _("%(name)s is in the field but has no seat.") % {"name": who[0]}
        case "unknown":
            return _("%(name)s is seated but is not in the field (withdrawn or absent).") % {
                "name": who[0]
            }
        case "seated_twice":
            return _("%(name)s is seated more than once.") % {"name": who[0]}
    return compromise.note


def write_round(
    event: Event,
    *,
    number: int,
    seed: int,
    seating: Seating,
    history: History,
    draft: bool,
) -> Round:
    """Write a game and its tables (table numbers 1..n, the bye last) from a seating."""
    names = names_of(event)
    notes = [describe(c, names, history.met, history.byes) for c in seating.compromises]
    # Older generators report repeats only in ``repeats``: make sure each has its note.
    for a, b, _times in seating.repeats:
        note = describe(Compromise("repeat", (a, b), ""), names, history.met, history.byes)
        if note not in notes:
            notes.append(note)
    round_ = Round.objects.create(
        event=event,
        number=number,
        seed=seed,
        notes=notes,
        method=seating.method,
        status=Round.Status.DRAFT if draft else Round.Status.RELEASED,
        released_at=None if draft else timezone.now(),
    )
    write_tables(round_, seating, history.met, event.meetings_per_opponent)
    return round_


def write_tables(round_: Round, seating: Seating, met: Mapping, limit: int) -> None:
    Table.objects.bulk_create(
        Table(
            round=round_,
            number=table_number,
            seat_a_id=entry_id(a),
            seat_b_id=entry_id(b),
            note=_("Repeat opponents: no other seating was possible.")
            if met.get(pair_key(a, b), 0) >= limit
            else "",
        )
        for table_number, (a, b) in enumerate(seating.pairs, start=1)
    )
    if seating.bye is not None:
        Table.objects.create(
            round=round_, number=None, seat_a_id=entry_id(seating.bye), seat_b=None
        )


def score_byes(round_: Round) -> bool:
    """Give every bye of a released game its result (a forfeit win by default); True if any."""
    fmt = round_.event.match_point_format
    created = False
    for table in round_.tables.filter(seat_b__isnull=True, result__isnull=True):
        GameResult.objects.create(
            table=table,
            kind=GameResult.Kind.BYE,
            winner_id=table.seat_a_id,
            winner_points=fmt.bye_points,
            margin=fmt.bye_spread,
        )
        created = True
    return created


def round_seating(round_: Round) -> Seating:
    """A stored game as a pure seating, tables in number order."""
    pairs, bye = [], None
    for a, b in round_.tables.order_by("number").values_list("seat_a_id", "seat_b_id"):
        if b is None:
            bye = a
        else:
            pairs.append((a, b))
    return Seating(pairs=tuple(pairs), bye=bye, method=round_.method or "draw")


def swap_in_round(round_: Round, a: int, b: int) -> tuple[Seating, list[str]]:
    """Swap the seats of entries ``a`` and ``b`` in ``round_`` and say what that breaks."""
    event = round_.event
    history = load_history(event, exclude=round_)
    field = [e.pk for e in active_entries(event)]
    try:
        swap = pairing.swap_seats(
            round_seating(round_),
            a,
            b,
            players=field,
            met=history.met,
            byes=history.byes,
            forbidden=forbidden_for(event),
            max_meetings=event.meetings_per_opponent,
        )
    except PairingError as exc:
        raise service_error(exc, field="player_a") from None
    names = names_of(event)
    problems = [describe(p, names, history.met, history.byes, hand=True) for p in swap.problems]
    return swap.seating, problems


def rewrite_tables(round_: Round, seating: Seating, notes: list[str]) -> None:
    """Replace a draft's tables by ``seating`` (a hand change), keeping its table numbers."""
    event = round_.event
    history = load_history(event, exclude=round_)
    round_.tables.all().delete()
    write_tables(round_, seating, history.met, event.meetings_per_opponent)
    round_.notes = notes
    round_.method = seating.method
    round_.save(update_fields=["notes", "method"])


# --- Playoffs ------------------------------------------------------------------------------------


def bracket_options(bracket: Bracket) -> dict:
    return {
        "best_of": tuple(bracket.best_of) or 3,
        "side_best_of": bracket.side_best_of,
        "third_place": bracket.third_place,
        "consolation": bracket.consolation,
        "double_elimination": bracket.double_elimination,
    }


def pure_bracket(bracket: Bracket) -> pairing.Bracket:
    """Rebuild the pure bracket: the seeds, then every game in the order it was entered, then
    the withdrawals. The stored match rows are a copy of this, never the source."""
    try:
        pure = pairing.build_bracket(bracket.seeds, **bracket_options(bracket))
        games = PlayoffGame.objects.filter(match__bracket=bracket).order_by("pk")
        for code, winner in games.values_list("match__code", "winner_id"):
            pure = pairing.record_game(pure, code, winner)
        gone = bracket.event.entries.filter(withdrawn=True, pk__in=bracket.seeds)
        for pk in gone.values_list("pk", flat=True):
            pure = pairing.withdraw(pure, pk)
    except PairingError as exc:
        raise service_error(exc) from None
    return pure


def _seat(target) -> str:
    """A (match code, seat) where a player goes next, stored as ``"M2-1:0"``."""
    return "" if target is None else f"{target[0]}:{target[1]}"


def fed_matches(match: PlayoffMatch) -> list[str]:
    """The codes of the matches this match's winner and loser go on to (the inverse of the
    ``"code:seat"`` strings :func:`save_bracket` writes)."""
    return [target.split(":")[0] for target in (match.winner_to, match.loser_to) if target]


def save_bracket(bracket: Bracket, pure: pairing.Bracket) -> None:
    """Write the pure bracket's matches, final places and champion back to the database."""
    existing = {m.code: m for m in bracket.matches.all()}
    create = []
    for position, m in enumerate(pure.matches, start=1):
        wins = m.wins
        values = {
            "position": position,
            "section": m.section,
            "round": m.round,
            "number": m.number,
            "best_of": m.best_of,
            "seat_a_id": m.players[0],
            "seat_b_id": m.players[1],
            "seed_a": m.seeds[0],
            "seed_b": m.seeds[1],
            "empty_a": m.empty[0],
            "empty_b": m.empty[1],
            "wins_a": wins[0],
            "wins_b": wins[1],
            "winner_id": m.winner,
            "decided": m.decided,
            "walkover": m.walkover_to is not None,
            "winner_to": _seat(m.winner_to),
            "loser_to": _seat(m.loser_to),
        }
        row = existing.get(m.id)
        if row is None:
            create.append(PlayoffMatch(bracket=bracket, code=m.id, **values))
            continue
        # Only the matches a game touched change: one small UPDATE each, not a CASE per column.
        changed = {k: v for k, v in values.items() if getattr(row, k) != v}
        if changed:
            PlayoffMatch.objects.filter(pk=row.pk).update(**changed)
    PlayoffMatch.objects.bulk_create(create)
    places = pairing.final_places(pure)
    bracket.places = {str(pk): place for pk, place in places.items()}
    bracket.champion_id = None if pure.champion is None else entry_id(pure.champion)
    bracket.save(update_fields=["places", "champion", "updated_at"])
