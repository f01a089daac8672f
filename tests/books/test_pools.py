"""books.pools: side pools that roll over, and the night ledger that balances to zero."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from books.error_codes import BooksError, BooksErrorCode
from books.payouts import Fees, HoldBack, compute_payouts
from books.pools import (
    LedgerItem,
    PoolKind,
    PoolRule,
    ShareRule,
    last_holder,
    night_ledger,
    q_pool_winners,
    settle_pool,
)

D = Decimal
HAND_29 = PoolRule("29 hand", PoolKind.HAND_29, D(1))
Q_POOL = PoolRule("Q-pool", PoolKind.Q_POOL, D(5), coin=D("0.25"))


def test_a_pool_nobody_wins_rolls_over_night_after_night():
    balance = D(0)
    for _night in range(3):
        result = settle_pool(HAND_29, count=20, winners=[], carried_in=balance)
        assert not result.won
        assert result.carried_out == balance + D(20)
        balance = result.carried_out
    assert balance == D(60)
    # The fourth night somebody holds a 29: the whole pot, 60 carried and 18 new.
    won = settle_pool(HAND_29, count=18, winners=["ann"], carried_in=balance)
    assert [(s.entry_id, s.amount) for s in won.shares] == [("ann", D(78))]
    assert won.carried_out == 0


def test_the_q_pool_is_split_among_the_qualifiers_who_paid_in():
    qualifiers = ["a", "b", "c", "d", "e", "f"]
    winners = q_pool_winners({"a", "c", "d", "x", "y"}, qualifiers)
    assert winners == ["a", "c", "d"]
    result = settle_pool(Q_POOL, count=5, winners=winners)
    # 25 three ways in quarters: 8.25 each, 0.25 stays in the pool for next time.
    assert [s.amount for s in result.shares] == [D("8.25")] * 3
    assert result.carried_out == D("0.25")


def test_a_skunk_pot_pays_by_ratio_after_the_club_keeps_its_part():
    skunk = PoolRule(
        "skunk pot", PoolKind.SKUNK, D(1), ShareRule.RATIO, (D(60), D(40)),
        held_back_percent=D(10),
    )  # fmt: skip
    result = settle_pool(skunk, count=11, winners=["first draw", "second draw"])
    assert result.held_back == D("1.10")  # 10% of 11: the club's part is owed to the cent
    assert [s.amount for s in result.shares] == [D(5), D(3)]  # 60/40 of 9.90, in dollars
    assert result.carried_out == D("1.90")
    one = settle_pool(skunk, count=11, winners=["only"])
    assert [s.amount for s in one.shares] == [D(9)]  # 9.90 in dollars; 0.90 carries
    with pytest.raises(BooksError) as exc:
        settle_pool(skunk, count=11, winners=["a", "b", "c"])
    assert exc.value.code is BooksErrorCode.BAD_WINNERS


def test_a_28_hand_takes_half_the_skunk_bank_and_the_rest_carries():
    bank = PoolRule("skunk bank", PoolKind.SKUNK, D("0.25"), coin=D("0.25"))
    result = settle_pool(bank, count=6, winners=["bob"], carried_in=D("10.00"),
                         payout_percent=D(50))  # fmt: skip
    assert result.shares[0].amount == D("5.75")  # half of 11.50
    assert result.carried_out == D("5.75")


def test_the_last_holder_wins_a_24_hand_pot():
    assert last_holder(["frank", "revene", "susan"]) == ["susan"]
    assert last_holder([]) == []


def test_a_pool_that_does_not_roll_over_gives_the_club_its_balance():
    rule = PoolRule("high hand", PoolKind.OTHER, D(2), rolls_over=False)
    result = settle_pool(rule, count=10, winners=[], carried_in=D(3))
    assert (result.carried_out, result.to_club) == (D(0), D(23))


def test_bad_pools_are_refused_with_a_code():
    cases = [
        lambda: PoolRule("x", PoolKind.OTHER, D(-1)),
        lambda: PoolRule("x", PoolKind.OTHER, D(1), payout_percent=D(0)),
        lambda: PoolRule("x", PoolKind.OTHER, D(1), ShareRule.RATIO),
        lambda: settle_pool(HAND_29, count=-1, winners=[]),
        lambda: settle_pool(HAND_29, count=1.5, winners=[]),
        lambda: settle_pool(HAND_29, count=1, winners=["a", "a"]),
        lambda: settle_pool(HAND_29, count=1, winners=["a"], payout_percent=D(120)),
    ]
    for make in cases:
        with pytest.raises(BooksError):
            make()


@given(
    nights=st.lists(
        st.tuples(st.integers(0, 60), st.integers(0, 4), st.sampled_from([None, D(50), D(100)])),
        min_size=1,
        max_size=12,
    ),
    coin=st.sampled_from([D("0.05"), D("0.25"), D(1)]),
    fee=st.integers(0, 500),
    held=st.integers(0, 30),
)
def test_a_pool_over_a_season_never_loses_a_coin(nights, coin, fee, held):
    rule = PoolRule("pool", PoolKind.OTHER, D(fee).scaleb(-2), held_back_percent=D(held),
                    coin=coin)  # fmt: skip
    balance, taken, paid, kept = D(0), D(0), D(0), D(0)
    for count, winners, percent in nights:
        result = settle_pool(rule, count, [f"p{i}" for i in range(winners)], balance, percent)
        result.check()
        assert all(s.amount >= 0 for s in result.shares)
        balance = result.carried_out
        taken += result.takings
        paid += result.paid_total
        kept += result.held_back
    assert taken == paid + kept + balance


def test_a_24_player_night_balances_and_the_next_night_starts_with_the_carried_pot():
    """The issue's "done when": fees, a Q-pool and a rolled-over 29-hand pot, one night."""
    places = [(f"p{i}", place) for i, place in enumerate(
        [1, 2, 3, 4, 5, 5, 7, *range(8, 25)]
    )]  # fmt: skip
    fees = Fees(D(5), (HoldBack("ACC", per_entrant=D("0.50")),), coin=D("0.25"))
    sheet = compute_payouts(places, 24, fees)
    q_pool = settle_pool(Q_POOL, count=14,
                         winners=q_pool_winners({f"p{i}" for i in range(0, 24, 2)},
                                                [entry for entry, _ in places[:6]]))  # fmt: skip
    pot_29 = settle_pool(HAND_29, count=24, winners=[], carried_in=D(57))
    ledger = night_ledger(sheet, [q_pool, pot_29])
    assert ledger.balance == 0
    assert ledger.takings == D(120) + D(70) + D(24)
    assert ledger.carried_in == D(57)
    assert ledger.held_back == D(12)
    assert ledger.takings + ledger.carried_in == (
        ledger.payouts + ledger.held_back + ledger.carried_out
    )
    carry = ledger.carry_forward()
    assert carry["29 hand"] == D(81)
    # The next night starts with the carried pot, and somebody finally holds a 29.
    next_29 = settle_pool(HAND_29, count=20, winners=["p7"], carried_in=carry["29 hand"])
    next_sheet = compute_payouts(places[:20], 20, fees, carried_in=carry["main"])
    next_ledger = night_ledger(next_sheet, [next_29])
    assert next_ledger.balance == 0
    assert next_29.shares[0].amount == D(101)
    assert next_ledger.carried_in == carry["29 hand"] + carry["main"]
    assert [line.amount for line in next_ledger.lines
            if line.item is LedgerItem.PAYOUT and line.pot == "29 hand"] == [D(101)]  # fmt: skip


def test_two_pots_of_one_name_are_refused():
    sheet = compute_payouts([], 0, Fees(D(5)))
    clash = settle_pool(PoolRule("main", PoolKind.OTHER, D(1)), 1, [])
    with pytest.raises(BooksError) as exc:
        night_ledger(sheet, [clash])
    assert exc.value.code is BooksErrorCode.BAD_POOL
