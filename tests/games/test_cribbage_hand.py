"""The show: spec examples, breakdown items, properties, and the fast path against score_hand."""

from itertools import combinations_with_replacement, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cribbage import (
    DECK,
    CardError,
    format_breakdown,
    hand_total,
    his_heels,
    parse_card,
    score_hand,
)

deals = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


def kinds(score):
    return [(item.kind, " ".join(map(str, item.cards)), item.points) for item in score.items]


def test_the_29_hand():
    score = score_hand("5H 5C 5S JD", "5D")
    assert score.total == 29
    assert (score.fifteens, score.pairs, score.runs, score.flush, score.nobs) == (16, 12, 0, 0, 1)
    assert sum(1 for item in score.items if item.kind == "fifteen") == 8
    assert sum(1 for item in score.items if item.kind == "pair") == 6
    assert ("nobs", "JD", 1) in kinds(score)


def test_29_needs_the_jack_of_the_starters_suit():
    assert score_hand("5H 5C 5D JS", "5S").total == 29
    assert score_hand("5H 5C 5S JD", "5D", crib=True).total == 29
    assert score_hand("5H 5C 5S JH", "5D").total == 28


def test_items_can_be_printed():
    score = score_hand("5H JD 2C 3S", "9H")
    lines = format_breakdown(score)
    assert "15 for 2: 5H JD" in lines
    assert lines[-1] == f"total {score.total}"
    assert score.to_dict()["items"][0]["text"] == "15 for 2: 5H JD"


def test_double_run_of_three_is_3_plus_3_plus_pair():
    # 4 5 5 6: runs 4-5-6 twice (6), pair of fives (2); fifteens 4+5+6 twice, 5+... (4)
    score = score_hand("4H 5C 5D 6S", "KC")
    assert score.runs == 6
    assert score.pairs == 2
    assert [item.points for item in score.items if item.kind == "run"] == [3, 3]


def test_double_double_run_is_16():
    # 3 3 4 4 5: four runs of three (12) and two pairs (4) = 16, plus fifteens 3+3+4+5? no:
    score = score_hand("3H 3C 4D 4S", "5C")
    assert score.runs + score.pairs == 16
    assert score.runs == 12


def test_run_of_five_and_triple_run():
    assert score_hand("AH 2C 3D 4S", "5C").runs == 5
    score = score_hand("7H 7C 7D 8S", "9C")  # triple run of three: 9 + pair royal 6
    assert score.runs == 9
    assert score.pairs == 6


def test_pairs_are_by_rank_not_value():
    assert score_hand("QH QC 2D 4S", "8C").pairs == 2
    assert score_hand("QH KC 2D 4S", "8C").pairs == 0


def test_ace_is_low_and_qka_is_no_run():
    assert score_hand("AH 2C 3D 8S", "10C").runs == 3
    assert score_hand("QH KC AD 8S", "6C").runs == 0
    assert score_hand("JH QC KD 8S", "2C").runs == 3


def test_four_card_flush_in_hand_but_not_in_crib():
    assert score_hand("2H 4H 6H 8H", "KS").flush == 4
    assert score_hand("2H 4H 6H 8H", "KS", crib=True).flush == 0
    assert score_hand("2H 4H 6H 8H", "KH").flush == 5
    assert score_hand("2H 4H 6H 8H", "KH", crib=True).flush == 5
    # three hand cards and the starter are no flush
    assert score_hand("2H 4H 6H 8S", "KH").flush == 0


def test_nobs_and_his_heels():
    assert score_hand("JH 2C 4D 6S", "9H").nobs == 1
    assert score_hand("JH 2C 4D 6S", "9C").nobs == 0
    assert his_heels("JC") == 2
    assert his_heels("QC") == 0
    assert his_heels(parse_card("jd")) == 2


def test_fifteens_count_every_distinct_combination():
    # German seed: J J 5 -> J5 and J5 again
    score = score_hand("JH JS 5C 2D", "9C")
    assert score.fifteens == 4
    assert score_hand("2H 4C 6D 8S", "QC").fifteens == 0  # all even: no fifteen


def test_zero_hand():
    assert score_hand("2H 4C 6D 8S", "KC").total == 0  # a "nineteen" hand: nothing


def test_invalid_hands_raise():
    with pytest.raises(CardError, match="4 cards"):
        score_hand("5H 5C 5S", "5D")
    with pytest.raises(CardError, match="twice"):
        score_hand("5H 5C 5S 5H", "JD")
    with pytest.raises(CardError, match="twice"):
        score_hand("5H 5C 5S JD", "5H")
    with pytest.raises(CardError, match="'XX'"):
        score_hand("5H 5C 5S XX", "5D")
    with pytest.raises(CardError):
        score_hand("5H 5C 5S JD", "5D 6D")


@settings(max_examples=400)
@given(deals, st.booleans())
def test_totals_never_19_25_26_27_nor_above_29(cards, crib):
    total = score_hand(cards[:4], cards[4], crib=crib).total
    assert 0 <= total <= 29
    assert total not in (19, 25, 26, 27)


@settings(max_examples=300)
@given(deals)
def test_crib_never_scores_a_four_card_flush(cards):
    assert score_hand(cards[:4], cards[4], crib=True).flush in (0, 5)


@settings(max_examples=300)
@given(deals, st.permutations("SHDC"), st.booleans())
def test_suit_permutation_changes_nothing_but_flush_and_nobs(cards, order, crib):
    mapping = dict(zip("SHDC", order, strict=True))
    renamed = [parse_card(f"{'A23456789TJQK'[c.rank - 1]}{mapping[c.suit]}") for c in cards]
    a = score_hand(cards[:4], cards[4], crib=crib)
    b = score_hand(renamed[:4], renamed[4], crib=crib)
    assert (a.fifteens, a.pairs, a.runs) == (b.fifteens, b.pairs, b.runs)
    # a full relabelling of suits keeps flush and nobs too
    assert (a.flush, a.nobs) == (b.flush, b.nobs)


@settings(max_examples=300)
@given(deals, st.booleans())
def test_breakdown_adds_up_and_order_of_hand_does_not_matter(cards, crib):
    score = score_hand(cards[:4], cards[4], crib=crib)
    assert score.total == sum(item.points for item in score.items)
    assert score.total == score.fifteens + score.pairs + score.runs + score.flush + score.nobs
    for item in score.items:
        if item.kind == "fifteen":
            assert sum(card.value for card in item.cards) == 15
    swapped = score_hand(cards[3::-1], cards[4], crib=crib)
    assert swapped.total == score.total


def _class_representatives():
    """One or more concrete deals for every (hand rank multiset, starter rank) class, covering
    every flush pattern (none, 4 in hand, 5 with starter) and nobs (with and without)."""
    for hand_ranks in combinations_with_replacement(range(1, 14), 4):
        for starter_rank in range(1, 14):
            ranks = [*hand_ranks, starter_rank]
            if max(ranks.count(r) for r in ranks) > 4:
                continue
            # spread suits: the k-th card of a rank takes suit k, then rotate to vary nobs
            for shift in range(2):
                used: dict[int, int] = {}
                hand = []
                for rank in hand_ranks:
                    suit = (used.get(rank, 0) + shift) % 4
                    used[rank] = used.get(rank, 0) + 1
                    hand.append((rank - 1) * 4 + suit)
                starter_suit = next(s for s in range(4) if (starter_rank - 1) * 4 + s not in hand)
                yield hand, (starter_rank - 1) * 4 + starter_suit
                # nobs: give the starter the suit of a jack in hand when possible
                for card in hand:
                    if card // 4 == 10:
                        nob_starter = (starter_rank - 1) * 4 + (card & 3)
                        if nob_starter not in hand:
                            yield hand, nob_starter
            if len(set(hand_ranks)) == 4:
                for suit in range(4):
                    hand = [(rank - 1) * 4 + suit for rank in hand_ranks]
                    for starter_suit in range(4):
                        starter = (starter_rank - 1) * 4 + starter_suit
                        if starter not in hand:
                            yield hand, starter


def test_fast_total_equals_score_hand_on_every_combination_class():
    checked = 0
    for hand, starter in _class_representatives():
        cards = [DECK[i] for i in hand]
        for crib in (False, True):
            expected = score_hand(cards, DECK[starter], crib=crib).total
            assert hand_total(hand, starter, crib) == expected, (cards, DECK[starter], crib)
            checked += 1
    assert checked > 40_000


@settings(max_examples=500)
@given(deals, st.booleans())
def test_fast_total_equals_score_hand_on_random_deals(cards, crib):
    indices = [card.index for card in cards]
    assert (
        hand_total(indices[:4], indices[4], crib)
        == score_hand(cards[:4], cards[4], crib=crib).total
    )


def test_every_order_of_the_hand_gives_the_same_fast_total():
    cards = [parse_card(c).index for c in ("5H", "5C", "5S", "JD")]
    for order in permutations(cards):
        assert hand_total(order, parse_card("5D").index) == 29
