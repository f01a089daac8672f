"""The ACC's Master Rating Points (MRPs) and Grass Roots points (GRPs), computed from the rules.

What the ACC's pages say, and what this module does with it (``docs/rules/acc-mrp.md`` has the
sources and says which values are verified):

* **The cut** (verified, cribbage.org/rules/playoffbracket.asp): one entrant in four qualifies
  for the playoff, a fraction rounded up (121-124 entrants give 31 qualifiers).
* **Who earns MRPs in qualifying** (verified, cribbage.org/newsite/about/scoring.asp, "ACC
  Point Scoring System"): the top half of the qualifiers (the top eighth of the field) earn
  Master Points by their game points, the number of qualifying games and whether the event is a
  Main event or a Consolation; the ACC publishes one table per format (Main: 22, 21, 20, 18, 16,
  14 and 12 games; Consolation: 12, 10, 9, 8 and 7 games).
* **The lower half** (verified, same page): from the 2016/2017 season the bottom half of the
  qualifiers earn a fixed award too, 5 in a Main event and 3 in a Consolation.
* **Not verified**: the per-format tables themselves (the search tool did not return those
  pages), the playoff part of the page (cut off after "Everyone who qualifies for the
  playoffs"), how "half" of an odd number of qualifiers is rounded, and the exact date the
  2016/2017 rule took effect. The tables are therefore data a club or the ACC loads
  (:class:`MrpTable`), marked ``verified=False`` until checked against the ACC's page; the
  rounding is a setting of :class:`MrpRules`.

Grass Roots points (:func:`grass_roots_points`): a night of 12 game points or more earns them,
members only. The ACC's own GRP table was not found; the default table is the ACC's public
9-game internet table (IRPs, cribbage.org/internet/Irp.asp, revised 07/02/2016), the same seed
``scoring.seasons.ACC_GRASS_ROOTS`` uses, and a club's season may load its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from .error_codes import BooksError, BooksErrorCode
from .money import ZERO
from .payouts import EntryId

__all__ = [
    "ACC_IRP_NINE_GAME",
    "MRP_RULES",
    "EventKind",
    "GrassRootsAward",
    "MrpAward",
    "MrpBasis",
    "MrpRules",
    "MrpTable",
    "compute_mrp",
    "grass_roots_points",
    "points_earners",
    "qualifier_count",
    "rules_for",
]

SCORING_PAGE = "https://www.cribbage.org/newsite/about/scoring.asp"
BRACKETS_PAGE = "http://cribbage.org/rules/playoffbracket.asp"
IRP_PAGE = "http://www.cribbage.org/internet/Irp.asp"


class EventKind(StrEnum):
    """Main event or consolation: the ACC's tables and fixed awards differ."""

    MAIN = "main"
    CONSOLATION = "consolation"


class MrpBasis(StrEnum):
    """Why a qualifier got the points they got."""

    UPPER_HALF_TABLE = "upper_half_table"  # the format's table by game points
    LOWER_HALF_FIXED = "lower_half_fixed"  # the fixed award for the lower half of qualifiers
    NONE = "none"  # a qualifier in the lower half before the fixed award existed


@dataclass(frozen=True)
class MrpTable:
    """The ACC's Master Points for the upper half of the qualifiers of one format.

    ``points_by_game_points`` maps qualifying game points to MRPs. A player's points are those
    of the highest row at or below their game points (the lowest row for fewer): the table's
    printed form was not seen, so that reading is Pegboard's. ``verified`` says whether the
    values were checked against ``source``.
    """

    kind: EventKind
    games: int
    points_by_game_points: Mapping[int, Decimal]
    source: str = ""
    verified: bool = False

    def __post_init__(self) -> None:
        if self.games < 1 or not self.points_by_game_points:
            raise BooksError(BooksErrorCode.NO_MRP_TABLE, "an MRP table needs games and rows")
        if any(Decimal(p) < 0 for p in self.points_by_game_points.values()):
            raise BooksError(BooksErrorCode.NO_MRP_TABLE, "an MRP table has no negative points")
        object.__setattr__(self, "kind", EventKind(self.kind))
        object.__setattr__(
            self,
            "points_by_game_points",
            {int(k): Decimal(v) for k, v in sorted(self.points_by_game_points.items())},
        )

    def points_for(self, game_points: int) -> Decimal:
        """The MRPs of an upper-half qualifier with ``game_points`` in qualifying."""
        rows = self.points_by_game_points
        at_or_below = [gp for gp in rows if gp <= game_points]
        return rows[max(at_or_below)] if at_or_below else rows[min(rows)]


@dataclass(frozen=True)
class MrpRules:
    """One dated version of the ACC's MRP rules.

    ``effective`` is the first day it applies; ``lower_half_award`` is empty before the fixed
    award existed; ``round_half_up`` says whether the upper half of an odd number of qualifiers
    includes the middle one (a setting: the ACC's page does not say).
    """

    effective: date
    source: str
    qualifier_share: Fraction = Fraction(1, 4)
    upper_share_of_qualifiers: Fraction = Fraction(1, 2)
    lower_half_award: Mapping[EventKind, Decimal] = field(default_factory=dict)
    round_half_up: bool = True
    tables: Mapping[tuple[EventKind, int], MrpTable] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


# Oldest first. The tables are empty: the ACC's per-format pages were not retrieved, so a
# club or the ACC loads them (``compute_mrp(..., table=...)``) until they are checked.
MRP_RULES: tuple[MrpRules, ...] = (
    MrpRules(
        effective=date(1980, 3, 1),  # the ACC's founding; the first rules' date is unknown
        source=SCORING_PAGE,
        notes=("Only the top half of the qualifiers earn Master Points in qualifying.",),
    ),
    MrpRules(
        effective=date(2016, 9, 1),  # "Starting with the 2016/2017 season"; day assumed
        source=SCORING_PAGE,
        lower_half_award={EventKind.MAIN: Decimal(5), EventKind.CONSOLATION: Decimal(3)},
        notes=(
            "Verified on the ACC's Point Scoring System page: the bottom half of the "
            "qualifiers earn 5 (Main) or 3 (Consolation) from the 2016/2017 season.",
        ),
    ),
)


def rules_for(on: date, versions: Sequence[MrpRules] = MRP_RULES) -> MrpRules:
    """The version of the rules in force on ``on`` (the latest effective on or before it)."""
    in_force = [rules for rules in versions if rules.effective <= on]
    if not in_force:
        raise BooksError(BooksErrorCode.NO_MRP_RULES, f"no MRP rules in force on {on}")
    return max(in_force, key=lambda rules: rules.effective)


def _ceil(value: Fraction) -> int:
    return -((-value.numerator) // value.denominator)


def qualifier_count(entrants: int, share: Fraction = Fraction(1, 4)) -> int:
    """Qualifiers for the playoff: one entrant in four, any fraction rounded up (ACC)."""
    if isinstance(entrants, bool) or not isinstance(entrants, int) or entrants < 0:
        raise BooksError(BooksErrorCode.BAD_FIELD, "a field of 0 entrants or more")
    return _ceil(entrants * share)


def points_earners(qualifiers: int, rules: MrpRules) -> int:
    """How many qualifiers are in the upper half (they earn by the format's table)."""
    half = qualifiers * rules.upper_share_of_qualifiers
    return _ceil(half) if rules.round_half_up else half.numerator // half.denominator


@dataclass(frozen=True)
class MrpAward:
    """A qualifier's Master Rating Points and why."""

    entry_id: EntryId
    qualifying_rank: int
    game_points: int
    points: Decimal
    basis: MrpBasis


def compute_mrp(
    kind: EventKind,
    games: int,
    entrants: int,
    standings: Sequence[tuple[EntryId, int]],
    on: date,
    table: MrpTable | None = None,
    versions: Sequence[MrpRules] = MRP_RULES,
) -> list[MrpAward]:
    """The qualifying MRPs of an event.

    ``standings`` are ``(entry id, game points)`` in qualifying order (ranked by game points,
    games won and spread already; at least the qualifiers); ``on`` is the event's date, which
    picks the version of the rules; ``table`` is the format's table when the rules do not carry
    it. Only qualifiers get an award; the upper half needs a table, the lower half gets the
    fixed award of the rules in force.
    """
    kind = EventKind(kind)
    rules = rules_for(on, versions)
    qualifiers = qualifier_count(entrants, rules.qualifier_share)
    if len(standings) < qualifiers:
        raise BooksError(
            BooksErrorCode.BAD_FIELD,
            f"{entrants} entrants give {qualifiers} qualifiers; {len(standings)} standings given",
        )
    upper = points_earners(qualifiers, rules)
    chosen = table or rules.tables.get((kind, games))
    if upper and chosen is None:
        raise BooksError(
            BooksErrorCode.NO_MRP_TABLE,
            f"no Master Points table for a {kind} event of {games} games; load the ACC's",
        )
    if chosen is not None and (chosen.kind is not kind or chosen.games != games):
        raise BooksError(
            BooksErrorCode.NO_MRP_TABLE,
            f"the table is for a {chosen.kind} event of {chosen.games} games, not {kind} {games}",
        )
    fixed = rules.lower_half_award.get(kind)
    awards: list[MrpAward] = []
    for rank, (entry, game_points) in enumerate(standings[:qualifiers], start=1):
        if rank <= upper:
            assert chosen is not None  # checked above: the upper half needs a table
            points, basis = chosen.points_for(game_points), MrpBasis.UPPER_HALF_TABLE
        elif fixed is not None:
            points, basis = fixed, MrpBasis.LOWER_HALF_FIXED
        else:
            points, basis = ZERO, MrpBasis.NONE
        awards.append(MrpAward(entry, rank, game_points, points, basis))
    return awards


# The ACC's 9-game internet table (IRPs, effective August 1, 2014): game points -> points.
ACC_IRP_NINE_GAME: Mapping[int, int] = {
    12: 3, 13: 6, 14: 11, 15: 19, 16: 27, 17: 39, 18: 53, 19: 69, 20: 87, 21: 107,
}  # fmt: skip
GRASS_ROOTS_THRESHOLD = 12


@dataclass(frozen=True)
class GrassRootsAward:
    """A player's Grass Roots points for a night, and why none when none."""

    entry_id: EntryId
    game_points: int
    points: int
    reason: str = ""


def grass_roots_points(
    entry_id: EntryId,
    game_points: int,
    is_member: bool,
    table: Mapping[int, int] = ACC_IRP_NINE_GAME,
) -> GrassRootsAward:
    """A night's Grass Roots points: members with 12 game points or more, by the table.

    Above the table's last row the last row's points apply (a 9-game night cannot pass 27
    game points; the public table stops at 21). Guests earn none: "Grass Roots points go only
    to members" (issue 27), and the report says who was a guest.
    """
    if not is_member:
        return GrassRootsAward(entry_id, game_points, 0, "guest")
    if game_points < GRASS_ROOTS_THRESHOLD or not table:
        return GrassRootsAward(entry_id, game_points, 0, "below 12 game points")
    rows = [gp for gp in table if gp <= game_points]
    if not rows:
        return GrassRootsAward(entry_id, game_points, 0, "below the table")
    return GrassRootsAward(entry_id, game_points, int(table[max(rows)]))
