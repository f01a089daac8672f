"""books.payouts: the payout sheet from final places (docs/rules/books.md).

The property the issue asks for: every field size 4..200 with ties at every paid place, the
sheet pays exactly the pot (held back, paid, carried and the club's part add up to the takings),
no share is negative, and the remainder is accounted for.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from books.error_codes import BooksError, BooksErrorCode
from books.payouts import (
    Fees,
    HoldBack,
    PayoutRow,
    PayoutSheet,
    PayoutTable,
    RemainderTo,
    compute_payouts,
    default_paid_places,
    tie_groups,
)

D = Decimal


def places_with_tie(n: int, at: int, size: int) -> list[tuple[int, int]]:
    """Entries 0..n-1 in order, ``size`` of them tied at place ``at``, the rest alone."""
    places: list[int] = []
    place = 1
    while len(places) < n:
        if place == at:
            group = min(size, n - len(places))
            places += [place] * group
            place += group
        else:
            places.append(place)
            place += 1
    return list(enumerate(places))


def places_from_groups(groups: list[int]) -> list[tuple[int, int]]:
    """Entries in order for tie groups of the given sizes (1, 2, 3, 3, 5 ...)."""
    places, place = [], 1
    for size in groups:
        places += [place] * size
        place += size
    return list(enumerate(places))


def assert_sound(sheet: PayoutSheet, finishers: int) -> None:
    """Everything the issue asks of a sheet, and what the rules imply."""
    sheet.check()  # gross + carried in == held back + paid + carried out + to the club
    coin = sheet.fees.coin
    assert sheet.gross + sheet.carried_in == (
        sheet.held_back_total + sheet.paid_total + sheet.carried_out + sheet.to_club
    )
    assert all(s.amount >= 0 for s in sheet.shares)
    assert all(s.amount % coin == 0 for s in sheet.shares)
    assert sheet.remainder >= 0
    assert sheet.remainder == sheet.pot - sum(s.amount - s.from_remainder for s in sheet.shares)
    paid_places = len(sheet.place_amounts)
    if paid_places and finishers >= paid_places and sheet.fees.remainder_to is not RemainderTo.TOP:
        # Every paid place is filled: the remainder is only what did not make a whole coin.
        assert sheet.remainder < coin * max(len(sheet.shares), 1)
    by_place: dict[int, set[Decimal]] = {}
    for share in sheet.shares:
        by_place.setdefault(share.place, set()).add(share.amount)
    assert all(len(amounts) == 1 for amounts in by_place.values()), "tied shares differ"
    ordered = [next(iter(by_place[p])) for p in sorted(by_place)]
    if sheet.fees.remainder_to is not RemainderTo.TOP or len(ordered) < 2:
        assert ordered == sorted(ordered, reverse=True), "a lower place got more"


@pytest.mark.parametrize("n", range(4, 201))
def test_every_field_size_with_a_tie_at_every_paid_place(n):
    fees = Fees(D(5), (HoldBack("ACC", per_entrant=D(1)),), coin=D("0.25"))
    paid = default_paid_places(n)
    for at in range(1, paid + 1):
        for size in (2, 3):
            sheet = compute_payouts(places_with_tie(n, at, size), n, fees)
            assert_sound(sheet, n)
            tied = [s for s in sheet.shares if s.place == at]
            assert len(tied) == min(size, n - at + 1)
            assert len({s.entry_id for s in sheet.shares}) == len(sheet.shares)


@st.composite
def nights(draw):
    n = draw(st.integers(min_value=4, max_value=200))
    groups, left = [], n
    while left:
        size = draw(st.integers(min_value=1, max_value=min(left, 6)))
        groups.append(size)
        left -= size
    coin = draw(st.sampled_from([D("0.01"), D("0.05"), D("0.25"), D(1), D(5)]))
    entry = D(draw(st.integers(min_value=0, max_value=5000))).scaleb(-2)
    holds = tuple(
        HoldBack(
            f"fee {i}",
            per_entrant=D(draw(st.integers(0, 50))).scaleb(-2),
            percent=D(draw(st.integers(0, 200))).scaleb(-1),
        )
        for i in range(draw(st.integers(0, 2)))
    )
    remainder_to = draw(st.sampled_from(list(RemainderTo)))
    paid = draw(st.integers(min_value=0, max_value=n))
    carried_in = D(draw(st.integers(min_value=0, max_value=1000))).scaleb(-2)
    return places_from_groups(groups), paid, Fees(entry, holds, coin, remainder_to), carried_in


@given(nights())
def test_any_night_pays_the_pot_exactly(night):
    places, paid, fees, carried_in = night
    try:
        sheet = compute_payouts(places, paid, fees, carried_in=carried_in)
    except BooksError as exc:
        assert exc.code is BooksErrorCode.HELD_BACK_EXCEEDS_TAKINGS
        return
    assert_sound(sheet, len(places))


@given(nights(), st.data())
def test_part_payments_and_unpaid_winners_never_lose_a_cent(night, data):
    places, paid, fees, carried_in = night
    takings = D(data.draw(st.integers(0, 200_000))).scaleb(-2)
    ids = [entry for entry, _ in places]
    debtors = data.draw(st.lists(st.sampled_from(ids), unique=True)) if ids else []
    owed = {entry: D(data.draw(st.integers(1, 5000))).scaleb(-2) for entry in debtors}
    try:
        sheet = compute_payouts(
            places, paid, fees, carried_in=carried_in, takings=takings, owed=owed
        )
    except BooksError as exc:
        assert exc.code is BooksErrorCode.HELD_BACK_EXCEEDS_TAKINGS
        return
    sheet.check()  # takings + carried in = held back + paid + carried out + to the club
    assert sheet.gross == takings
    assert sheet.settled == sum((s.settled for s in sheet.shares), D(0))
    for share in sheet.shares:
        assert share.settled <= owed.get(share.entry_id, D(0))
        assert share.amount >= 0
        # A debt is settled in full before a cent is handed over.
        assert share.amount == 0 or share.settled == owed.get(share.entry_id, D(0))
    for hold in sheet.held_back:
        assert hold.amount == hold.amount.quantize(D("0.01"))


@given(nights(), st.data())
def test_a_club_table_pays_the_pot_exactly(night, data):
    places, paid, fees, carried_in = night
    places_paid = data.draw(st.integers(min_value=1, max_value=12))
    cuts = sorted(
        data.draw(
            st.lists(
                st.integers(1, 99), min_size=places_paid - 1, max_size=places_paid - 1, unique=True
            )
        )
    )
    percents = [D(b - a) for a, b in zip([0, *cuts], [*cuts, 100], strict=True)]
    table = PayoutTable((PayoutRow(1, tuple(percents)),))
    try:
        sheet = compute_payouts(places, paid, fees, table, carried_in)
    except BooksError as exc:
        assert exc.code is BooksErrorCode.HELD_BACK_EXCEEDS_TAKINGS
        return
    sheet.check()
    assert all(s.amount >= 0 for s in sheet.shares)


def test_a_twelve_player_night_with_the_acc_fee_held_back():
    places = places_from_groups([1] * 12)
    fees = Fees(D(5), (HoldBack("ACC", per_entrant=D(1)),), coin=D(1))
    sheet = compute_payouts(places, 12, fees)
    assert sheet.gross == D(60)
    assert [(h.name, h.amount) for h in sheet.held_back] == [("ACC", D(12))]
    assert sheet.pot == D(48)
    # One in four paid: 3 places, 3:2:1 parts.
    assert sheet.place_amounts == (D(24), D(16), D(8))
    assert [(s.entry_id, s.amount) for s in sheet.shares] == [(0, D(24)), (1, D(16)), (2, D(8))]
    assert sheet.remainder == 0


def test_tied_players_share_the_sum_of_the_places_they_occupy():
    # 1, 2, 3, 3, 5: the two at 3rd occupy 3rd and 4th; only 3 are paid, so they share 3rd.
    sheet = compute_payouts(
        places_from_groups([1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1]), 12, Fees(D(5), coin=D("0.25"))
    )
    assert sheet.place_amounts == (D(30), D(20), D(10))
    assert [(s.place, s.tied, s.amount) for s in sheet.shares] == [
        (1, 1, D(30)),
        (2, 1, D(20)),
        (3, 2, D(5)),
        (3, 2, D(5)),
    ]
    # Two tied at 1st share 1st + 2nd: (30 + 20) / 2.
    sheet = compute_payouts(places_from_groups([2] + [1] * 10), 12, Fees(D(5)))
    assert [s.amount for s in sheet.shares] == [D(25), D(25), D(10)]


def test_the_remainder_goes_where_the_club_says():
    places = places_from_groups([3] + [1] * 9)  # three tie for 1st of 12: they share 60
    carry = compute_payouts(
        places, 12, Fees(D(5), coin=D(1), remainder_to=RemainderTo.CARRY), carried_in=D(2)
    )
    assert carry.pot == D(62)
    assert [s.amount for s in carry.shares] == [D(20)] * 3
    assert (carry.remainder, carry.carried_out, carry.to_club) == (D(2), D(2), D(0))
    club = compute_payouts(
        places, 12, Fees(D(5), coin=D(1), remainder_to=RemainderTo.CLUB), carried_in=D(2)
    )
    assert (club.carried_out, club.to_club) == (D(0), D(2))
    top = compute_payouts(
        places, 12, Fees(D(5), coin=D("0.25"), remainder_to=RemainderTo.TOP), carried_in=D(2)
    )
    # 62 / 3 = 20.66..: 20.50 each, 0.50 left; the top three take 0.25 more? No: 0.50 does
    # not split three ways in quarters, so it is carried.
    assert [s.amount for s in top.shares] == [D("20.50")] * 3
    assert (top.remainder, top.carried_out) == (D("0.50"), D("0.50"))
    one_top = compute_payouts(
        places_from_groups([1] * 10), 10, Fees(D(1), coin=D(1), remainder_to=RemainderTo.TOP)
    )
    # 10 in the pot, 3 places at 3:2:1 parts of 10: 5, 3, 1 and 1 left, to the winner.
    assert [(s.amount, s.from_remainder) for s in one_top.shares] == [
        (D(6), D(1)),
        (D(3), D(0)),
        (D(1), D(0)),
    ]
    assert one_top.carried_out == 0


def test_places_nobody_finished_in_are_in_the_remainder():
    sheet = compute_payouts(places_from_groups([1, 1]), 24, Fees(D(5)))
    assert len(sheet.place_amounts) == 6
    assert sheet.paid_total + sheet.remainder == sheet.pot
    assert sheet.notes and "nobody" in sheet.notes[0]


def test_waived_entrants_play_but_only_paid_ones_make_the_pot():
    sheet = compute_payouts(places_from_groups([1] * 13), 12, Fees(D(5)))
    assert sheet.gross == D(60)
    assert len(sheet.place_amounts) == 3


def test_a_club_table_by_field_size():
    table = PayoutTable(
        (
            PayoutRow(1, (D(100),)),
            PayoutRow(8, (D(60), D(40))),
            PayoutRow(16, (D(50), D(30), D(20))),
        )
    )
    assert table.shares_for(7) == (Fraction(1),)
    assert table.shares_for(12) == (Fraction(3, 5), Fraction(2, 5))
    assert table.shares_for(40) == (Fraction(1, 2), Fraction(3, 10), Fraction(1, 5))
    sheet = compute_payouts(places_from_groups([1] * 16), 16, Fees(D(10)), table)
    assert [s.amount for s in sheet.shares] == [D(80), D(48), D(32)]


def test_a_held_back_percentage_is_owed_to_the_cent_not_the_coin():
    fees = Fees(D(5), (HoldBack("club", percent=D("7.5")),), coin=D("0.25"))
    sheet = compute_payouts(places_from_groups([1] * 9), 9, fees)
    # 7.5% of 45 is 3.375: 3.38 held (to the cent, halves up), never 3.25.
    assert sheet.held_back[0].amount == D("3.38")
    assert sheet.pot == D("41.62")


@pytest.mark.parametrize(
    ("hold", "paid", "held"),
    [
        # The cases with a 5.00 coin: 10% of 45.00 held 0.00, 9 x 1.00 held 5.00.
        (HoldBack("club", percent=D(10)), 9, D("4.50")),
        (HoldBack("ACC", per_entrant=D(1)), 9, D("9.00")),
        (HoldBack("both", per_entrant=D(1), percent=D(10)), 9, D("13.50")),
    ],
)
def test_hold_backs_are_never_rounded_to_a_big_coin(hold, paid, held):
    fees = Fees(D(5), (hold,), coin=D(5))
    sheet = compute_payouts(places_from_groups([1] * paid), paid, fees)
    assert sheet.held_back_total == held
    # Only the prizes are in coins of 5; what did not make a coin is the remainder.
    assert all(s.amount % 5 == 0 for s in sheet.shares)
    assert sheet.pot == D(45) - held
    sheet.check()


def test_the_takings_are_what_was_paid_not_the_fee_times_the_payers():
    # 4 paid, one of them 0.00 and one 5.00 of a 10.00 fee: 25.00 came in, not 40.00.
    sheet = compute_payouts(places_from_groups([1] * 4), 4, Fees(D(10)), takings=D(25))
    assert sheet.gross == D(25)
    assert sheet.pot == D(25)
    assert sheet.paid_total + sheet.carried_out == D(25)
    sheet.check()


def test_an_unpaid_winner_s_prize_settles_the_fee_first():
    # 8 players, 7 paid 10.00: one in four of 7 pays 2 places. Entry 0, who never paid,
    # won and owes the 10.00 fee.
    places = places_from_groups([1] * 8)
    sheet = compute_payouts(places, 7, Fees(D(10)), takings=D(70), owed={0: D(10)})
    first = sheet.shares[0]
    assert first.entry_id == 0
    assert first.prize == D("46")  # 2 of 3 parts of 70, floored to the dollar
    assert (first.amount, first.settled) == (D(36), D(10))
    assert sheet.settled == D(10)
    assert sheet.carried_out == sheet.remainder + D(10)
    sheet.check()
    # To the club when the club keeps the remainder; a prize smaller than the debt goes whole.
    club = Fees(D(10), remainder_to=RemainderTo.CLUB)
    small = compute_payouts(places, 7, club, takings=D(70), owed={1: D(50)})
    assert (small.shares[1].amount, small.shares[1].settled) == (D(0), D(23))
    assert small.to_club == small.remainder + D(23)
    small.check()


@pytest.mark.parametrize(
    ("places", "message"),
    [
        ([(1, 1), (2, 3)], "place 3 where place 2"),
        ([(1, 1), (2, 1), (3, 2)], "place 2 where place 3"),
        ([(1, 0)], "place 0"),
        ([(1, 1), (1, 2)], "two places"),
    ],
)
def test_bad_places_are_refused(places, message):
    with pytest.raises(BooksError, match=message) as exc:
        tie_groups(places)
    assert exc.value.code is BooksErrorCode.BAD_PLACES


def test_bad_fees_and_tables_are_refused_with_a_code():
    cases = [
        (lambda: Fees(D(-1)), BooksErrorCode.BAD_FEE),
        (lambda: HoldBack("x", percent=D(101)), BooksErrorCode.BAD_FEE),
        (lambda: PayoutRow(1, (D(60), D(30))), BooksErrorCode.BAD_TABLE),
        (lambda: PayoutRow(0, (D(100),)), BooksErrorCode.BAD_TABLE),
        (
            lambda: PayoutTable((PayoutRow(4, (D(100),)), PayoutRow(4, (D(100),)))),
            BooksErrorCode.BAD_TABLE,
        ),
        (
            lambda: PayoutTable((PayoutRow(8, (D(100),)),)).shares_for(5),
            BooksErrorCode.NO_TABLE_ROW,
        ),
        (
            lambda: compute_payouts([], 4, Fees(D(1), (HoldBack("x", per_entrant=D(2)),))),
            BooksErrorCode.HELD_BACK_EXCEEDS_TAKINGS,
        ),
        (lambda: compute_payouts([], -1, Fees(D(1))), BooksErrorCode.BAD_FEE),
        (lambda: compute_payouts([], 2.0, Fees(D(1))), BooksErrorCode.BAD_FEE),
        (lambda: Fees(0.5), BooksErrorCode.BAD_AMOUNT),
    ]
    for make, code in cases:
        with pytest.raises(BooksError) as exc:
            make()
        assert exc.value.code is code


def test_the_default_pays_one_in_four_rounded_up():
    assert [default_paid_places(n) for n in (0, 1, 4, 5, 8, 9, 12, 121, 124, 200)] == [
        0,
        1,
        1,
        2,
        2,
        3,
        3,
        31,
        31,
        50,
    ]
    shares = PayoutTable().shares_for(12)
    assert shares == (Fraction(1, 2), Fraction(1, 3), Fraction(1, 6))
    assert sum(PayoutTable().shares_for(200)) == 1
