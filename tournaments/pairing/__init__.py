"""Pairing generators: pure Python, no ORM. Inputs are plain hashable player keys.

The bridge that loads entries and history from the database and writes tables back is
``tournaments.services``. A field that cannot be paired raises :class:`PairingError` (a
``ValueError`` with a stable ``code``); every compromise a generator makes is a
:class:`Compromise` with a plain-language note.
"""

from .errors import PairingError
from .playoff import (
    Bracket,
    Match,
    PlayoffPlan,
    build_bracket,
    build_playoff,
    cut,
    draw_playoff,
    final_places,
    plan_playoff,
    record_game,
    seed_order,
    withdraw,
)
from .qualifying import (
    Compromise,
    Seating,
    SeatSwap,
    check_seating,
    circle_round,
    draw_qualifying_game,
    forbidden_pairs,
    meetings,
    pair_key,
    swap_seats,
)
from .round_robin import (
    GroupRound,
    GroupSchedule,
    draw_group_round,
    group_round_robin,
    round_robin,
    table_sizes,
)
from .swiss import pair_swiss, swiss_weights

__all__ = [
    "Bracket",
    "Compromise",
    "GroupRound",
    "GroupSchedule",
    "Match",
    "PairingError",
    "PlayoffPlan",
    "SeatSwap",
    "Seating",
    "build_bracket",
    "build_playoff",
    "check_seating",
    "circle_round",
    "cut",
    "draw_group_round",
    "draw_playoff",
    "draw_qualifying_game",
    "final_places",
    "forbidden_pairs",
    "group_round_robin",
    "meetings",
    "pair_key",
    "pair_swiss",
    "plan_playoff",
    "record_game",
    "round_robin",
    "seed_order",
    "swap_seats",
    "swiss_weights",
    "table_sizes",
    "withdraw",
]
