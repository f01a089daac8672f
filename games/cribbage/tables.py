"""Precomputed tables shared by the readable scorer and the fast, table-driven one.

Card indices run 0..51: index = (rank - 1) * 4 + suit, suit 0..3 in the order S H D C.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb

RANK_WEIGHT: tuple[int, ...] = tuple(5 ** (i // 4) for i in range(52))
"""5**(rank - 1) per card index: summing these over up to 4 cards of a rank gives a number whose
base-5 digits are the rank counts, so the sum over any hand is a unique key of its rank multiset
(the key is additive, so a hand's key costs four additions and no sorting)."""

NOBS_JACK: tuple[int, ...] = tuple(40 + (i & 3) for i in range(52))
"""For a starter index, the index of the jack of its suit (the jack that scores nobs)."""

SUBSETS_OF_FIVE: tuple[tuple[int, ...], ...] = tuple(
    combo for size in range(2, 6) for combo in combinations(range(5), size)
)
"""The 26 position subsets of a 5-card show that can make fifteen, smallest first."""

PAIRS_OF_FIVE: tuple[tuple[int, int], ...] = tuple(combinations(range(5), 2))
"""The 10 position pairs of a 5-card show."""


def _rank_counts_points(counts: dict[int, int]) -> int:
    """Fifteens + pairs + runs for a rank multiset, computed by counting (no card subsets).

    This is deliberately a different method from the readable scorer in `hand.py`, so that the
    tests comparing the two check real arithmetic, not one function against itself.
    """
    # pairs: every two cards of one rank, 2 points each
    points = sum(n * (n - 1) for n in counts.values())
    # runs: each maximal stretch of 3+ consecutive ranks, once per choice of one card per rank
    rank = 1
    while rank <= 13:
        if counts.get(rank, 0) == 0:
            rank += 1
            continue
        length, ways = 0, 1
        while rank <= 13 and counts.get(rank, 0):
            length += 1
            ways *= counts[rank]
            rank += 1
        if length >= 3:
            points += length * ways
    # fifteens: number of card subsets summing to 15, by dynamic programming over ranks
    ways_to: list[int] = [1] + [0] * 15
    for rank_, n in counts.items():
        value = min(rank_, 10)
        new = ways_to[:]
        for k in range(1, n + 1):
            add = k * value
            for total in range(15 - add, -1, -1):
                if ways_to[total]:
                    new[total + add] += ways_to[total] * comb(n, k)
        ways_to = new
    return points + 2 * ways_to[15]


@cache
def base_points_table() -> dict[int, int]:
    """Fifteens + pairs + runs for every multiset of 5 ranks, keyed by the sum of RANK_WEIGHT.

    6,175 entries (five of a kind cannot happen); built once, on first use (~30 ms).
    """
    table: dict[int, int] = {}
    for ranks in combinations_with_replacement(range(1, 14), 5):
        counts: dict[int, int] = {}
        for rank in ranks:
            counts[rank] = counts.get(rank, 0) + 1
        if max(counts.values()) > 4:
            continue
        key = sum(5 ** (rank - 1) for rank in ranks)
        table[key] = _rank_counts_points(counts)
    return table
