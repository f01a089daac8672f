"""Bounds of what the API accepts, so out-of-range input is a 400, never a database error.

They only keep numbers inside what the database stores; within them the services say what
is wrong in the game's own words (a loser's score of 121, a player not at the table)."""

MAX_NUMBER = 32_767  # game, table and session numbers (PositiveSmallIntegerField)
MAX_ID = 2**31 - 1  # database ids (entries, submissions)
MAX_SCORE = 9_999  # beyond any score; the result service says why 121 or more is wrong
MAX_NET = 1_000_000  # chips one player wins or loses in a Stoppa session
