"""A club's own payout table, checked field by field: what the treasurer types, what the API
is sent and what is stored are read by the one function here, :func:`check_rows`.

A table is rows ``{"min_entrants": N, "percents": [50, 30, 20]}``: from N paid entrants on,
each paid place's percentage. Beyond what ``books.payouts.PayoutRow`` and ``PayoutTable``
refuse (a row not adding to 100, a percentage of 0 or less, two rows from the same size), a
table here is refused when a percentage is not a plain number (a float, ``NaN``, ``1e999``,
``true``, text, an object), a lower place pays more than a higher one (``[10, 20, 70]``), the
rows are not in order of field size, or a row pays more places than it has entrants. Every
problem is found, not just the first, so a form shows each beside its field.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from books.error_codes import BooksError
from books.payouts import PayoutRow, PayoutTable
from core.errors import ServiceError

from .error_codes import TreasuryError

HUNDRED = Decimal(100)
MAX_ROWS = 50  # a club's table has a handful of rows; 50 is a typing accident
MAX_ENTRANTS = 10_000  # what a row may start from (the largest field is a few hundred)
MAX_PLACES = 200  # places one row may pay
# A percentage as people write it: digits, at most two decimals ("33.33"); no sign, no
# exponent ("1e999"), no "NaN" or "Infinity".
PLAIN_PERCENT = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,2})?")
PLAIN_COUNT = re.compile(r"[0-9]{1,6}")


@dataclass(frozen=True)
class TableProblem:
    """One refusal: its code, the reason in words, and the field it belongs to
    (``rows.1.percents``: the second row's percentages; ``rows``: the whole table)."""

    code: TreasuryError
    message: str
    field: str
    row: int | None = None  # the row's index, None for the table
    part: str = ""  # "min_entrants" or "percents", "" for the row or the table


class PayoutTableRefused(ServiceError):
    """A payout table refused: the first problem is the error's code, message and field;
    ``problems`` holds every one."""

    def __init__(self, problems: Sequence[TableProblem]) -> None:
        first = problems[0]
        super().__init__(first.code, first.message, field=first.field)
        self.problems = tuple(problems)


def parse_percent(value: Any, *, stored: bool = False) -> Decimal | None:
    """``value`` as a percentage (a Decimal of at most two decimals), or None when it is not
    a plain number. Refused: ``bool``, floats (``stored``: a finite float the admin wrote is
    read), text that is not plain digits, objects, lists, None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        if not stored or not math.isfinite(value):
            return None
        value = repr(value)  # the JSON number as it was written: 33.5 -> "33.5"
    if isinstance(value, Decimal):
        if not value.is_finite() or value != value.quantize(Decimal("0.01")):
            return None
        return value
    if isinstance(value, str) and PLAIN_PERCENT.fullmatch(value.strip()):
        return Decimal(value.strip())
    return None


def _min_entrants(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and PLAIN_COUNT.fullmatch(value.strip()):
        value = int(value.strip())
    if isinstance(value, int) and 1 <= value <= MAX_ENTRANTS:
        return value
    return None


def _percent_text(value: Decimal) -> str:
    return f"{value.normalize():f}"


def _row_problems(i: int, raw: Any, stored: bool) -> tuple[PayoutRow | None, list[TableProblem]]:
    """One row's problems, and the row when it has none."""
    field = f"rows.{i}"

    def problem(code: TreasuryError, message: str, part: str) -> TableProblem:
        return TableProblem(code, message, f"{field}.{part}" if part else field, i, part)

    if not isinstance(raw, dict):
        return None, [
            problem(
                TreasuryError.BAD_PAYOUT_TABLE,
                _("A row is a size and its percentages: {min_entrants, percents}."),
                "",
            )
        ]
    problems: list[TableProblem] = []
    start = _min_entrants(raw.get("min_entrants"))
    if start is None:
        problems.append(
            problem(
                TreasuryError.BAD_MIN_ENTRANTS,
                _("A row starts from a whole number of paid entrants, 1 to %(max)s.")
                % {"max": MAX_ENTRANTS},
                "min_entrants",
            )
        )
    given = raw.get("percents")
    if not isinstance(given, list | tuple) or not given:
        problems.append(
            problem(
                TreasuryError.NO_PLACES,
                _("A row pays one place or more: its percentages, 1st place first."),
                "percents",
            )
        )
        return None, problems
    if len(given) > MAX_PLACES:
        problems.append(
            problem(
                TreasuryError.ROW_PAYS_TOO_MANY,
                _("A row pays at most %(max)s places.") % {"max": MAX_PLACES},
                "percents",
            )
        )
        return None, problems
    percents: list[Decimal] = []
    for place, value in enumerate(given, start=1):
        percent = parse_percent(value, stored=stored)
        if percent is None:
            problems.append(
                problem(
                    TreasuryError.PERCENT_NOT_A_NUMBER,
                    _(
                        "Place %(place)s: “%(value)s” is not a percentage (a number with at "
                        "most two decimals, such as 50 or 33.33)."
                    )
                    % {"place": place, "value": str(value)[:20]},
                    "percents",
                )
            )
            return None, problems
        if percent <= 0:
            problems.append(
                problem(
                    TreasuryError.PERCENT_NOT_POSITIVE,
                    _("Place %(place)s: a paid place gets more than 0%%.") % {"place": place},
                    "percents",
                )
            )
            return None, problems
        if percents and percent > percents[-1]:
            problems.append(
                problem(
                    TreasuryError.PERCENTS_RISING,
                    _(
                        "Place %(place)s gets %(percent)s%%, more than place %(above)s "
                        "(%(above_percent)s%%): a lower place never pays more."
                    )
                    % {
                        "place": place,
                        "percent": _percent_text(percent),
                        "above": place - 1,
                        "above_percent": _percent_text(percents[-1]),
                    },
                    "percents",
                )
            )
            return None, problems
        percents.append(percent)
    total = sum(percents, Decimal(0))
    if total != HUNDRED:
        problems.append(
            problem(
                TreasuryError.PERCENTS_NOT_100,
                _("The percentages add up to %(total)s, not 100.")
                % {"total": _percent_text(total)},
                "percents",
            )
        )
    if start is not None and len(percents) > start:
        problems.append(
            problem(
                TreasuryError.ROW_PAYS_TOO_MANY,
                _("From %(n)s paid entrants a row cannot pay %(places)s places.")
                % {"n": start, "places": len(percents)},
                "percents",
            )
        )
    if problems or start is None:
        return None, problems
    return PayoutRow(start, tuple(percents)), []


def check_rows(rows: Any, *, stored: bool = False) -> tuple[PayoutTable, list[TableProblem]]:
    """Read a payout table: the ``books`` table and no problems, or every problem found (the
    table is then the built-in one, never to be used). ``stored``: the rows come from the
    database, where a finite float the admin wrote is read as its decimal."""
    if not isinstance(rows, list | tuple):
        return PayoutTable(), [
            TableProblem(
                TreasuryError.BAD_PAYOUT_TABLE,
                _("A payout table is a list of rows."),
                "rows",
            )
        ]
    if len(rows) > MAX_ROWS:
        return PayoutTable(), [
            TableProblem(
                TreasuryError.BAD_PAYOUT_TABLE,
                _("A payout table has at most %(max)s rows.") % {"max": MAX_ROWS},
                "rows",
            )
        ]
    problems: list[TableProblem] = []
    found: list[PayoutRow] = []
    previous: int | None = None
    for i, raw in enumerate(rows):
        row, row_problems = _row_problems(i, raw, stored)
        problems.extend(row_problems)
        start = _min_entrants(raw.get("min_entrants")) if isinstance(raw, dict) else None
        if start is not None:
            if previous is not None and start <= previous:
                problems.append(
                    TableProblem(
                        TreasuryError.ROWS_OUT_OF_ORDER,
                        _(
                            "The rows go from the smallest field up, each from more paid "
                            "entrants than the row above (%(above)s)."
                        )
                        % {"above": previous},
                        f"rows.{i}.min_entrants",
                        i,
                        "min_entrants",
                    )
                )
            previous = start if previous is None else max(previous, start)
        if row is not None:
            found.append(row)
    if problems:
        return PayoutTable(), problems
    try:
        return PayoutTable(tuple(found)), []
    except BooksError as exc:  # checked above already; kept so a books rule never 500s
        return PayoutTable(), [TableProblem(TreasuryError.BAD_PAYOUT_TABLE, str(exc), "rows")]


def stored_percents(row: PayoutRow) -> list[str]:
    """A row's percentages as they are stored: decimal text ("33.33"), exact in JSON."""
    return [_percent_text(p) for p in row.percents]


def rows_data(table: PayoutTable) -> list[dict[str, Any]]:
    """A table's rows as plain values: ``[{"min_entrants": 1, "percents": ["100"]}, ...]``."""
    return [{"min_entrants": r.min_entrants, "percents": stored_percents(r)} for r in table.rows]
