"""The ranking chain: a registry of small tiebreaker classes a TD orders per event.

Each tiebreaker gives every entry of a tied group a value; the group is split by it, best
first, and what is still tied goes to the next tiebreaker. Head-to-head is computed only
between the players still tied, as the ACC does. Ties that survive the whole chain share a
rank. The key of the tiebreaker that separated each row from the row above is kept, so the
standings can say why one player is ahead of another.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

ACC_CHAIN = ("game_points", "games_won", "spread")
# Stoppa: total chips, then sessions won, then the best single session.
STOPPA_CHAIN = ("chips", "sessions_won", "best_session")


@dataclass(frozen=True, slots=True)
class Game:
    """One decided game, as the chain needs it (byes have no loser)."""

    number: int
    winner: int
    loser: int | None
    winner_points: int
    loser_points: int


@dataclass
class RankingContext:
    """What the tiebreakers may look at: every line, every game, the event's seed."""

    lines: dict[int, Any]
    games: Sequence[Game] = ()
    seed: int = 0
    _opponents: dict[int, list[int]] | None = field(default=None, repr=False)
    _games_of: dict[int, list[Game]] | None = field(default=None, repr=False)
    _latest: int | None = field(default=None, repr=False)

    def games_of(self, entry: int) -> list[Game]:
        """The games ``entry`` played or had a bye in, from one pass over every game: a
        tiebreaker reads each tied player's own games, not every game once per tied group."""
        if self._games_of is None:
            index: dict[int, list[Game]] = defaultdict(list)
            for game in self.games:
                index[game.winner].append(game)
                if game.loser is not None:
                    index[game.loser].append(game)
            self._games_of = index
        return self._games_of.get(entry, [])

    def latest_game(self) -> int:
        """The number of the latest game with a result (0 before any)."""
        if self._latest is None:
            self._latest = max((g.number for g in self.games), default=0)
        return self._latest

    def opponents(self) -> dict[int, list[int]]:
        """Each entry's opponents, one item per game played (byes excluded)."""
        if self._opponents is None:
            found: dict[int, list[int]] = defaultdict(list)
            for game in self.games:
                if game.loser is not None:
                    found[game.winner].append(game.loser)
                    found[game.loser].append(game.winner)
            self._opponents = found
        return self._opponents


class Tiebreaker:
    """A metric of the chain. Subclasses set the names and compute ``value`` per entry."""

    key: ClassVar[str]
    name: ClassVar[Any]
    abbreviation: ClassVar[Any]
    higher_is_better: ClassVar[bool] = True
    # The column of the standings line query this metric reads, for the SQL ranking; None
    # for the Python passes (they need more than one line to decide).
    sql_column: ClassVar[str | None] = None

    def values(self, group: Sequence[int], context: RankingContext) -> dict[int, Any]:
        """The value of each entry of ``group`` (entry ids)."""
        return {entry: self.value(context.lines[entry]) for entry in group}

    def value(self, line: Any) -> Any:  # pragma: no cover - each metric overrides one of the two
        raise NotImplementedError


REGISTRY: dict[str, Tiebreaker] = {}


def register(cls: type[Tiebreaker]) -> type[Tiebreaker]:
    """Class decorator: add a tiebreaker to the registry under its key."""
    REGISTRY[cls.key] = cls()
    return cls


@register
class GamePoints(Tiebreaker):
    key, name, abbreviation = "game_points", _("game points"), _("GP")
    sql_column = "game_points"

    def value(self, line):
        return line.game_points


@register
class GamesWon(Tiebreaker):
    key, name, abbreviation = "games_won", _("games won"), _("W")
    sql_column = "games_won"

    def value(self, line):
        return line.games_won


@register
class Spread(Tiebreaker):
    key, name, abbreviation = "spread", _("net spread"), _("Spr")
    sql_column = "spread"

    def value(self, line):
        return line.spread


@register
class SkunksWon(Tiebreaker):
    key, name, abbreviation = "skunks_won", _("skunks won"), _("SkW")
    sql_column = "skunks_won"

    def value(self, line):
        return line.skunks_won


@register
class SkunksSuffered(Tiebreaker):
    key, name, abbreviation = "skunks_suffered", _("fewer skunks suffered"), _("SkL")
    sql_column = "skunks_suffered"
    higher_is_better = False

    def value(self, line):
        return line.skunks_suffered


@register
class Chips(Tiebreaker):
    """Stoppa: total chip net over every session played."""

    key, name, abbreviation = "chips", _("total chips"), _("Chips")
    sql_column = "chips"

    def value(self, line):
        return getattr(line, "chips", 0) or 0


@register
class SessionsWon(Tiebreaker):
    """Stoppa: sessions finished with the best net at the table (a shared best counts)."""

    key, name, abbreviation = "sessions_won", _("sessions won"), _("SW")
    sql_column = "sessions_won"

    def value(self, line):
        return getattr(line, "sessions_won", 0) or 0


@register
class BestSession(Tiebreaker):
    """Stoppa: the best chip net of a single session."""

    key, name, abbreviation = "best_session", _("best session"), _("Best")
    sql_column = "best_session"

    def value(self, line):
        return getattr(line, "best_session", 0) or 0


@register
class HeadToHead(Tiebreaker):
    """Game points scored in the games between the players still tied, and only those."""

    key, name, abbreviation = "head_to_head", _("head-to-head"), _("H2H")

    def values(self, group, context):
        members = set(group)
        points = dict.fromkeys(group, 0)
        for entry in group:
            for game in context.games_of(entry):
                if game.loser is None or game.winner not in members or game.loser not in members:
                    continue
                points[entry] += game.winner_points if game.winner == entry else game.loser_points
        return points


@register
class Buchholz(Tiebreaker):
    """The sum of the game points of every opponent met (strength of schedule)."""

    key, name, abbreviation = "buchholz", _("opponents' game points"), _("Bch")

    def values(self, group, context):
        opponents = context.opponents()
        return {e: sum(context.lines[o].game_points for o in opponents.get(e, ())) for e in group}


@register
class MedianBuchholz(Tiebreaker):
    """Buchholz without the best and the worst opponent (with three or more opponents)."""

    key, name, abbreviation = "median_buchholz", _("median Buchholz"), _("MBch")

    def values(self, group, context):
        opponents = context.opponents()
        out = {}
        for entry in group:
            points = sorted(context.lines[o].game_points for o in opponents.get(entry, ()))
            out[entry] = sum(points[1:-1]) if len(points) >= 3 else sum(points)
        return out


@register
class MostRecent(Tiebreaker):
    """Game points in the latest game, then the one before, and so on."""

    key, name, abbreviation = "most_recent", _("most recent results"), _("Rec")

    def values(self, group, context):
        by_game: dict[int, dict[int, int]] = defaultdict(dict)
        for entry in group:
            for game in context.games_of(entry):
                points = game.winner_points if game.winner == entry else game.loser_points
                by_game[entry][game.number] = points
        latest = context.latest_game()
        return {e: tuple(by_game[e].get(n, 0) for n in range(latest, 0, -1)) for e in group}


@register
class DrawOfLots(Tiebreaker):
    """A recorded draw of lots: a random order fixed by the event's seed, never re-drawn."""

    key, name, abbreviation = "draw", _("draw of lots"), _("Lot")

    def values(self, group, context):
        return {e: random.Random(f"{context.seed}:lots:{e}").random() for e in group}


def validate_chain(keys: Iterable[str], allowed: Collection[str] | None = None) -> tuple[str, ...]:
    """The chain as a tuple of known keys; ValueError names an unknown or repeated one.

    ``allowed`` (a game kind's tiebreakers) refuses a key the kind cannot rank by, such as
    chips in cribbage or head-to-head at Stoppa's tables of 3-6.
    """
    chain = tuple(keys)
    known = REGISTRY.keys() if allowed is None else [k for k in REGISTRY if k in allowed]
    for key in chain:
        if key not in known:
            raise ValueError(
                gettext("Unknown tiebreaker %(key)r; known: %(known)s.")
                % {"key": key, "known": ", ".join(sorted(known))}
            )
    if len(set(chain)) != len(chain):
        raise ValueError(gettext("A tiebreaker is listed twice."))
    if not chain:
        raise ValueError(gettext("The ranking chain needs at least one tiebreaker."))
    return chain


@dataclass(frozen=True, slots=True)
class Ranked:
    """One ranked entry: its rank, whether it shares it, and what put it below the row above."""

    entry: int
    rank: int
    tied: bool
    separated_by: str


def rank(
    entries: Sequence[int],
    chain: Sequence[str],
    context: RankingContext,
    *,
    display_key=None,
) -> list[Ranked]:
    """Rank ``entries`` by ``chain``; ties that survive every tiebreaker share a rank."""
    blocks: list[tuple[list[int], str]] = []

    def split(group: list[int], depth: int, separated_by: str) -> None:
        if len(group) == 1 or depth == len(chain):
            blocks.append((group, separated_by))
            return
        breaker = REGISTRY[chain[depth]]
        values = breaker.values(group, context)
        ordered = sorted(group, key=values.__getitem__, reverse=breaker.higher_is_better)
        start = 0
        for i in range(1, len(ordered) + 1):
            if i == len(ordered) or values[ordered[i]] != values[ordered[start]]:
                split(ordered[start:i], depth + 1, separated_by if start == 0 else breaker.key)
                start = i

    split(list(entries), 0, "")
    out: list[Ranked] = []
    position = 1
    for group, separated_by in blocks:
        members = sorted(group, key=display_key) if display_key else group
        for i, entry in enumerate(members):
            # Only the first row of a tied group is placed below the row above by something;
            # the rows after it are tied with the row above (no criterion between them).
            out.append(Ranked(entry, position, len(group) > 1, separated_by if i == 0 else ""))
        position += len(group)
    return out


def describe(key: str) -> str:
    """The tiebreaker's name, for people."""
    return str(REGISTRY[key].name) if key in REGISTRY else ""
