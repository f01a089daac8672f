"""The archive's format: its name and version, the limits an archive is read within, and the
lists of fields the export writes and the import reads back (one list for both sides, so they
cannot drift apart). Documented in ``docs/archive-schema.md``."""

from __future__ import annotations

from django.conf import settings

SCHEMA = "pegboard.event-archive"
VERSION = 1
MAX_ARCHIVE_BYTES = settings.ARCHIVE_MAX_BYTES  # the page, the command and the middleware
MAX_PLAYERS = 50_000  # an archive larger than any event a club runs is refused, not read
BATCH = 2_000
SMALL = 32_767  # the largest value of a small-integer column

FORMAT_FIELDS = (
    "code",
    "name",
    "win",
    "skunk",
    "double_skunk",
    "triple_skunk",
    "triple_skunk_wins_match",
    "forfeit_points",
    "forfeit_spread",
    "bye_points",
    "bye_spread",
)
EVENT_FIELDS = (
    "name",
    "date",
    "game",
    "kind",
    "games_planned",
    "target",
    "muggins",
    "pairing",
    "meetings_per_opponent",
    "status",
    "seed",
    "standings_published",
    "confirmation",
    "entrants",
    "language",
    "seed_by_rating",
    "qualifiers",
    "tiebreakers",
    "table_size",
    "min_table_size",
    "points_first",
    "points_second",
    "points_third",
    "registration_open",
    "cap",
    "door_closed",
)
MATCH_FIELDS = (
    "code",
    "position",
    "section",
    "round",
    "number",
    "best_of",
    "seed_a",
    "seed_b",
    "empty_a",
    "empty_b",
    "wins_a",
    "wins_b",
    "decided",
    "walkover",
    "winner_to",
    "loser_to",
)
STANDING_FIELDS = (
    "rank",
    "tied",
    "separated_by",
    "game_points",
    "games_played",
    "games_won",
    "games_lost",
    "spread",
    "skunks_won",
    "skunks_suffered",
    "byes",
    "chips",
    "sessions_won",
    "best_session",
)
