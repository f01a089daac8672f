"""Pairing generators: pure Python, no ORM. Inputs are plain hashable player keys.

The bridge that loads entries and history from the database and writes tables back is
``tournaments.services``.
"""

from .qualifying import Seating, circle_round, draw_qualifying_game, pair_key

__all__ = ["Seating", "circle_round", "draw_qualifying_game", "pair_key"]
