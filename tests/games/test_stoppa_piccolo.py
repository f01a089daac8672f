"""Punto piccolo evaluation and the winner (spec 4.1, 4.3)."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.stoppa import (
    FULL_DECK,
    Eval,
    StoppaError,
    piccolo_eval,
    pick_winner,
    rank_players,
)


@pytest.mark.parametrize(
    ("a", "b", "key_a", "key_b", "winner", "by", "reason"),
    [
        ("Kc Jc 3c", "As 7b 5b", (3, 33), (2, 36), "A", "count", "fewer cards of one suit"),
        ("7d 5d 6c", "Jc 7s 6s", (2, 36), (2, 39), "B", "points", "lower points"),
        ("Kd Ac 6c", "7b 3b Jc", (2, 34), (2, 34), "A", "priority", "later in priority"),
    ],
)
def test_seed_examples(
    a: str,
    b: str,
    key_a: tuple[int, int],
    key_b: tuple[int, int],
    winner: str,
    by: str,
    reason: str,
) -> None:
    evals = {"A": piccolo_eval(a), "B": piccolo_eval(b)}
    assert evals["A"].key == key_a and evals["B"].key == key_b
    assert pick_winner(["A", "B"], evals) == (winner, by)
    ranking = rank_players(["A", "B"], evals)
    assert ranking[0].player == winner and ranking[0].reason == ""
    assert ranking[1].reason == reason and ranking[1].reason_code == by


def test_suited_pair_beats_three_unsuited() -> None:
    # even a lone 7 cannot beat two suited face cards: 20 < 21 but count 2 > 1
    assert piccolo_eval("Jc Kc 2d").key == (2, 20)
    assert piccolo_eval("7d 6s Ab").key == (1, 21)
    assert pick_winner(["x", "y"], [piccolo_eval("7d 6s Ab"), piccolo_eval("Jc Kc 2d")]) == (
        "y",
        "count",
    )


def test_odd_card_never_added_and_three_suits() -> None:
    ev = piccolo_eval("7c 6c 7d")
    assert ev.key == (2, 39) and ev.suit == "c" and [c.text for c in ev.cards] == ["7c", "6c"]
    assert piccolo_eval("2d 5c Ab").key == (1, 16)


@pytest.mark.parametrize(("cards", "best"), [("7d 6d Ad", 55), ("7d 6d", 39), ("7d", 21)])
def test_maxima(cards: str, best: int) -> None:
    assert piccolo_eval(cards).points == best


def test_ranks_never_break_ties() -> None:
    assert piccolo_eval("Jd Kd").key == piccolo_eval("Nc Kc").key
    assert pick_winner(["late", "early"][::-1], [piccolo_eval("Jd Kd"), piccolo_eval("Nc Kc")]) == (
        "early",
        "priority",
    )


def test_errors() -> None:
    with pytest.raises(StoppaError) as e:
        piccolo_eval("")
    assert e.value.code == "empty_hand"
    with pytest.raises(StoppaError) as e:
        piccolo_eval("7d 7d")
    assert e.value.code == "duplicate_card"
    with pytest.raises(StoppaError) as e:
        pick_winner([], {})
    assert e.value.code == "no_showdown"


def test_eval_to_dict() -> None:
    assert piccolo_eval("Kc Jc 3c").to_dict() == {
        "count": 3,
        "points": 33,
        "suit": "c",
        "cards": ["3c", "Jc", "Kc"],
    }


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=3, unique=True), st.randoms())
def test_card_order_is_irrelevant(cards: list, rnd) -> None:  # type: ignore[no-untyped-def]
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert piccolo_eval(cards) == piccolo_eval(shuffled)  # same input -> same result


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(FULL_DECK), min_size=6, max_size=18, unique=True))
def test_ranking_is_a_strict_total_order_given_priority(cards: list) -> None:  # type: ignore[no-untyped-def]
    hands = [cards[i : i + 3] for i in range(0, len(cards) - len(cards) % 3, 3)]
    players = [f"p{i}" for i in range(len(hands))]
    evals: dict[str, Eval] = {p: piccolo_eval(h) for p, h in zip(players, hands, strict=True)}
    ranking = rank_players(players, evals)
    assert sorted(s.player for s in ranking) == sorted(players)
    winner, _ = pick_winner(players, evals)
    assert ranking[0].player == winner
    for hi, lo in itertools.pairwise(ranking):
        a, b = hi.eval.key, lo.eval.key
        assert a > b or (a == b and players.index(hi.player) < players.index(lo.player))
    # the winner beats every other contestant head to head
    for p in players:
        if p != winner:
            pair = [q for q in players if q in (p, winner)]
            assert pick_winner(pair, evals)[0] == winner
