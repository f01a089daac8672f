"""Decks, cards each, dealing schedule, priority (spec section 2)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.stoppa import (
    StoppaError,
    check_deal,
    deal_by_ones,
    deck_info,
    next_dealer,
    parse_card,
    priority_order,
)


@pytest.mark.parametrize(
    ("players", "king", "size", "each", "schedule", "top"),
    [
        (3, "Kd", 39, 13, (3, 3, 3, 3, 1), "K"),
        (4, None, 40, 10, (3, 3, 3, 1), "K"),
        (5, None, 40, 8, (3, 3, 2), "K"),
        (6, None, 36, 6, (3, 3), "N"),
    ],
)
def test_deck_table(
    players: int, king: str | None, size: int, each: int, schedule: tuple[int, ...], top: str
) -> None:
    info = deck_info(players, king)
    assert len(info.cards) == size
    assert info.per_player == each and info.schedule == schedule and info.top_rank == top
    assert info.iterations == len(schedule)
    assert len(info.cards) == players * each  # every card is dealt, nothing left over


def test_removed_king_and_six_players() -> None:
    assert parse_card("Kd") not in deck_info(3, "Kd").cards
    assert deck_info(3, "coppe").removed_king == parse_card("Kc")
    assert deck_info(3, "b").removed == (parse_card("Kb"),)
    assert not any(c.rank == "K" for c in deck_info(6).cards)


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ((2,), "unsupported_player_count"),
        ((7,), "unsupported_player_count"),
        ((3,), "removed_king_required"),
        ((4, "Kd"), "removed_king_not_allowed"),
        ((6, "d"), "removed_king_not_allowed"),
        ((3, "7d"), "removed_king_required"),
    ],
)
def test_deck_errors(args: tuple[object, ...], code: str) -> None:
    with pytest.raises(StoppaError) as e:
        deck_info(*args)  # type: ignore[arg-type]
    assert e.value.code == code


def test_priority_order_and_rotation() -> None:
    seats = ["a", "b", "c", "d"]
    assert priority_order(seats, "b") == ("c", "d", "a", "b")  # dealer last, c is di mano
    assert next_dealer(seats, "b") == "c"
    dealer, seen = "a", []
    for _ in seats:
        seen.append(dealer)
        dealer = next_dealer(seats, dealer)
    assert sorted(seen) == seats and dealer == "a"  # a giro: each deals once


def test_deal_by_ones_is_one_card_at_a_time() -> None:
    info = deck_info(6)
    order = ["p", "q", "r", "s", "t", "u"]
    its = deal_by_ones(info, order, info.cards)
    assert [c.text for c in its[0]["p"]] == [info.cards[i].text for i in (0, 6, 12)]
    assert [c.text for c in its[1]["q"]] == [info.cards[i].text for i in (19, 25, 31)]


def test_deal_by_ones_rejects_wrong_decks() -> None:
    info = deck_info(6)
    with pytest.raises(StoppaError) as e:
        deal_by_ones(info, list("abcdef"), info.cards[:-1])
    assert e.value.code == "wrong_deck_size"
    with pytest.raises(StoppaError) as e:
        deal_by_ones(info, list("abcdef"), [*info.cards[:-1], parse_card("Kd")])
    assert e.value.code == "card_not_in_deck"


def _iterations(info, order, seed=0):  # type: ignore[no-untyped-def]
    deck = list(info.cards)
    random.Random(seed).shuffle(deck)
    return [
        {p: " ".join(c.text for c in it[p]) for p in order}
        for it in deal_by_ones(info, order, deck)
    ]


def test_check_deal_reasons() -> None:
    info, order = deck_info(5), ["a", "b", "c", "d", "e"]
    its = _iterations(info, order)
    assert len(check_deal(info, order, its)) == 3
    with pytest.raises(StoppaError) as e:
        check_deal(info, order, its[:2])
    assert e.value.code == "wrong_iteration_count" and "3-3-2" in e.value.message
    bad = [dict(it) for it in its]
    bad[2]["a"] = bad[2]["a"] + " " + bad[1]["b"].split()[0]
    with pytest.raises(StoppaError) as e:
        check_deal(info, order, bad)
    assert e.value.code == "wrong_iteration_size" and e.value.where == "deal.iterations[2].a"
    bad = [dict(it) for it in its]
    bad[2]["a"] = bad[0]["b"].split()[0] + " " + bad[2]["a"].split()[1]
    with pytest.raises(StoppaError) as e:
        check_deal(info, order, bad)
    assert e.value.code == "duplicate_card"
    six, order6 = deck_info(6), list("abcdef")
    bad6 = _iterations(six, order6)
    bad6[0]["a"] = "Kd " + " ".join(bad6[0]["a"].split()[1:])
    with pytest.raises(StoppaError) as e:
        check_deal(six, order6, bad6)
    assert e.value.code == "card_not_in_deck" and "Kd" in e.value.message


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 6), st.sampled_from("dcsb"), st.integers(0, 10_000))
def test_deck_sizes_and_schedules(players: int, suit: str, seed: int) -> None:
    info = deck_info(players, "K" + suit if players == 3 else None)
    assert sum(info.schedule) == info.per_player
    assert len(info.cards) == len(set(info.cards)) == players * info.per_player
    order = [f"p{i}" for i in range(players)]
    its = check_deal(info, order, _iterations(info, order, seed))
    dealt = [c for it in its for p in order for c in it[p]]
    assert sorted(dealt, key=lambda c: c.sort_key) == sorted(info.cards, key=lambda c: c.sort_key)
