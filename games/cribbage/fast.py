"""Table-driven totals over card indices 0..51, for bulk work (the full score tables).

The tests prove `hand_total` equal to the readable `score_hand` on every combination class
(every rank multiset of hand + starter, with every flush and nobs pattern).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from .tables import NOBS_JACK, RANK_WEIGHT, base_points_table


def hand_total(hand: Sequence[int], starter: int, crib: bool = False) -> int:
    """Total score of 4 hand card indices with a starter index; the crib scores no 4-flush.

    No validation: indices must be 5 distinct numbers in 0..51 (see `Card.index`).
    """
    h0, h1, h2, h3 = hand
    total = base_points_table()[
        RANK_WEIGHT[h0] + RANK_WEIGHT[h1] + RANK_WEIGHT[h2] + RANK_WEIGHT[h3] + RANK_WEIGHT[starter]
    ]
    suit = h0 & 3
    if (h1 & 3) == suit and (h2 & 3) == suit and (h3 & 3) == suit:
        if (starter & 3) == suit:
            total += 5
        elif not crib:
            total += 4
    jack = NOBS_JACK[starter]
    if h0 == jack or h1 == jack or h2 == jack or h3 == jack:
        total += 1
    return total


def score_tables(starters: Iterable[int] | None = None) -> tuple[list[int], list[int]]:
    """How many (4-card hand, starter) combinations score 0..29, with hand and with crib rules.

    Every one of the 12,994,800 combinations is scored (52 starters x C(51, 4) hands), or only
    those with the given starter indices. Returns (hand counts, crib counts), 30 counts each.
    """
    base = base_points_table()
    weight = RANK_WEIGHT
    hand_counts = [0] * 30
    crib_counts = [0] * 30
    for starter in range(52) if starters is None else starters:
        rest = [i for i in range(52) if i != starter]
        starter_weight = weight[starter]
        starter_suit = starter & 3
        jack = NOBS_JACK[starter]
        # The arithmetic of `hand_total`, inlined because a call per combination would double
        # the run time; the tests check this loop against `hand_total` combination by combination.
        for h0, h1, h2, h3 in combinations(rest, 4):
            total = base[starter_weight + weight[h0] + weight[h1] + weight[h2] + weight[h3]]
            if h0 == jack or h1 == jack or h2 == jack or h3 == jack:
                total += 1
            suit = h0 & 3
            if (h1 & 3) == suit and (h2 & 3) == suit and (h3 & 3) == suit:
                if suit == starter_suit:
                    hand_counts[total + 5] += 1
                    crib_counts[total + 5] += 1
                else:
                    hand_counts[total + 4] += 1
                    crib_counts[total] += 1
            else:
                hand_counts[total] += 1
                crib_counts[total] += 1
    return hand_counts, crib_counts
