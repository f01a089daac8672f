"""The games club ratings rest on, read from the results: all of them, or the new ones.

A rated game is a :class:`RatedGame`: its place in the club's order (event date, event, game
number, table), its players and their ranks. Three sources: the qualifying results of
cribbage (:class:`GameResult`, played, with a loser), the playoff games that are not forfeits,
and the Stoppa tables whose nets are entered. Forfeits and byes are not games played.

For the incremental job (:func:`scoring.ratings.update_club`) the results, by far the most
numerous, are also read from a watermark (the last rated result's id) and summed up per event
by a checksum that SQL computes without loading a row (:func:`results_checksums`); Python
computes the same checksum over the rows it rated (:class:`Checksum`), so the job can tell
that the results it rated are still exactly the ones stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby

from django.db.models import BigIntegerField, Count, Q, Sum, Value
from django.db.models.functions import Cast, Coalesce, Mod

from tournaments.limits import MAX_NUMBER
from tournaments.models import GameResult, PlayoffGame, StoppaSeat

Key = tuple[str, int, int, int]  # (event date, event id, game number, table number)
# A playoff game's "game number" in the key: past every qualifying game of its event, then
# the match's playing order (its "table" is the game's number within the match).
PLAYOFF_ORDER = MAX_NUMBER + 1
# The checksum's modulus (a prime): each result's terms stay below it, so the sums fit in 64
# bits on SQLite and PostgreSQL alike.
PRIME = 2_147_483_647


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One rated game: its place in the club's order and each player's rank (1 = best).

    ``teams`` (partners' cribbage) gives each player's side, in the order of ``players``:
    (0, 0, 1, 1) for two teams of two; empty, every player is a side of their own.
    """

    key: Key
    players: tuple[int, ...]
    ranks: tuple[int, ...]
    teams: tuple[int, ...] = ()

    @property
    def event_id(self) -> int:
        return self.key[1]

    def sides(self) -> list[list[int]]:
        """The indexes of ``players`` side by side (OpenSkill's teams), in order."""
        if not self.teams:
            return [[i] for i in range(len(self.players))]
        sides: dict[int, list[int]] = {}
        for i, side in enumerate(self.teams):
            sides.setdefault(side, []).append(i)
        return list(sides.values())

    def token(self) -> bytes:
        """What the digest of the processed games reads of this game (the teams only where
        there are some: the digests of one-player games stay as they were)."""
        if self.teams:
            return repr((self.key, self.players, self.ranks, self.teams)).encode()
        return repr((self.key, self.players, self.ranks)).encode()


def key_text(key: Key) -> str:
    """A key as text that sorts as the key does (stored as a player's last rated game)."""
    date, event_id, number, table = key
    return f"{date}|{event_id:012d}|{number:06d}|{table:06d}"


def competition_ranks(values: list[int]) -> tuple[int, ...]:
    """1-based ranks, higher value better, equal values sharing a rank (1, 2, 2, 4)."""
    return tuple(1 + sum(other > value for other in values) for value in values)


@dataclass(slots=True)
class Checksum:
    """An event's rated results summed up: how many, the sum of their ids, and for the winner
    and the loser the sum of (result id x entry id) mod PRIME. A result added, removed or
    turned round (a correction) changes it. (An entry changes player only in a merge, which
    marks the club's ratings for a replay: scoring.ratings.on_players_merged.)"""

    count: int = 0
    ids: int = 0
    winners: int = 0
    losers: int = 0

    @classmethod
    def parse(cls, text: str) -> Checksum:
        return cls(*(int(n) for n in text.split(":")))

    def add(self, result_id: int, winner: int, loser: int) -> None:
        self.count += 1
        self.ids += result_id
        self.winners += result_id * winner % PRIME
        self.losers += result_id * loser % PRIME

    def text(self) -> str:
        return f"{self.count}:{self.ids}:{self.winners}:{self.losers}"


def results_checksums(event_ids: list[int]) -> dict[int, str]:
    """The :class:`Checksum` of each event's rated results as they are stored now, by event
    (one SQL aggregate over those events' results, nothing loaded; none for an event without
    one)."""

    def term(entry: str):
        big: BigIntegerField[int, int] = BigIntegerField()
        product = Cast("pk", big) * Cast(entry, big)
        return Coalesce(Sum(Mod(product, Value(PRIME), output_field=big)), 0, output_field=big)

    rows = (
        _played(Q(winner__event_id__in=event_ids))
        .values("winner__event_id")
        .annotate(
            count=Count("pk"),
            ids=Coalesce(Sum("pk"), 0),
            winners=term("winner_id"),
            losers=term("loser_id"),
        )
        .order_by()
    )
    return {
        row["winner__event_id"]: Checksum(
            row["count"], int(row["ids"]), int(row["winners"]), int(row["losers"])
        ).text()
        for row in rows
    }


def _played(results: Q):
    return GameResult.objects.filter(results, kind=GameResult.Kind.PLAYED, loser__isnull=False)


@dataclass(frozen=True, slots=True)
class ResultRow:
    """A rated qualifying result: its id and entries (for the checksum) and its game."""

    pk: int
    winner: int
    loser: int
    game: RatedGame


def result_games(results: Q) -> list[ResultRow]:
    """The qualifying results ``results`` selects that are rated."""
    played = _played(results).values_list(
        "pk",
        "winner_id",
        "loser_id",
        "table__round__event__date",
        "table__round__event_id",
        "table__round__number",
        "table__number",
        "winner__player_id",
        "loser__player_id",
        "winner__partner_id",
        "loser__partner_id",
    )
    return [
        ResultRow(pk, winner_entry, loser_entry, _two_sides(key, winner, loser, w_mate, l_mate))
        for (
            pk,
            winner_entry,
            loser_entry,
            date,
            event_id,
            number,
            table,
            winner,
            loser,
            w_mate,
            l_mate,
        ) in played
        for key in [(date.isoformat(), event_id, number, table or 0)]
    ]


def _two_sides(key: Key, winner: int, loser: int, w_mate: int | None, l_mate: int | None):
    """A two-sided game: two players, or two teams of partners (OpenSkill's teams of 2)."""
    if w_mate is None or l_mate is None:
        return RatedGame(key, (winner, loser), (1, 2))
    return RatedGame(key, (winner, w_mate, loser, l_mate), (1, 1, 2, 2), (0, 0, 1, 1))


def other_games(*, seats: Q, playoff: Q) -> list[RatedGame]:
    """The rated playoff games and Stoppa tables the filters select (unsorted)."""
    games: list[RatedGame] = []
    # Playoff games are confirmed games too (a forfeit is not a game played, as in qualifying).
    playoff_games = PlayoffGame.objects.filter(
        playoff, forfeit=False, match__seat_a__isnull=False, match__seat_b__isnull=False
    ).values_list(
        "match__bracket__event__date",
        "match__bracket__event_id",
        "match__position",
        "number",
        "winner_id",
        "match__seat_a_id",
        "match__seat_a__player_id",
        "match__seat_b__player_id",
    )
    for date, event_id, position, number, winner, seat_a, player_a, player_b in playoff_games:
        pair = (player_a, player_b) if winner == seat_a else (player_b, player_a)
        key = (date.isoformat(), event_id, PLAYOFF_ORDER + position, number)
        games.append(RatedGame(key, pair, (1, 2)))
    stoppa = (
        StoppaSeat.objects.filter(
            seats,
            table__entered_at__isnull=False,
            table__number__isnull=False,
            net__isnull=False,
        )
        .order_by("table_id", "position")
        .values_list(
            "table__round__event__date",
            "table__round__event_id",
            "table__round__number",
            "table__number",
            "entry__player_id",
            "net",
        )
    )
    for (date, event_id, number, table), rows in groupby(stoppa, key=lambda row: row[:4]):
        players_nets = [(row[4], row[5]) for row in rows]
        if len(players_nets) < 2:
            continue
        games.append(
            RatedGame(
                (date.isoformat(), event_id, number, table or 0),
                tuple(p for p, _net in players_nets),
                competition_ranks([net or 0 for _p, net in players_nets]),
            )
        )
    return games


def club_filters(club_id: int) -> dict[str, Q]:
    """The filters of :func:`result_games` and :func:`other_games` for a club's events (a
    result by its winner's entry: one join fewer than by its table, the same rows)."""
    return {
        "results": Q(winner__event__club_id=club_id),
        "seats": Q(table__round__event__club_id=club_id),
        "playoff": Q(match__bracket__event__club_id=club_id),
    }


def events_filters(event_ids: list[int]) -> dict[str, Q]:
    """The filters of :func:`other_games` for some events."""
    return {
        "seats": Q(table__round__event_id__in=event_ids),
        "playoff": Q(match__bracket__event_id__in=event_ids),
    }


def rated_games(*, results: Q, seats: Q, playoff: Q) -> list[RatedGame]:
    """The rated games the three filters select (qualifying results, Stoppa seats, playoff
    games), in the club's order: a playoff game after every qualifying game of its event,
    by the match's playing order and the game's number."""
    games = [row.game for row in result_games(results)]
    games += other_games(seats=seats, playoff=playoff)
    games.sort(key=lambda game: game.key)
    return games
