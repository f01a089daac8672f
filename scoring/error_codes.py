"""The scoring app's error codes, declared once (Saleor's error_codes.py): seasons and the
grass-roots tables.
"""

from __future__ import annotations

from core.errors import ErrorCode


class ScoringError(ErrorCode):
    """Why the scoring app refused a request: one stable code per rule."""

    BAD_GRASS_ROOTS_ROW = "bad_grass_roots_row"
    BAD_NIGHT_GAMES = "bad_night_games"
    EVENT_NOT_FINISHED = "event_not_finished"
    MRP_REFUSED = "mrp_refused"
    NO_STANDINGS = "no_standings"
    NOT_AN_MRP_EVENT = "not_an_mrp_event"
    SEASON_ENDS_BEFORE_START = "season_ends_before_start"
    SEASON_EXISTS = "season_exists"
    SEASON_NAME_MISSING = "season_name_missing"
