"""Money as :class:`~decimal.Decimal`, rounded to the club's smallest coin.

A club pays in the coins it has at the door: whole dollars (``Decimal("1")``), quarters
(``Decimal("0.25")``), nickels (``Decimal("0.05")``). Every rounding here says what it left
over, so the caller can put the remainder somewhere (carried, to the top place, to the club)
and no cent is lost. Floats are refused outright: ``0.1 + 0.2`` is not money.
"""

from __future__ import annotations

from decimal import ROUND_FLOOR, Decimal, InvalidOperation
from fractions import Fraction

from .error_codes import BooksError, BooksErrorCode

__all__ = [
    "MoneyError",
    "floor_fraction_to_coin",
    "floor_to_coin",
    "fraction_to_decimal",
    "money",
    "round_half_up_to_coin",
    "split_evenly",
    "validate_coin",
]

ZERO = Decimal(0)


class MoneyError(BooksError):
    """A sum or a coin that is not usable money (a float, NaN, a negative coin...)."""

    def __init__(self, message: str, code: BooksErrorCode = BooksErrorCode.BAD_AMOUNT) -> None:
        super().__init__(code, message)

    def __reduce__(self) -> tuple[type[BooksError], tuple[BooksErrorCode, str]]:
        return (BooksError, (self.code, str(self)))


def money(value: Decimal | int | str) -> Decimal:
    """Return ``value`` as a finite Decimal; refuse floats, NaN and infinities.

    ``bool`` is refused too (``True`` is an ``int`` to Python, never an amount to a club).
    """
    if isinstance(value, bool | float):
        raise MoneyError(f"money must be Decimal, int or str, not {type(value).__name__}")
    if isinstance(value, Decimal):
        result = value
    elif isinstance(value, int | str):
        try:
            result = Decimal(value)
        except InvalidOperation as exc:
            raise MoneyError(f"not an amount: {value!r}") from exc
    else:
        raise MoneyError(f"money must be Decimal, int or str, not {type(value).__name__}")
    if not result.is_finite():
        raise MoneyError(f"not a finite amount: {value!r}")
    return result


def validate_coin(coin: Decimal | int | str) -> Decimal:
    """Return the smallest coin as a positive Decimal, or raise :class:`MoneyError`."""
    result = money(coin)
    if result <= 0:
        raise MoneyError(
            f"the smallest coin must be positive, not {result}", BooksErrorCode.BAD_COIN
        )
    return result


def floor_to_coin(amount: Decimal | int, coin: Decimal | int | str) -> tuple[Decimal, Decimal]:
    """Round ``amount`` down to a whole number of coins; return ``(rounded, remainder)``.

    Rounding down, never up, is what keeps a payout sheet from paying more than the pot: the
    remainder is what did not make a whole coin, ``0 <= remainder < coin`` for an amount of
    zero or more, and ``rounded + remainder == amount`` exactly.

    >>> floor_to_coin(Decimal("10.80"), Decimal("0.25"))
    (Decimal('10.75'), Decimal('0.05'))
    """
    unit = validate_coin(coin)
    value = money(amount)
    rounded = unit * (value / unit).to_integral_value(rounding=ROUND_FLOOR)
    return rounded, value - rounded


def floor_fraction_to_coin(amount: Fraction, coin: Decimal | int | str) -> tuple[Decimal, Fraction]:
    """:func:`floor_to_coin` for an exact share that may not end in decimal (a third of a pot).

    Returns the whole coins as a Decimal and the exact Fraction left over; a caller adds the
    leftovers of all shares up, and their sum is a decimal amount again.
    """
    unit = validate_coin(coin)
    if not isinstance(amount, Fraction):
        raise MoneyError(f"expected a Fraction, not {type(amount).__name__}")
    rounded = unit * (amount / Fraction(unit)).__floor__()
    return rounded, amount - Fraction(rounded)


def split_evenly(
    amount: Decimal | int, ways: int, coin: Decimal | int | str
) -> tuple[Decimal, Decimal]:
    """Split ``amount`` into ``ways`` equal whole-coin shares; return ``(each, remainder)``.

    ``each * ways + remainder == amount`` holds exactly and ``0 <= remainder < ways * coin``
    for an amount of zero or more.

    >>> split_evenly(Decimal("10"), 3, Decimal("0.25"))
    (Decimal('3.25'), Decimal('0.25'))
    """
    if ways < 1:
        raise MoneyError(f"cannot split among {ways}")
    unit = validate_coin(coin)
    value = money(amount)
    coins = (value / (unit * ways)).to_integral_value(rounding=ROUND_FLOOR)
    each = unit * coins
    return each, value - each * ways


def fraction_to_decimal(value: Fraction) -> Decimal:
    """The exact Decimal of a Fraction that ends in decimal (denominator of 2s and 5s only).

    Raises :class:`MoneyError` for a Fraction such as 1/3, which no till can hold.
    """
    den = value.denominator
    twos = fives = 0
    while den % 2 == 0:
        den //= 2
        twos += 1
    while den % 5 == 0:
        den //= 5
        fives += 1
    if den != 1:
        raise MoneyError(f"{value} does not end in decimal")
    places = max(twos, fives)
    scaled = value * 10**places
    return Decimal(scaled.numerator).scaleb(-places)


def round_half_up_to_coin(amount: Decimal, coin: Decimal | int | str) -> tuple[Decimal, Decimal]:
    """Round ``amount`` to the nearest coin, halves up; return ``(rounded, remainder)``.

    The remainder may be negative (the rounding went up). Used for figures that are shown,
    not paid (a percentage of a pot on the sheet); payouts always use :func:`floor_to_coin`.
    """
    unit = validate_coin(coin)
    value = money(amount)
    coins = (value / unit + Decimal("0.5")).to_integral_value(rounding=ROUND_FLOOR)
    rounded = unit * coins
    return rounded, value - rounded
