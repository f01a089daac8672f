"""Declarations, the stop phase and its payments (spec sections 7, 8, 9)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.stoppa import (
    StoppaError,
    deal_by_ones,
    deck_info,
    qualifies,
    replay_stop,
    settle_declarations,
    simulate_stop,
    stop_payments,
)

ORDER = ["P2", "P3", "P4", "P5", "P6", "P1"]
HANDS = {
    "P2": "Ad Ac As Js Ns 3d",
    "P3": "Ab 2d 3c 5s 5b Nb",
    "P4": "4d 2c Jc 3b 2s 3s",
    "P5": "4s 7s 2b Nc 4b 7b",
    "P6": "5d 6d 6c 6s 6b Jb",
    "P1": "7d Jd Nd 4c 5c 7c",
}
LOG = [
    "P2: Ad Ac As",
    "P3: Ab",
    "P3: 2d",
    "P3: 3c",
    "P4: 4d",
    "P6: 5d",
    "P6: 6d 6c 6s 6b",
    "P1: 7d",
    "P1: Jd",
    "P1: Nd",
    "P1: 4c",
    "P1: 5c",
    "P1: 7c",
]


def test_worked_example_8_6() -> None:
    r = replay_stop(ORDER, HANDS, LOG)
    assert r.closer == "P1" and not r.warnings
    assert r.remaining == {"P2": 3, "P3": 3, "P4": 5, "P5": 6, "P6": 1, "P1": 0}
    kinds = [p.kind for p in r.plays]
    assert kinds[:2] == ["open", "aces_on_ace"] and kinds[6] == "all_of_rank"
    needs = [p.need_after for p in r.plays]
    assert needs == ["2", "2", "3", "4", "5", "6", "7", "J", "N", None, "5", "7", None]
    assert stop_payments(r.closer, r.remaining, 6) == {
        "P1": 42,
        "P2": -6,
        "P3": -6,
        "P4": -12,
        "P5": -18,
        "P6": 0,
    }


def test_worked_example_with_missed_play_stands_with_warning() -> None:
    log = list(LOG)
    log[4] = "P5: 4s"
    r = replay_stop(ORDER, HANDS, log)
    assert r.closer == "P1"
    assert [(w.code, w.message) for w in r.warnings] == [
        ("missed_play", "P4 could play a 4 before P5")
    ]


@pytest.mark.parametrize(
    ("index", "play", "code"),
    [
        (0, "P3: Ab", "wrong_opener"),
        (0, "P2: 3d", None),
        (2, "P3: 5s", "illegal_rank"),
        (2, "P3: 2c", "card_not_held"),
        (6, "P6: 6d 6c", "multi_card_not_allowed"),
        (6, "P6: 6d Jb", "mixed_ranks"),
        (0, "P2: Ad Js", "mixed_ranks"),
        (0, "P9: Ad", "unknown_player"),
    ],
)
def test_stop_errors(index: int, play: str, code: str | None) -> None:
    log = [*LOG[:index], play]
    if code is None:
        with pytest.raises(StoppaError) as e:
            replay_stop(ORDER, HANDS, log)
        assert e.value.code == "incomplete"
        return
    with pytest.raises(StoppaError) as e:
        replay_stop(ORDER, HANDS, log)
    assert e.value.code == code and e.value.where == f"stop.log[{index}]"


def test_play_after_close_and_incomplete() -> None:
    with pytest.raises(StoppaError) as e:
        replay_stop(ORDER, HANDS, [*LOG, "P2: Js"])
    assert e.value.code == "play_after_close"
    with pytest.raises(StoppaError) as e:
        replay_stop(ORDER, HANDS, LOG[:-1])
    assert e.value.code == "incomplete"


def test_only_aces_open_together_and_any_number_of_aces() -> None:
    hands = {"a": "2d 2c 3d", "b": "Ad Ac 4d 2s", "c": "5d 6d 7d Ab"}
    with pytest.raises(StoppaError) as e:
        replay_stop(["a", "b", "c"], hands, ["a: 2d 2c"])
    assert e.value.code == "multi_card_not_allowed"
    r = replay_stop(["b", "c", "a"], hands, ["b: Ad Ac", "b: 2s", "a: 3d", "b: 4d"])
    assert r.closer == "b" and r.plays[0].kind == "open"
    with pytest.raises(StoppaError) as e:  # opening with only some of one's Aces is accepted
        replay_stop(["b", "c", "a"], hands, ["b: Ac", "b: 2s", "a: 3d", "b: 4d"])
    assert e.value.code == "incomplete"  # ... and b still holds his Ad


def test_exhausted_ranks_skipped_and_top_rank_passes_down() -> None:
    # no 7 in play: after the 6 the sequence continues with the J; no K: the N closes
    hands = {"a": "5d 6d Nd 2c", "b": "Jd 3c", "c": "Ad Ac"}
    r = replay_stop(["a", "b", "c"], hands, ["a: 5d", "a: 6d", "b: Jd", "a: Nd", "a: 2c"])
    assert r.closer == "a" and r.plays[2].need_after == "N" and r.plays[3].need_after is None


def test_three_kings_together_at_three_players() -> None:
    hands = {"a": "Kd Kc Ks 2d", "b": "Jd 3c", "c": "Ad Ac"}
    r = replay_stop(["a", "b", "c"], hands, ["a: Kd Kc Ks", "a: 2d"])
    assert r.closer == "a" and r.plays[0].kind == "all_of_rank"


def test_three_aces_free_variant() -> None:
    hands = {"a": "2d 3d 7c", "b": "Ad Ac As 5c", "c": "4c 5d"}
    log = ["a: 2d", "a: 3d", "b: Ad Ac As", "c: 4c", "c: 5d"]
    with pytest.raises(StoppaError) as e:
        replay_stop(["a", "b", "c"], hands, log)
    assert e.value.code == "illegal_rank" and e.value.where == "stop.log[2]"
    r = replay_stop(["a", "b", "c"], hands, log, three_aces_free=True)
    assert r.plays[2].kind == "three_aces_free" and r.closer == "c" and not r.warnings
    with pytest.raises(StoppaError) as e:  # only all of one's Aces, at least three
        replay_stop(["a", "b", "c"], hands, ["a: 2d", "a: 3d", "b: Ad Ac"], three_aces_free=True)
    assert e.value.code == "illegal_rank"


@pytest.mark.parametrize(
    ("remaining", "k", "expected"),
    [
        ({"P3": 4, "P4": 7, "P1": 1}, 2, {"P2": 30, "P3": -12, "P4": -18, "P1": 0}),
        ({"P3": 4, "P4": 7, "P1": 1}, 3, {"P2": 18, "P3": -6, "P4": -12, "P1": 0}),
    ],
)
def test_stop_payments_examples(
    remaining: dict[str, int], k: int, expected: dict[str, int]
) -> None:
    assert stop_payments("P2", remaining, 6, cards_per_payment=k) == expected


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("a", {"b": 0}, 6), "two_closers"),
        (("a", {"b": 2}, 0), "bad_amount"),
        (("a", {"b": 2}, 6, 4), "bad_setting"),
        (("a", {"a": 1, "b": 2}, 6), "bad_cards_left"),
    ],
)
def test_stop_payment_errors(args: tuple, code: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(StoppaError) as e:
        stop_payments(*args)
    assert e.value.code == code


def test_declaration_conditions() -> None:
    assert qualifies("misera", "2d 3d 4c 5s 7b Ab")
    assert not qualifies("misera", "2d 3d Jc")
    assert qualifies("four_kings", "Kd Kc Ks Kb 2d")
    assert qualifies("no_stop", "2d 2c 2s 7b")
    assert not qualifies("no_stop", "2d 2c 2s Kb")
    assert not qualifies("no_stop", "2d 2c 2s Nb", top_rank="N")  # at 6 the Cavallo is the King
    assert qualifies("no_stop", "2d 2c 2s Nb", top_rank="K")
    assert qualifies("no_stop", "Ad Ac As 2d", no_stop_rule="three_aces_no_king")
    assert not qualifies("no_stop", "Ad Ac As 2d", no_stop_rule="four_aces_no_king")
    assert qualifies("no_stop", "Ad Ac As Kd", no_stop_rule="three_aces")
    assert not qualifies("no_stop", "2d 2c 2s", no_stop_rule="none")


def test_two_declarers_exchange_equal_amounts() -> None:
    hands = {"a": "2d 3d 4d", "b": "2c 3c 4c", "c": "Kd Jc 5s", "d": "Nd Jd 6s"}
    out = settle_declarations(["a", "b", "c", "d"], hands, [("a", "misera"), ("b", "misera")], 6)
    assert dict(out.payments) == {"a": 12, "b": 12, "c": -12, "d": -12} and out.cancels_stop


def test_no_stop_pays_nothing_and_invalid_declarations() -> None:
    hands = {"a": "2d 2c 2s Jd", "b": "Kc 3c 4c", "c": "Kd Jc 5s"}
    out = settle_declarations(["a", "b", "c"], hands, [("a", "no_stop")], 6)
    assert out.cancels_stop and set(out.payments.values()) == {0}
    for decl in [("a", "misera"), ("b", "four_kings"), ("b", "no_stop"), ("b", "grand")]:
        with pytest.raises(StoppaError) as e:
            settle_declarations(["a", "b", "c"], hands, [decl], 6)
        assert e.value.code == "invalid_declaration"


def test_undeclared_qualifying_hand_is_a_warning() -> None:
    hands = {"a": "2d 3d 4d", "b": "Kc 3c 4c", "c": "Kd Jc 5s"}
    out = settle_declarations(["a", "b", "c"], hands, [], 6)
    assert not out.cancels_stop and [w.code for w in out.warnings] == ["undeclared_misera"]


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 6), st.integers(0, 10_000))
def test_simulated_stop_phases_replay_and_pay_zero_sum(players: int, seed: int) -> None:
    rng = random.Random(seed)
    info = deck_info(players, "Kb" if players == 3 else None)
    order = [f"p{i}" for i in range(players)]
    deck = list(info.cards)
    rng.shuffle(deck)
    its = deal_by_ones(info, order, deck)
    hands = {p: [c for it in its for c in it[p]] for p in order}
    log, result = simulate_stop(order, hands, rng)
    assert replay_stop(order, hands, log) == result  # same input -> same result
    assert not result.warnings
    left = result.remaining
    assert left[result.closer] == 0 and all(n >= 1 for p, n in left.items() if p != result.closer)
    assert sum(stop_payments(result.closer, left, 6).values()) == 0
    played = sum(len(pl.cards) for pl in result.plays)
    assert played + sum(left.values()) == len(info.cards)
