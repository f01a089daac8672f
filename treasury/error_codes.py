"""The money desk's error codes, declared once (Saleor's error_codes.py)."""

from __future__ import annotations

from core.errors import ErrorCode


class TreasuryError(ErrorCode):
    """Why the money desk refused a request: one stable code per rule."""

    BAD_COIN = "bad_coin"
    BAD_COUNT = "bad_count"
    BAD_CURRENCY = "bad_currency"
    BAD_MONEY = "bad_money"
    BAD_PAYMENT_STATUS = "bad_payment_status"
    BAD_POOL_WINNERS = "bad_pool_winners"
    BAD_STAKE = "bad_stake"
    BAD_UNPAID_RULE = "bad_unpaid_rule"
    BOOKS_REFUSED = "books_refused"
    DECISION_NEEDED = "decision_needed"
    NIGHT_CLOSED = "night_closed"
    NIGHT_NOT_CLOSED = "night_not_closed"
    NOT_LATEST_NIGHT = "not_latest_night"
    OWING_NOT_CONFIRMED = "owing_not_confirmed"
    PAID_NOTHING = "paid_nothing"
    REASON_NEEDED = "reason_needed"
    TD_ONLY = "td_only"
    WINNER_NOT_STAKED = "winner_not_staked"
    UNKNOWN_ENTRY = "unknown_entry"
    UNKNOWN_POOL = "unknown_pool"
    UNKNOWN_ROLE = "unknown_role"
    UNKNOWN_USER = "unknown_user"
