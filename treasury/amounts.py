"""What the money desk accepts as an amount, a coin and a currency, declared once.

Every money value that comes in (an API body, a form, a command) goes through
:func:`parse_amount`: plain decimals with a point and at most two places ("7.50", "10"),
never a float, an exponent ("1E+2"), a digit group mark ("1_0"), a sign ("-0.00", "+5") or
a digit of another script (an Arabic-Indic five). Pages read the reader's format with
Django's localized fields first and hand over a ``Decimal``, which is checked the same way.

The bounds keep a 1,000-entrant night's takings and a season's books inside the columns
(12 digits, 2 after the point): a fee of at most :data:`MAX_FEE` times 1,000 entrants is
10,000,000.00, and a season of a hundred such nights still fits.
"""

from __future__ import annotations

import re
from decimal import ROUND_DOWN, Decimal
from functools import cache
from typing import Any

from django.utils.formats import get_format
from django.utils.translation import gettext as _

from core.errors import ServiceError

from .error_codes import TreasuryError

CENT = Decimal("0.01")
# A fee, a pool's fee, a hold-back per entrant, one payment.
MAX_FEE = Decimal("10000.00")
# What a column holds (12 digits, 2 after the point): balances, takings, ledger lines.
MAX_AMOUNT = Decimal("9999999999.99")
# A payment may cover more than tonight's fee (two nights paid at once), never more than this
# many fees: a slip of the finger ("750.00" for "7.50") is refused, not booked.
MAX_FEES_IN_ONE_PAYMENT = 10
# The coins a club can pay prizes in: 1, 2 and 5 of each power of ten, and the quarter.
_COIN_TEXTS = "0.01 0.02 0.05 0.10 0.20 0.25 0.50 1.00 2.00 5.00 10.00 20.00 25.00 50.00 100.00"
COINS = tuple(Decimal(text) for text in _COIN_TEXTS.split())

_PLAIN = re.compile(r"[0-9]{1,10}(?:\.[0-9]{1,2})?")


def _refuse(
    field: str, message: str, code: TreasuryError = TreasuryError.BAD_MONEY
) -> ServiceError:
    return ServiceError(code, message, field=field)


def parse_amount(value: Any, field: str = "amount", *, most: Decimal = MAX_AMOUNT) -> Decimal:
    """``value`` as an amount from 0 to ``most`` with two places, or a ServiceError naming
    ``field``. A string must be a plain decimal with a point; a Decimal must be finite,
    unsigned and without an exponent."""
    if isinstance(value, bool | float) or value is None:
        raise _refuse(field, _("Give amounts as text, such as 7.50."))
    if isinstance(value, int):
        value = str(value)
    if isinstance(value, str):
        text = value.strip()
        if not _PLAIN.fullmatch(text):
            raise _refuse(
                field,
                _("“%(v)s” is not an amount: write it as 7.50, with at most two decimals.")
                % {"v": value[:40]},
            )
        amount = Decimal(text)
    elif isinstance(value, Decimal):
        try:
            exponent = int(value.as_tuple().exponent)
        except (TypeError, ValueError):
            exponent = 1  # NaN and infinities have a letter for an exponent
        if not value.is_finite() or value.is_signed() or exponent > 0:
            raise _refuse(field, _("“%(v)s” is not an amount.") % {"v": value})
        if value != value.quantize(CENT, rounding=ROUND_DOWN):
            raise _refuse(field, _("An amount has at most two decimals."))
        amount = value
    else:
        raise _refuse(field, _("Give amounts as text, such as 7.50."))
    if amount > most:
        raise _refuse(
            field, _("An amount is at most %(most)s.") % {"most": f"{most.quantize(CENT):,}"}
        )
    return amount.quantize(CENT)


def parse_localized_amount(value: str) -> str:
    """A page's amount in the reader's format ("7,50" in Italian, German, Romanian) as the
    plain text :func:`parse_amount` reads ("7.50"). A point is read as the decimal point in
    every language; a digit group mark ("1.000,00") is not accepted, so never misread."""
    text = (value or "").strip()
    separator = get_format("DECIMAL_SEPARATOR")
    if separator != "." and "." not in text:
        text = text.replace(separator, ".", 1)
    return text


def parse_percent(value: Any, field: str) -> Decimal:
    """A percentage from 0 to 100 with at most two places, as :func:`parse_amount` reads it."""
    return parse_amount(value, field, most=Decimal(100))


def check_coin(coin: Decimal, field: str = "coin") -> Decimal:
    """A coin a club can pay in (:data:`COINS`), or a ServiceError naming ``field``."""
    if coin not in COINS:
        raise _refuse(
            field,
            _("The smallest coin is one of %(coins)s.")
            % {"coins": ", ".join(str(c.normalize()) for c in COINS)},
            TreasuryError.BAD_COIN,
        )
    return coin


def parse_count(value: Any, field: str = "count", *, most: int = 999) -> int:
    """A whole count from 0 to ``most`` ("3", 3), or a ServiceError naming ``field``."""
    if isinstance(value, bool):
        value = None
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,6}", value.strip()):
        value = int(value.strip())
    if not isinstance(value, int) or not 0 <= value <= most:
        raise ServiceError(
            TreasuryError.BAD_COUNT,
            _("A count is a whole number from 0 to %(most)s.") % {"most": most},
            field=field,
        )
    return value


@cache
def currencies() -> tuple[str, ...]:
    """The ISO 4217 codes of the currencies in use somewhere (CLDR's tender currencies)."""
    from babel.core import get_global
    from babel.numbers import get_territory_currencies

    codes: set[str] = set()
    for territory in get_global("territory_currencies"):
        codes.update(get_territory_currencies(territory, tender=True))
    return tuple(sorted(codes))


def currency_choices(language: str) -> list[tuple[str, str]]:
    """``(code, "EUR · euro")`` for every currency in use, named in ``language``."""
    from babel.numbers import get_currency_name

    locale = (language or "en").replace("-", "_")
    try:
        names = [get_currency_name(code, locale=locale) for code in currencies()]
    except (ValueError, LookupError):  # a language CLDR does not know: English names
        names = [get_currency_name(code, locale="en") for code in currencies()]
    return [(code, f"{code} · {name}") for code, name in zip(currencies(), names, strict=True)]


def check_currency(code: Any, field: str = "currency") -> str:
    """An ISO 4217 code in use ("EUR", "USD", "RON"), or a ServiceError naming ``field``."""
    if not isinstance(code, str) or code not in currencies():
        raise _refuse(
            field,
            _("Choose the currency by its ISO 4217 code, such as EUR or USD."),
            TreasuryError.BAD_CURRENCY,
        )
    return code
