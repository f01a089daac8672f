"""Punto grosso evaluation (spec 4.2)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.stoppa import FULL_DECK, grosso_eval, pick_winner, rank_players


def test_seed_example_b_wins_50_to_47() -> None:
    a = grosso_eval("6d 7s Ab 5d 4d 7c Ac Kc")
    b = grosso_eval("7d 5b Jb 3d 6c 2c Ad 4c")
    assert a.key == (3, 47)  # 6+5+4 of coins = 7+A+K of cups = 47
    assert b.key == (3, 50) and b.suit == "d"  # 7+A+3 of coins
    assert {c.text for c in b.cards} == {"7d", "Ad", "3d"}
    assert pick_winner(["A", "B"], {"A": a, "B": b}) == ("B", "points")
    assert rank_players(["A", "B"], [a, b])[1].reason == "lower points"


def test_count_capped_at_three() -> None:
    five_cups = grosso_eval("2c 3c 4c Jc Kc 7d 6d Ad")
    assert five_cups.key == (3, 55) and five_cups.suit == "d"
    assert grosso_eval("2c 3c 4c 5c Jc").key == (3, 42)


def test_pair_only_without_trio_and_trio_beats_pair() -> None:
    pairs = grosso_eval("7d 6d 7c 6c 7s 6s 7b 6b")  # 5 players can get 2-2-2-2
    assert pairs.key == (2, 39)
    trio = grosso_eval("2d 3d Jd 7c 6c Kb")
    assert trio.key == (3, 35)
    assert pick_winner(["p", "t"], [pairs, trio]) == ("t", "count")


def test_best_of_many_suits() -> None:
    assert grosso_eval("7d 6d Ad 5d 4d 3d 2d Jd Nd Kd").points == 55


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=13, unique=True), st.randoms())
def test_grosso_properties(cards: list, rnd) -> None:  # type: ignore[no-untyped-def]
    ev = grosso_eval(cards)
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert grosso_eval(shuffled) == ev
    assert 1 <= ev.count <= 3 and ev.points <= 55
    assert all(c.suit == ev.suit for c in ev.cards) and ev.points == sum(c.points for c in ev.cards)
    for suit in "dcsb":
        group = sorted((c.points for c in cards if c.suit == suit), reverse=True)[:3]
        assert (len(group), sum(group)) <= ev.key


@pytest.mark.parametrize(
    ("cards", "key"), [("7d", (1, 21)), ("7d 6d", (2, 39)), ("7d 6c", (1, 21))]
)
def test_small_hands(cards: str, key: tuple[int, int]) -> None:
    assert grosso_eval(cards).key == key
