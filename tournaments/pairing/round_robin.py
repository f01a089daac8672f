"""Round robins: the circle method for 2-player tables, spread-out groups for 3-6-player tables.

Two-player round robin (small fields): everyone meets everyone once, by the circle method over a
seeded shuffle of the field; an odd field gives each player exactly one bye.

Multi-player tables (Stoppa, 3- and 4-player cribbage) cannot in general give every pair the same
number of meetings, so each round is drawn to add as few repeat meetings as possible: the next
round's tables minimise the sum, over every pair sharing a table, of how often that pair has
already shared one. That keeps the sum of squared meeting counts as small as a round can make
it, which spreads meetings evenly. A seeded greedy placement is improved by swapping players
between tables until no swap helps, from several seeded starts; the schedule reports the spread
of meeting counts (most minus fewest over all pairs of the field).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from ._matching import ordinal
from .errors import PairingError
from .qualifying import (
    PHANTOM,
    Compromise,
    PairKey,
    Player,
    Seating,
    check_field,
    circle_round,
    forbidden_pairs,
    pair_key,
)

MIN_TABLE, MAX_TABLE = 3, 6
RESTARTS = 8
# A forbidden pair at one table outweighs any number of repeats elsewhere.
FORBIDDEN_COST = 10**9
# What seating two players together costs: earlier meetings, FORBIDDEN_COST for a forbidden pair.
PairCost = Callable[[Player, Player], int]


def round_robin(
    players: Sequence[Player],
    *,
    seed: int | None = None,
    forbidden: Iterable[Iterable[Player]] | None = None,
) -> tuple[Seating, ...]:
    """All games of a 2-player round robin: n-1 games (even field) or n (odd, one bye each).

    With ``seed`` the field is shuffled first (same seed, same schedule); without it the
    entry order is the movement's order. A round robin has everyone meet everyone, so a
    forbidden pair in the field raises :class:`PairingError` ("forbidden_in_round_robin").
    """
    players = list(players)
    check_field(players)
    blocked = forbidden_pairs(forbidden)
    inside = [key for key in blocked if key <= set(players)]
    if inside:
        a, b = sorted(inside[0], key=repr)
        raise PairingError(
            "forbidden_in_round_robin",
            f"{a} and {b} are a forbidden pair, but a round robin has everyone meet everyone: "
            "lift the restriction or choose another format.",
        )
    order = list(players)
    if seed is not None:
        random.Random(f"{seed}:round-robin").shuffle(order)
    games = len(order) - 1 if len(order) % 2 == 0 else len(order)
    out = []
    for game in range(1, games + 1):
        pairs, bye = [], None
        for a, b in circle_round(order, game):
            if a is PHANTOM or b is PHANTOM:
                bye = b if a is PHANTOM else a
            else:
                pairs.append((a, b))
        out.append(Seating(pairs=tuple(pairs), bye=bye, method="round_robin"))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class GroupRound:
    """One round of multi-player tables: the tables, who sits out, and the repeats it seats."""

    tables: tuple[tuple[Player, ...], ...]
    sitting_out: tuple[Player, ...] = field(default=())
    compromises: tuple[Compromise, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class GroupSchedule:
    """Rounds of multi-player tables and how evenly they spread meetings.

    ``most`` and ``fewest`` are the highest and lowest number of times any two players of the
    field shared a table; ``spread`` is their difference (0 = perfectly even).
    """

    rounds: tuple[GroupRound, ...]
    most: int
    fewest: int

    @property
    def spread(self) -> int:
        """Most minus fewest meetings over all pairs of the field."""
        return self.most - self.fewest


def table_sizes(
    players: int, table_size: int, min_table_size: int | None = None
) -> tuple[tuple[int, ...], int]:
    """Table sizes for a round and how many players sit out.

    Tables hold ``table_size`` players, or as few as ``min_table_size`` (default: the same,
    fixed-size tables) so that nobody sits out when sizes can absorb the field; otherwise the
    fewest possible players sit out. 10 players, tables of 4 -> (4, 3, 3) with min 3, else
    (4, 4) and 2 sitting out.
    """
    low = table_size if min_table_size is None else min_table_size
    if not MIN_TABLE <= low <= table_size <= MAX_TABLE:
        raise PairingError(
            "bad_table_size",
            f"Tables hold {MIN_TABLE} to {MAX_TABLE} players (smallest table {low}, "
            f"largest {table_size}).",
        )
    if players < low:
        raise PairingError(
            "too_few_players", f"At least {low} players are needed for a table of {low}."
        )
    for tables in range(math.ceil(players / table_size), 0, -1):
        seated = min(players, tables * table_size)
        if seated >= tables * low:
            base, extra = divmod(seated, tables)
            sizes = (base + 1,) * extra + (base,) * (tables - extra)
            return sizes, players - seated
    raise AssertionError("unreachable: one table of the smallest size always fits")


def draw_group_round(
    players: Sequence[Player],
    *,
    table_size: int,
    seed: int,
    round_number: int,
    min_table_size: int | None = None,
    met: Mapping[PairKey, int] | None = None,
    sat_out: Mapping[Player, int] | None = None,
    forbidden: Iterable[Iterable[Player]] | None = None,
) -> GroupRound:
    """Draw one round of multi-player tables for the active field ``players``.

    ``met`` counts how often each :func:`pair_key` has shared a table, ``sat_out`` how often
    each player sat out. Those who sit out are the ones who sat out least (a seeded draw among
    equals); the tables add as few repeat meetings as the search finds, never a forbidden pair
    (:class:`PairingError` "forbidden_pairs" if they cannot be kept apart).
    """
    players = list(players)
    check_field(players)
    met = met or {}
    sat_out = sat_out or {}
    blocked = forbidden_pairs(forbidden)
    sizes, sitting = table_sizes(len(players), table_size, min_table_size)
    rng = random.Random(f"{seed}:{round_number}:groups")

    order = list(players)
    rng.shuffle(order)
    order.sort(key=lambda p: sat_out.get(p, 0))  # stable: the shuffle breaks ties
    out = tuple(sorted(order[:sitting], key=players.index))
    seated = order[sitting:]

    def cost(a: Player, b: Player) -> int:
        key = pair_key(a, b)
        return FORBIDDEN_COST if key in blocked else met.get(key, 0)

    best, best_cost = _search(seated, sizes, rng, cost)
    if best_cost >= FORBIDDEN_COST:
        raise PairingError(
            "forbidden_pairs",
            "No tables keep every forbidden pair apart in this field: "
            "lift a forbidden pair or change the table size.",
        )
    notes = tuple(
        Compromise(
            "repeat",
            (a, b),
            f"{a} and {b} share a table for the {ordinal(met[pair_key(a, b)] + 1)} time: "
            "no better spread was found.",
        )
        for t in best
        for a, b in combinations(t, 2)
        if met.get(pair_key(a, b), 0)
    )
    return GroupRound(tables=tuple(tuple(t) for t in best), sitting_out=out, compromises=notes)


def group_round_robin(
    players: Sequence[Player],
    *,
    table_size: int,
    rounds: int,
    seed: int,
    min_table_size: int | None = None,
    forbidden: Iterable[Iterable[Player]] | None = None,
) -> GroupSchedule:
    """``rounds`` rounds of multi-player tables spreading meetings as evenly as found.

    Each round is :func:`draw_group_round` on the history so far; the schedule reports the
    meeting-count spread. Same arguments, same schedule.
    """
    players = list(players)
    met: dict[PairKey, int] = {}
    sat_out: dict[Player, int] = {}
    out = []
    for number in range(1, rounds + 1):
        drawn = draw_group_round(
            players,
            table_size=table_size,
            seed=seed,
            round_number=number,
            min_table_size=min_table_size,
            met=met,
            sat_out=sat_out,
            forbidden=forbidden,
        )
        for table in drawn.tables:
            for a, b in combinations(table, 2):
                met[pair_key(a, b)] = met.get(pair_key(a, b), 0) + 1
        for p in drawn.sitting_out:
            sat_out[p] = sat_out.get(p, 0) + 1
        out.append(drawn)
    counts = [met.get(pair_key(a, b), 0) for a, b in combinations(players, 2)]
    return GroupSchedule(rounds=tuple(out), most=max(counts), fewest=min(counts))


def _search(
    seated: list[Player], sizes: Sequence[int], rng: random.Random, cost: PairCost
) -> tuple[list[list[Player]], int]:
    """Seeded greedy starts, each improved by swaps; the cheapest wins."""

    def total(tables: list[list[Player]]) -> int:
        return sum(cost(a, b) for t in tables for a, b in combinations(t, 2))

    best: list[list[Player]] = []
    best_cost = -1
    # Large fields are rare here (a club's round robin); fewer starts keep them fast.
    for _ in range(RESTARTS if len(seated) <= 60 else 2):
        tables = _improve(_place(seated, sizes, rng, cost), cost)
        here = total(tables)
        if best_cost < 0 or here < best_cost:
            best, best_cost = tables, here
        if best_cost == 0:
            break
    return best, best_cost


def _place(
    seated: list[Player], sizes: Sequence[int], rng: random.Random, cost: PairCost
) -> list[list[Player]]:
    """Seeded greedy: each player to the open table where they add the least, ties at random."""
    order = list(seated)
    rng.shuffle(order)
    tables: list[list[Player]] = [[] for _ in sizes]
    for p in order:
        options = [
            (sum(cost(p, q) for q in t), rng.random(), i)
            for i, t in enumerate(tables)
            if len(t) < sizes[i]
        ]
        tables[min(options)[2]].append(p)
    return tables


def _improve(tables: list[list[Player]], cost: PairCost) -> list[list[Player]]:
    """Swap players between tables while a swap lowers the total (first improvement)."""

    def added(p: Player, table: list[Player], without: Player | None = None) -> int:
        return sum(cost(p, q) for q in table if q != p and q != without)

    improved = True
    passes = 0
    while improved and passes < 50:
        improved = False
        passes += 1
        for ti, tj in combinations(range(len(tables)), 2):
            for x in range(len(tables[ti])):
                for y in range(len(tables[tj])):
                    p, q = tables[ti][x], tables[tj][y]
                    before = added(p, tables[ti]) + added(q, tables[tj])
                    after = added(q, tables[ti], without=p) + added(p, tables[tj], without=q)
                    if after < before:
                        tables[ti][x], tables[tj][y] = q, p
                        improved = True
    return tables
