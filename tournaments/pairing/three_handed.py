"""Seating for three-handed cribbage: tables of three, a table of two where the field does not
divide, and as few repeat meetings as the field allows.

Pure Python, no ORM: players are plain hashable keys (the bridge passes entry ids), the history
is a count of how often each pair already sat together. The same players, history and seed
always give the same seating.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from .errors import PairingError
from .qualifying import PairKey, forbidden_pairs, pair_key

Player = Hashable

# How many shuffled starts the search climbs from; the best end wins (ties: the first).
RESTARTS = 80
# What a forbidden pair at one table costs: more than any number of repeat meetings.
FORBIDDEN_COST = 1_000_000


def table_sizes(players: int) -> list[int]:
    """The table sizes for a field of ``players``: threes, and one or two tables of two where
    the field does not divide by three (15 -> 5x3; 16 -> 4x3 + 2x2; 17 -> 5x3 + 1x2).

    Nobody sits out: a field of 2 is one table of two, 4 is two tables of two. A single
    player cannot be seated (``too_few_players``).
    """
    if players < 2:
        raise PairingError("too_few_players", "At least 2 players are needed.")
    threes, rest = divmod(players, 3)
    if rest == 0:
        return [3] * threes
    if rest == 2:
        return [3] * threes + [2]
    return [3] * (threes - 1) + [2, 2]


@dataclass(frozen=True, slots=True)
class ThreeHandedSeating:
    """A round's tables (tables of three first, then of two) and the pairs seated together
    again although they already met (with how often they had met before)."""

    tables: tuple[tuple[Player, ...], ...]
    repeats: tuple[tuple[Player, Player, int], ...]

    @property
    def cost(self) -> int:
        """The number of repeat meetings this seating adds."""
        return sum(1 for _a, _b, _n in self.repeats)


def _table_cost(
    members: Sequence[Player], met: Mapping[PairKey, int], forbidden: frozenset[PairKey]
) -> int:
    # Squared: a third meeting costs more than two pairs meeting a second time each.
    return sum(
        FORBIDDEN_COST if pair_key(a, b) in forbidden else met.get(pair_key(a, b), 0) ** 2
        for a, b in combinations(members, 2)
    )


def _climb(
    tables: list[list[Player]],
    met: Mapping[PairKey, int],
    small: Mapping[Player, int],
    forbidden: frozenset[PairKey],
) -> int:
    """Swap players between tables while a swap lowers the cost; returns the final cost."""

    def cost_of(i: int) -> int:
        members = tables[i]
        extra = sum(small.get(p, 0) for p in members) if len(members) == 2 else 0
        return _table_cost(members, met, forbidden) * 4 + extra

    costs = [cost_of(i) for i in range(len(tables))]
    improved = True
    while improved:
        improved = False
        for i, j in combinations(range(len(tables)), 2):
            for x in range(len(tables[i])):
                for y in range(len(tables[j])):
                    a, b = tables[i][x], tables[j][y]
                    tables[i][x], tables[j][y] = b, a
                    new_i, new_j = cost_of(i), cost_of(j)
                    if new_i + new_j < costs[i] + costs[j]:
                        costs[i], costs[j] = new_i, new_j
                        improved = True
                    else:
                        tables[i][x], tables[j][y] = a, b
    return sum(costs)


def seat_three_handed(
    players: Sequence[Player],
    *,
    seed: int,
    met: Mapping[PairKey, int] | None = None,
    small_tables: Mapping[Player, int] | None = None,
    forbidden: Iterable[Iterable[Player]] | None = None,
) -> ThreeHandedSeating:
    """Seat ``players`` at tables of three (and two, see :func:`table_sizes`), keeping the
    ``forbidden`` pairs apart, minimising the pairs who already sat together (``met``: pair
    key -> times), then giving the tables of two to players who had them least
    (``small_tables``: player -> times at a table of two).

    The search shuffles the field by ``seed`` and improves by swapping players between tables,
    from :data:`RESTARTS` starts; the cheapest end is kept, so the result reproduces from the
    seed. Raises :class:`PairingError` (``too_few_players``, ``duplicate_player``, and
    ``forbidden_pairs`` when no seating keeps every forbidden pair apart).
    """
    met = met or {}
    small = small_tables or {}
    apart = forbidden_pairs(forbidden)
    if len(set(players)) != len(players):
        raise PairingError("duplicate_player", "A player is listed twice.")
    sizes = table_sizes(len(players))
    rng = random.Random(seed)
    ordered = sorted(players, key=repr)  # the input order does not change the draw
    best: list[list[Player]] | None = None
    best_cost = -1
    for _start in range(RESTARTS):
        field = list(ordered)
        rng.shuffle(field)
        tables, at = [], 0
        for size in sizes:
            tables.append(field[at : at + size])
            at += size
        cost = _climb(tables, met, small, apart)
        if best is None or cost < best_cost:
            best, best_cost = [list(t) for t in tables], cost
        if cost == 0:
            break
    assert best is not None
    if best_cost >= FORBIDDEN_COST:
        raise PairingError(
            "forbidden_pairs", "No seating keeps every forbidden pair at different tables."
        )
    repeats = tuple(
        (a, b, met[pair_key(a, b)])
        for table in best
        for a, b in combinations(table, 2)
        if met.get(pair_key(a, b), 0)
    )
    return ThreeHandedSeating(tables=tuple(tuple(t) for t in best), repeats=repeats)


def meetings(tables: Sequence[Sequence[Player]]) -> dict[PairKey, int]:
    """How often each pair sat together over ``tables`` (the history of earlier rounds)."""
    met: dict[PairKey, int] = {}
    for table in tables:
        for a, b in combinations(table, 2):
            key = pair_key(a, b)
            met[key] = met.get(key, 0) + 1
    return met
