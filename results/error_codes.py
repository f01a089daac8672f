"""Every code a ServiceError of the results app carries: what the pages, the API and its
clients tell apart. The values are the strings the API has always answered with."""

from __future__ import annotations

from core.errors import ErrorCode


class ResultsError(ErrorCode):
    """The error codes of the results app (reports, the desk, sheets, paper cards, archives)."""

    ALREADY_CONFIRMED = "already_confirmed"
    ALREADY_RECORDED = "already_recorded"
    ALREADY_SCOREKEEPER = "already_scorekeeper"
    ARCHIVE_TOO_LARGE = "archive_too_large"
    ARCHIVE_VERSION = "archive_version"
    BAD_ARCHIVE = "bad_archive"
    BAD_CSV = "bad_csv"
    BAD_RECORD = "bad_record"
    BYE_TABLE = "bye_table"
    CONFIRMATION_UNNAMED = "confirmation_unnamed"
    DUPLICATE_ENTRY = "duplicate_entry"
    IN_DISPUTE = "in_dispute"
    NOT_DISPUTED = "not_disputed"
    NOT_SCOREKEEPER = "not_scorekeeper"
    NOT_YOUR_GAME = "not_your_game"
    NOT_YOUR_TABLE = "not_your_table"
    NOTHING_TO_CHECK = "nothing_to_check"
    NOTHING_TO_CONFIRM = "nothing_to_confirm"
    NOTHING_TO_CORRECT = "nothing_to_correct"
    REASON_REQUIRED = "reason_required"
    REPORT_CHANGED = "report_changed"
    SHEET_CHANGED = "sheet_changed"
    THROTTLED = "throttled"
    UNKNOWN_GAME = "unknown_game"
    UNKNOWN_KEY = "unknown_key"
    UNKNOWN_SUBMISSION = "unknown_submission"
    UNKNOWN_TABLE = "unknown_table"
    WINNER_NOT_AT_TABLE = "winner_not_at_table"
    WINNER_REQUIRED = "winner_required"
