"""The play (pegging): points for the card just laid."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cribbage import DECK, CardError, parse_card, score_play


def points(pile, last=False):
    score = score_play(pile, last=last)
    return score.total, [item.kind for item in score.items]


def test_fifteen_and_thirty_one():
    assert points("5H 10D") == (2, ["fifteen"])
    assert score_play("5H 10D").count == 15
    assert points("10H 10D JC AS") == (2, ["thirty-one"])
    assert points("KH QD 9C 2S") == (2, ["thirty-one"])


def test_pairs_pair_royal_double_pair_royal():
    assert points("7H 7D") == (2, ["pair"])
    assert points("4H 4D 4C") == (6, ["pair royal"])
    assert points("2H 2D 2C 2S") == (12, ["double pair royal"])
    # pairs are by rank: Q then K is no pair
    assert points("QH KD") == (0, [])
    # a break stops the pair
    assert points("7H 8D 7C") == (0, [])


def test_german_seed_ace_seven_seven_is_fifteen_for_four():
    assert points("AD 7C 7H") == (4, ["fifteen", "pair"])


def test_runs_in_any_order_longest_only():
    assert points("3H 5D 4C") == (3, ["run"])
    assert points("2H 8C 6D 7H 5S") == (4, ["run"])  # German seed: C8 D6 H7 S5
    assert points("AH 2C 3D 4S 5H") == (7, ["fifteen", "run"])
    assert points("6H 4C 5D") == (5, ["fifteen", "run"])


def test_a_repeated_rank_breaks_the_run():
    assert points("2H 5C 7C 7D 6S") == (0, [])  # the spec's 2-5-7-7-6
    assert points("QH KC AD") == (0, [])  # ace is low


def test_go_and_last_card():
    assert points("10H 10D 9C", last=True) == (1, ["go"])
    assert points("10H 10D JC AS", last=True) == (2, ["thirty-one"])  # not 2 + 1
    assert points("5H 10D", last=True) == (3, ["fifteen", "go"])


def test_bad_piles_raise():
    with pytest.raises(CardError, match="passes 31"):
        score_play("10H 10D JC 2S")
    with pytest.raises(CardError, match="empty"):
        score_play([])
    with pytest.raises(CardError, match="twice"):
        score_play("5H 5H")
    with pytest.raises(CardError, match="'5Z'"):
        score_play("5H 5Z")


def test_to_dict():
    data = score_play("5H 10D").to_dict()
    assert data["count"] == 15
    assert data["items"][0]["text"] == "15 for 2: 5H 10D"


piles = st.lists(st.sampled_from(DECK), min_size=1, max_size=8, unique=True).filter(
    lambda cards: sum(card.value for card in cards) <= 31
)


@settings(max_examples=300)
@given(piles, st.randoms(use_true_random=False), st.booleans())
def test_pegging_points_do_not_depend_on_suits(pile, rnd, last):
    # each rank gets its own random relabelling of suits: distinct cards stay distinct
    relabel = {}
    for rank in range(1, 14):
        suits = list("SHDC")
        rnd.shuffle(suits)
        relabel[rank] = dict(zip("SHDC", suits, strict=True))
    renamed = [
        parse_card(f"{'A23456789TJQK'[card.rank - 1]}{relabel[card.rank][card.suit]}")
        for card in pile
    ]
    a = score_play(pile, last=last)
    b = score_play(renamed, last=last)
    assert (a.total, a.count, [i.kind for i in a.items]) == (
        b.total,
        b.count,
        [i.kind for i in b.items],
    )


@settings(max_examples=300)
@given(piles)
def test_play_points_are_bounded_and_add_up(pile):
    score = score_play(pile)
    assert score.total == sum(item.points for item in score.items)
    assert 0 <= score.total <= 2 + 12 + 7
