"""The books core's error codes, declared once, and the one error it raises.

:class:`BooksError` is a ``ValueError`` with a stable ``code``; the Django app that will sit on
this core turns it into a ``ServiceError`` (a 400 with the same code, a form error, a
``CommandError``), never a 500.
"""

from __future__ import annotations

from enum import StrEnum


class BooksErrorCode(StrEnum):
    """Why a calculation of the books was refused: one stable code per rule."""

    BAD_AMOUNT = "bad_amount"
    BAD_COIN = "bad_coin"
    BAD_FEE = "bad_fee"
    BAD_FIELD = "bad_field"
    BAD_PLACES = "bad_places"
    BAD_POOL = "bad_pool"
    BAD_TABLE = "bad_table"
    BAD_WINNERS = "bad_winners"
    HELD_BACK_EXCEEDS_TAKINGS = "held_back_exceeds_takings"
    LEDGER_UNBALANCED = "ledger_unbalanced"
    NO_MRP_TABLE = "no_mrp_table"
    NO_MRP_RULES = "no_mrp_rules"
    NO_TABLE_ROW = "no_table_row"


class BooksError(ValueError):
    """A calculation the rules do not allow; ``code`` says which rule, the message says why."""

    def __init__(self, code: BooksErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code

    def __reduce__(self) -> tuple[type[BooksError], tuple[BooksErrorCode, str]]:
        # Keep code and message through pickling (Celery results).
        return (type(self), (self.code, str(self)))
