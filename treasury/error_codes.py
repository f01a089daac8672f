"""The money desk's error codes, declared once (Saleor's error_codes.py)."""

from __future__ import annotations

from core.errors import ErrorCode


class TreasuryError(ErrorCode):
    """Why the money desk refused a request: one stable code per rule."""

    BAD_COIN = "bad_coin"
    BAD_COUNT = "bad_count"
    BAD_CURRENCY = "bad_currency"
    BAD_ENTRANTS = "bad_entrants"
    BAD_MIN_ENTRANTS = "bad_min_entrants"
    BAD_MONEY = "bad_money"
    BAD_PAYMENT_STATUS = "bad_payment_status"
    BAD_PAYOUT_TABLE = "bad_payout_table"
    BAD_POOL_WINNERS = "bad_pool_winners"
    BAD_STAKE = "bad_stake"
    BAD_TREASURER = "bad_treasurer"
    BAD_UNPAID_RULE = "bad_unpaid_rule"
    BOOKS_REFUSED = "books_refused"
    DECISION_NEEDED = "decision_needed"
    NIGHT_CLOSED = "night_closed"
    NIGHT_NOT_CLOSED = "night_not_closed"
    NOT_LATEST_NIGHT = "not_latest_night"
    NO_PLACES = "no_places"
    OWING_NOT_CONFIRMED = "owing_not_confirmed"
    PAID_NOTHING = "paid_nothing"
    PAYOUT_TABLE_INVALID = "payout_table_invalid"
    PERCENTS_NOT_100 = "percents_not_100"
    PERCENTS_RISING = "percents_rising"
    PERCENT_NOT_A_NUMBER = "percent_not_a_number"
    PERCENT_NOT_POSITIVE = "percent_not_positive"
    REASON_NEEDED = "reason_needed"
    ROWS_OUT_OF_ORDER = "rows_out_of_order"
    ROW_PAYS_TOO_MANY = "row_pays_too_many"
    TD_ONLY = "td_only"
    UNKNOWN_ENTRY = "unknown_entry"
    UNKNOWN_POOL = "unknown_pool"
    UNKNOWN_ROLE = "unknown_role"
    UNKNOWN_USER = "unknown_user"
    WINNER_NOT_STAKED = "winner_not_staked"
