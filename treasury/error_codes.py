"""The money desk's error codes, declared once (Saleor's error_codes.py)."""

from __future__ import annotations

from core.errors import ErrorCode


class TreasuryError(ErrorCode):
    """Why the money desk refused a request: one stable code per rule."""

    BAD_MONEY = "bad_money"
    BAD_PAYMENT_STATUS = "bad_payment_status"
    BAD_POOL_WINNERS = "bad_pool_winners"
    BOOKS_REFUSED = "books_refused"
    NIGHT_CLOSED = "night_closed"
    NIGHT_NOT_CLOSED = "night_not_closed"
    NOT_LATEST_NIGHT = "not_latest_night"
    UNKNOWN_ENTRY = "unknown_entry"
    UNKNOWN_POOL = "unknown_pool"
    UNKNOWN_ROLE = "unknown_role"
    UNKNOWN_USER = "unknown_user"
