"""What a player needs to make the cut: "a win puts you in", "out of reach" (pure, no Django).

The field is the players the cut chooses from (withdrawn players left out), each with their
game points, games won and the qualifying games they have left. Nobody knows the pairings of
the games to come, so every player's games are taken to end any way a game can end: a loss
(no game points) or a win worth any of the format's win values (a win, a skunk, a double or
triple skunk, a forfeit or a bye). Both sure verdicts hold in the real event too: "in whatever
happens" assumes every other player wins every game with the most points, "out of reach"
assumes they all lose, and the real results lie between.

The ranking chain decides what "ahead" means: its leading game points and games won compare
exactly; two players level on them go to the rest of the chain (spread, head-to-head, the draw
of lots), which nobody can tell before the games are played. So a verdict that depends on
finishing level says so (:attr:`Need.TIEBREAK`) instead of guessing.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

# The chain keys this module compares exactly; any other key is a tiebreak it cannot foresee.
EXACT_KEYS = ("game_points", "games_won")
NAMES_SHOWN = 3  # players named in a "level with" verdict


class Need(StrEnum):
    """What a player needs, best news first."""

    IN = "in"  # in whatever happens
    WINS = "wins"  # ``wins`` wins of any kind put them in, whatever the other tables do
    SKUNKS = "skunks"  # ``wins`` wins at skunk level ``skunk_level`` put them in
    # ``wins`` wins (at skunk level ``skunk_level``) put them in unless they finish level with
    # someone: the rest of the chain decides.
    TIEBREAK = "tiebreak"
    OPEN = "open"  # still possible with ``wins`` wins, but the other tables decide
    OUT = "out"  # out of reach


@dataclass(frozen=True, slots=True)
class Line:
    """One player of the field: where they stand and the games they have left."""

    entry: int
    game_points: int
    games_won: int
    games_left: int
    name: str = ""


@dataclass(frozen=True, slots=True)
class MatchPoints:
    """The game points of a win by skunk level (0 plain .. 3 triple), and of a forfeit or bye
    win (a loss is worth none)."""

    win: int
    skunk: int
    double_skunk: int
    triple_skunk: int
    forfeit: int | None = None
    bye: int | None = None

    @property
    def by_level(self) -> tuple[int, int, int, int]:
        return (self.win, self.skunk, self.double_skunk, self.triple_skunk)

    @property
    def win_values(self) -> tuple[int, ...]:
        """Every value a won game can have, lowest first."""
        extra = [v for v in (self.forfeit, self.bye) if v is not None]
        return tuple(sorted({*self.by_level, *extra}))


@dataclass(frozen=True, slots=True)
class Verdict:
    """A player's need: see :class:`Need`. ``wins`` out of ``games_left``; ``skunk_level``
    of those wins (SKUNKS; OPEN when only skunks keep the player in the running);
    ``level_with`` the names of players they could finish level with (TIEBREAK, at most
    :data:`NAMES_SHOWN`) and ``level_others`` how many more; ``tiebreak`` the chain's key
    that decides between level players."""

    need: Need
    games_left: int
    wins: int = 0
    skunk_level: int = 0
    level_with: tuple[str, ...] = ()
    level_others: int = 0
    tiebreak: str = ""


def exact_keys(chain: Sequence[str]) -> tuple[str, ...]:
    """The chain's leading keys this module compares exactly (game points, games won)."""
    keys: list[str] = []
    for key in chain:
        if key not in EXACT_KEYS or key in keys:
            break
        keys.append(key)
    return tuple(keys)


def tiebreak_after(chain: Sequence[str]) -> str:
    """The chain's first key after the exact ones: what decides between level players."""
    keys = exact_keys(chain)
    return chain[len(keys)] if len(chain) > len(keys) else ""


Key = tuple[int, ...]


class _Field:
    """The field's best and worst finishes, sorted, to count in O(log n) who could pass."""

    def __init__(self, lines: Sequence[Line], points: MatchPoints, keys: tuple[str, ...]):
        self.keys = keys
        self.top = max(points.win_values)
        self.worst = {line.entry: self.key(line.game_points, line.games_won) for line in lines}
        self.best = {
            line.entry: self.key(
                line.game_points + line.games_left * self.top, line.games_won + line.games_left
            )
            for line in lines
        }
        self.sorted_best = sorted(self.best.values())
        self.sorted_worst = sorted(self.worst.values())
        self.lines = lines

    def key(self, game_points: int, games_won: int) -> Key:
        values = {"game_points": game_points, "games_won": games_won}
        return tuple(values[k] for k in self.keys)

    def at_least(self, entry: int, s: Key) -> int:
        """Others who could finish level with ``s`` or ahead of it."""
        n = len(self.sorted_best) - bisect_left(self.sorted_best, s)
        return n - (self.best[entry] >= s)

    def above(self, entry: int, s: Key) -> int:
        """Others who could finish strictly ahead of ``s``."""
        n = len(self.sorted_best) - bisect_right(self.sorted_best, s)
        return n - (self.best[entry] > s)

    def surely_above(self, entry: int, s: Key) -> int:
        """Others ahead of ``s`` even if they lose every game left."""
        n = len(self.sorted_worst) - bisect_right(self.sorted_worst, s)
        return n - (self.worst[entry] > s)

    def could_be_level(self, entry: int, s: Key) -> list[Line]:
        """Others whose finish can be level with ``s``, best placed first (a bound: those
        whose worst and best finishes straddle it)."""
        return [
            line
            for line in self.lines
            if line.entry != entry and self.worst[line.entry] <= s <= self.best[line.entry]
        ]


def _verdict(field: _Field, line: Line, cut: int, points: MatchPoints, tiebreak: str) -> Verdict:
    k = line.games_left
    low = min(points.win_values)

    def finish(wins: int, value: int) -> Key:
        return field.key(line.game_points + wins * value, line.games_won + wins)

    def sure(s: Key) -> bool:  # in even losing every tiebreak
        return field.at_least(line.entry, s) < cut

    def possible(s: Key) -> bool:  # in for some results of the others, winning the tiebreaks
        return field.surely_above(line.entry, s) < cut

    if sure(finish(0, 0)):
        return Verdict(Need.IN, k)
    if not possible(finish(k, field.top)):
        return Verdict(Need.OUT, k)
    for wins in range(1, k + 1):
        if sure(finish(wins, low)):
            return Verdict(Need.WINS, k, wins)
    for wins in range(1, k + 1):
        for level, value in enumerate(points.by_level):
            if level and value > low and sure(finish(wins, value)):
                return Verdict(Need.SKUNKS, k, wins, skunk_level=level)
    tries = [(wins, 0, low) for wins in range(k + 1)] + [
        (wins, level, value)
        for wins in range(1, k + 1)
        for level, value in enumerate(points.by_level)
        if level and value > low
    ]
    for wins, level, value in tries:
        s = finish(wins, value)
        if field.above(line.entry, s) < cut:
            even = field.could_be_level(line.entry, s)
            return Verdict(
                Need.TIEBREAK,
                k,
                wins,
                skunk_level=level,
                level_with=tuple(o.name for o in even[:NAMES_SHOWN]),
                level_others=max(0, len(even) - NAMES_SHOWN),
                tiebreak=tiebreak,
            )
    for wins in range(k + 1):
        if possible(finish(wins, low)):
            return Verdict(Need.OPEN, k, wins)
    for wins in range(1, k + 1):
        for level, value in enumerate(points.by_level):
            if level and possible(finish(wins, value)):
                return Verdict(Need.OPEN, k, wins, skunk_level=level)
    return Verdict(Need.OPEN, k, k, skunk_level=3)  # only the format's best win value keeps it open


def what_it_takes(
    lines: Sequence[Line],
    *,
    cut: int,
    points: MatchPoints,
    chain: Sequence[str],
    only: Iterable[int] | None = None,
) -> dict[int, Verdict]:
    """Every player's :class:`Verdict` (or those of the entries in ``only``): ``lines`` is the
    field the cut takes ``cut`` players from. Empty when the chain does not start with game
    points or games won (nothing here can be said for it) or the cut takes nobody.

    O(n log n) per player asked: a 1,000-player field answers every player in well under a
    second."""
    keys = exact_keys(chain)
    if not keys or cut < 1 or not lines:
        return {}
    field = _Field(lines, points, keys)
    tiebreak = tiebreak_after(chain)
    wanted = None if only is None else set(only)
    return {
        line.entry: _verdict(field, line, cut, points, tiebreak)
        for line in lines
        if wanted is None or line.entry in wanted
    }
