"""Stakes, contests and whole-deal settlement (spec sections 3, 5, 6)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.stoppa import (
    VARIANTS,
    Settings,
    StoppaError,
    deck_info,
    piccolo_eval,
    random_record,
    settle_contest,
    settle_game,
)

ORDER = ["B", "C", "D", "A"]  # A deals


def test_spec_contest_example() -> None:
    # B bets 2, C raises to 4, D calls, B folds; D's three clubs (41) beat C's pair (39)
    r = settle_contest(
        ORDER,
        {"B": 2, "C": 4, "D": 4},
        ["D", "C"],
        1,
        {"C": "7s 6s Jc", "D": "7b Jb Kb"},
        iteration_size=3,
    )
    assert (r.winner, r.decided_by, r.received) == ("D", "count", 11)
    assert dict(r.nets) == {"B": -2, "C": -4, "D": 7, "A": 0}
    assert sum(r.nets.values()) == 1  # the pot pays the prize
    assert [s.reason for s in r.ranking] == ["", "fewer cards of one suit"]


def test_nobody_bets_dealer_takes_it_and_uncontested() -> None:
    r = settle_contest(ORDER, {}, [], 1)
    assert (r.winner, r.decided_by) == ("A", "no_bets")
    r = settle_contest(ORDER, {"C": 3}, ["C"], 1)
    assert (r.winner, r.decided_by, dict(r.nets)["C"]) == ("C", "uncontested", 1)


def test_grosso_no_bets_best_hand_variant() -> None:
    hands = {"B": "2d 3d 4d", "C": "7d 6d Ad", "D": "2c 3c", "A": "Kb"}
    r = settle_contest(ORDER, {}, [], 20, hands, phase="grosso", no_bets="best_hand")
    assert (r.winner, r.decided_by) == ("C", "points")


def test_showdown_order_is_irrelevant() -> None:
    hands = {"B": "Kd Ac 6c", "C": "7b 3b Jc"}
    a = settle_contest(ORDER, {"B": 1, "C": 1}, ["B", "C"], 1, hands)
    b = settle_contest(ORDER, {"C": 1, "B": 1}, ["C", "B"], 1, hands)
    assert a == b and a.winner == "B" and a.decided_by == "priority"


@pytest.mark.parametrize(
    ("contributions", "showdown", "code"),
    [
        ({"B": 2, "C": 4}, ["B", "C"], "unequal_showdown_contributions"),
        ({"B": 4, "C": 4}, ["C"], "folded_with_full_bet"),
        ({"B": 2}, [], "no_showdown"),
        ({"B": -1}, ["B"], "bad_amount"),
        ({"B": 1.5}, ["B"], "bad_amount"),
        ({"Z": 1}, ["Z"], "unknown_player"),
    ],
)
def test_contest_validation(contributions: dict, showdown: list, code: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(StoppaError) as e:
        settle_contest(ORDER, contributions, showdown, 1, {"B": "7d 6d", "C": "7c 6c"})
    assert e.value.code == code


def test_contest_hand_checks() -> None:
    with pytest.raises(StoppaError) as e:
        settle_contest(
            ORDER, {"B": 1, "C": 1}, ["B", "C"], 1, {"B": "7d 6d", "C": "7c"}, iteration_size=2
        )
    assert e.value.code == "wrong_iteration_size"
    with pytest.raises(StoppaError) as e:
        settle_contest(
            ORDER, {"B": 1, "C": 1}, ["B", "C"], 1, {"B": "Kd", "C": "7c"}, deck=deck_info(6)
        )
    assert e.value.code == "card_not_in_deck"
    with pytest.raises(StoppaError) as e:
        settle_contest(ORDER, {"B": 1, "C": 1}, ["B", "C"], 1, {"B": "7c", "C": "7c"})
    assert e.value.code == "duplicate_card"
    r = settle_contest(
        ORDER,
        {"B": 1, "C": 1},
        ["B", "C"],
        1,
        evals={"B": piccolo_eval("7c"), "C": piccolo_eval("7d 6d")},
    )
    assert r.winner == "C"


@pytest.mark.parametrize(
    ("players", "pot", "grosso"), [(3, 18, 13), (4, 24, 20), (5, 30, 27), (6, 36, 34)]
)
def test_default_pot_split(players: int, pot: int, grosso: int) -> None:
    s = Settings()
    iterations = deck_info(players, "Kd" if players == 3 else None).iterations
    assert s.pot(players) == pot and s.grosso_value(players, iterations) == grosso
    s.validate(players, iterations)


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"ante": 0}, "bad_stakes"),
        ({"piccolo_value": 0}, "bad_stakes"),
        ({"ante": 2, "piccolo_value": 1}, "bad_stakes"),  # 3 x 2 - 5 = 1: grosso not above piccolo
        ({"cards_per_payment": 4}, "bad_setting"),
        ({"no_stop_rule": "x"}, "bad_setting"),
        ({"stop_unit": -6}, "bad_stakes"),
    ],
)
def test_bad_stakes(kwargs: dict, code: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(StoppaError) as e:
        Settings(**kwargs).validate(3, 5)
    assert e.value.code == code


def test_variants_are_valid_and_serialise() -> None:
    for s in VARIANTS.values():
        s.validate(4, 4)
        assert Settings.from_dict(s.to_dict()) == s
    with pytest.raises(StoppaError) as e:
        Settings.from_dict({"antee": 6})
    assert e.value.code == "bad_setting"


@settings(max_examples=25, deadline=None)
@given(
    st.integers(3, 6),
    st.integers(0, 10_000),
    st.sampled_from(sorted(VARIANTS)),
    st.integers(1, 3),
    st.integers(0, 4),
)
def test_nets_of_a_table_always_sum_to_zero(
    players: int, seed: int, variant: str, piccolo: int, extra_ante: int
) -> None:
    base = VARIANTS[variant]
    stakes = base.but(
        ante=piccolo * 3 + extra_ante + 1, piccolo_value=piccolo, stop_unit=extra_ante + 1
    )
    names = [f"p{i}" for i in range(players)]
    rng = random.Random(seed)
    record = random_record(names, rng.choice(names), rng, stakes)
    g = settle_game(record)
    assert sum(g.nets.values()) == 0
    assert settle_game(record) == g  # same input -> same result
    assert set(g.nets) == set(names)


def test_full_game_breakdown() -> None:
    record = random_record(["a", "b", "c", "d"], "d", random.Random(7))
    g = settle_game(record)
    assert g.order == ("a", "b", "c", "d") and len(g.piccoli) == 4
    for p in g.players:
        parts = (
            -g.settings.ante
            + sum(c.nets[p] for c in g.contests)
            + g.declarations.payments[p]
            + g.stop_payments[p]
        )
        assert g.nets[p] == parts
    assert g.to_dict()["nets"] == dict(g.nets)
