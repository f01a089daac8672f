"""Writes for events, one chapter a module; every function is one transaction.

Each either changes everything it says or nothing, and raises
:class:`pegboard.errors.ServiceError` with a named code for input the rules reject.

- ``entries``: entering, registering, checking in and withdrawing players; forbidden pairs
- ``draws``: drawing, redrawing and releasing games; swapping seats
- ``results``: the result of a two-player table (the one path every result takes)
- ``playoffs``: the cut, the bracket's games, the consolation event
- ``events``: the event's format, ranking chain, publication and finish; match-point formats
- ``stoppa``: Stoppa sessions' tables and chip nets

The public names stay importable from ``tournaments.services``.
"""

from ._common import acting_user, actor_name, analyze, locked_event, shared_event_lock
from .draws import draw_next_game, next_round_number, redraw_game, release_game, swap_seats
from .entries import (
    add_forbidden_pair,
    enter_player,
    register_player,
    remove_forbidden_pair,
    set_checked_in,
    withdraw_entry,
)
from .events import (
    copy_format,
    finish_event,
    set_event_format,
    set_ranking_chain,
    set_standings_published,
)
from .playoffs import (
    correct_playoff_game,
    create_consolation,
    create_playoff,
    record_playoff_game,
    undo_playoff_game,
)
from .results import record_no_show, record_result

__all__ = [
    "acting_user",
    "actor_name",
    "add_forbidden_pair",
    "analyze",
    "copy_format",
    "correct_playoff_game",
    "create_consolation",
    "create_playoff",
    "draw_next_game",
    "enter_player",
    "finish_event",
    "locked_event",
    "next_round_number",
    "record_no_show",
    "record_playoff_game",
    "record_result",
    "redraw_game",
    "register_player",
    "release_game",
    "remove_forbidden_pair",
    "set_checked_in",
    "set_event_format",
    "set_ranking_chain",
    "set_standings_published",
    "shared_event_lock",
    "swap_seats",
    "undo_playoff_game",
    "withdraw_entry",
]
