"""The full score tables (all 12,994,800 combinations) and the fast loop behind them.

`score_tables()` over every combination takes about 3-4 s here; it is the published check, so
it runs in the normal suite.
"""

from itertools import combinations

from games.cribbage import hand_total, score_tables
from games.cribbage.tables import base_points_table


def test_whole_hand_distribution_matches_the_published_table():
    hand, crib = score_tables()
    assert sum(hand) == sum(crib) == 12_994_800
    assert hand[0] == 1_009_008
    assert hand[28] == 76
    assert hand[29] == 4
    for impossible in (19, 25, 26, 27):
        assert hand[impossible] == 0
        assert crib[impossible] == 0
    mean = sum(score * count for score, count in enumerate(hand)) / sum(hand)
    assert round(mean, 3) == 4.769
    # the crib differs only by losing 4-card flushes: it has more zeros, the same 28s and 29s
    assert crib[0] > hand[0]
    assert crib[28:] == hand[28:]
    crib_mean = sum(score * count for score, count in enumerate(crib)) / sum(crib)
    assert crib_mean < mean


def test_table_loop_equals_hand_total_combination_by_combination():
    # Starters chosen to cover an ace, a five, a jack (nobs/heels rank) and a king in all suits.
    starters = [0, 17, 42, 51]
    hand, crib = score_tables(starters)
    expect_hand, expect_crib = [0] * 30, [0] * 30
    for starter in starters:
        rest = [i for i in range(52) if i != starter]
        for cards in combinations(rest, 4):
            expect_hand[hand_total(cards, starter)] += 1
            expect_crib[hand_total(cards, starter, True)] += 1
    assert hand == expect_hand
    assert crib == expect_crib


def test_base_table_covers_every_rank_multiset():
    assert len(base_points_table()) == 6_175
