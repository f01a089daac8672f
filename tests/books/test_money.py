"""books.money: Decimal only, rounded down to the club's coin, the remainder always returned."""

from __future__ import annotations

import pickle
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from books.error_codes import BooksError, BooksErrorCode
from books.money import (
    MoneyError,
    floor_fraction_to_coin,
    floor_to_coin,
    fraction_to_decimal,
    money,
    round_half_up_to_coin,
    split_evenly,
    validate_coin,
)

COINS = [Decimal("0.01"), Decimal("0.05"), Decimal("0.25"), Decimal("1"), Decimal("5")]


@pytest.mark.parametrize("bad", [0.1, True, float("nan"), "NaN", "Infinity", "ten", None])
def test_money_refuses_floats_and_what_is_not_an_amount(bad):
    with pytest.raises(MoneyError) as exc:
        money(bad)
    assert exc.value.code is BooksErrorCode.BAD_AMOUNT


def test_money_takes_decimal_int_and_str():
    assert money(Decimal("1.25")) == Decimal("1.25")
    assert money(3) == Decimal(3)
    assert money("0.05") == Decimal("0.05")


@pytest.mark.parametrize("bad", ["0", "-0.25", 0])
def test_a_coin_is_positive(bad):
    with pytest.raises(MoneyError) as exc:
        validate_coin(bad)
    assert exc.value.code is BooksErrorCode.BAD_COIN


@pytest.mark.parametrize(
    ("amount", "coin", "rounded", "left"),
    [
        ("10.80", "0.25", "10.75", "0.05"),
        ("10.80", "1", "10", "0.80"),
        ("10.80", "0.05", "10.80", "0.00"),
        ("0.04", "0.05", "0.00", "0.04"),
        ("33.33", "0.25", "33.25", "0.08"),
    ],
)
def test_floor_to_coin_gives_whole_coins_and_the_rest(amount, coin, rounded, left):
    got, rest = floor_to_coin(Decimal(amount), Decimal(coin))
    assert (got, rest) == (Decimal(rounded), Decimal(left))
    assert got + rest == Decimal(amount)


def test_a_third_of_a_pot_is_exact_to_the_last_fraction():
    rounded, rest = floor_fraction_to_coin(Fraction(100, 3), Decimal("0.25"))
    assert rounded == Decimal("33.25")
    assert rest == Fraction(1, 12)
    # Three such thirds: whole coins plus leftovers make the pot again, exactly.
    assert rounded * 3 + fraction_to_decimal(rest * 3) == Decimal(100)


def test_fraction_to_decimal_refuses_what_no_till_holds():
    assert fraction_to_decimal(Fraction(1, 8)) == Decimal("0.125")
    with pytest.raises(MoneyError):
        fraction_to_decimal(Fraction(1, 3))


def test_split_evenly_returns_what_does_not_divide():
    assert split_evenly(Decimal(10), 3, Decimal("0.25")) == (Decimal("3.25"), Decimal("0.25"))
    assert split_evenly(Decimal(10), 4, Decimal(1)) == (Decimal(2), Decimal(2))
    with pytest.raises(MoneyError):
        split_evenly(Decimal(10), 0, Decimal(1))


def test_half_up_rounding_is_for_display_and_says_which_way_it_went():
    assert round_half_up_to_coin(Decimal("2.125"), Decimal("0.25")) == (
        Decimal("2.25"),
        Decimal("-0.125"),
    )


def test_the_error_keeps_its_code_through_pickling():
    err = pickle.loads(pickle.dumps(MoneyError("bad", BooksErrorCode.BAD_COIN)))
    assert isinstance(err, BooksError)
    assert err.code is BooksErrorCode.BAD_COIN
    assert str(err) == "bad"


@given(
    cents=st.integers(min_value=0, max_value=10**7),
    coin=st.sampled_from(COINS),
    ways=st.integers(min_value=1, max_value=60),
)
def test_rounding_never_loses_or_makes_a_cent(cents, coin, ways):
    amount = Decimal(cents).scaleb(-2)
    rounded, rest = floor_to_coin(amount, coin)
    assert rounded + rest == amount
    assert Decimal(0) <= rest < coin
    assert rounded % coin == 0
    each, left = split_evenly(amount, ways, coin)
    assert each * ways + left == amount
    assert Decimal(0) <= left < coin * ways


def test_the_examples_in_the_docstrings_hold():
    import doctest

    import books.money

    assert doctest.testmod(books.money).failed == 0
