"""Writes for events, one chapter a module; every function is one transaction.

Each either changes everything it says or nothing, and raises
:class:`core.errors.ServiceError` with a named code for input the rules reject.

- ``entries``: entering, registering, importing, checking in and withdrawing players;
  forbidden pairs
- ``teams``: two partners entered as one team (a kind played by teams of two)
- ``draws``: drawing, redrawing and releasing games; swapping seats
- ``results``: the result of a two-player table (the one path every result takes)
- ``undo``: reinstating a withdrawn player, re-opening an event, undoing the last result
- ``playoffs``: the cut, the bracket's games, the consolation event
- ``events``: creating an event, its settings, format, ranking chain, publication and finish;
  match-point formats
- ``lifecycle``: whether an event counts for the season, cancelling it, deleting a draft
- ``clubs``: the club's name, directors and defaults for new events
- ``players``: renaming and merging the club's players
- ``registration``: online pre-registration, the cap and the waiting list
- ``door``: players' self check-in (their link, the door's QR) and the door's token
- ``templates``: a club's event templates for the weekly night

The public names stay importable from ``tournaments.services``.
"""

# The door (issue 28), as modules: services.door, services.registration, services.templates.
from . import door, registration, templates
from ._common import acting_user, actor_name, analyze, locked_event, shared_event_lock
from .clubs import (
    add_director,
    find_user,
    remove_director,
    set_club_chain,
    set_club_defaults,
    update_club,
)
from .draws import draw_next_game, next_round_number, redraw_game, release_game, swap_seats
from .entries import (
    add_forbidden_pair,
    check_in_all,
    enter_club_player,
    enter_player,
    forfeit_open_tables,
    import_roster,
    register_player,
    remove_forbidden_pair,
    set_checked_in,
    withdraw_entry,
)
from .events import (
    clone_event,
    copy_format,
    create_event,
    finish_event,
    set_event_format,
    set_ranking_chain,
    set_standings_published,
    settings_locks,
    update_event_settings,
)
from .lifecycle import cancel_event, delete_draft_event, set_counts_for_season
from .players import merge_players, rename_player
from .playoffs import (
    create_consolation,
    create_playoff,
    record_playoff_game,
    undo_playoff_game,
)
from .results import record_no_show, record_result
from .teams import register_team
from .undo import UndoneResult, reinstate_entry, reopen_event, undo_last_result

__all__ = [
    "UndoneResult",
    "acting_user",
    "actor_name",
    "add_director",
    "add_forbidden_pair",
    "analyze",
    "cancel_event",
    "check_in_all",
    "clone_event",
    "copy_format",
    "create_consolation",
    "create_event",
    "create_playoff",
    "delete_draft_event",
    "door",
    "draw_next_game",
    "enter_club_player",
    "enter_player",
    "find_user",
    "finish_event",
    "forfeit_open_tables",
    "import_roster",
    "locked_event",
    "merge_players",
    "next_round_number",
    "record_no_show",
    "record_playoff_game",
    "record_result",
    "redraw_game",
    "register_player",
    "register_team",
    "registration",
    "reinstate_entry",
    "release_game",
    "remove_director",
    "remove_forbidden_pair",
    "rename_player",
    "reopen_event",
    "set_checked_in",
    "set_club_chain",
    "set_club_defaults",
    "set_counts_for_season",
    "set_event_format",
    "set_ranking_chain",
    "set_standings_published",
    "settings_locks",
    "shared_event_lock",
    "swap_seats",
    "templates",
    "undo_last_result",
    "undo_playoff_game",
    "update_club",
    "update_event_settings",
    "withdraw_entry",
]
