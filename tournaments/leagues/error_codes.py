"""Why a league request is refused: one stable code per rule, declared once."""

from __future__ import annotations

from core.errors import ErrorCode


class LeagueError(ErrorCode):
    """The rules of leagues, teams, fixtures and legs."""

    BAD_LEG_KINDS = "bad_leg_kinds"
    BAD_LEAGUE_POINTS = "bad_league_points"
    BAD_LEGS_PER_PLAYER = "bad_legs_per_player"
    BAD_SEASON = "bad_season"
    BAD_LEAGUE_TARGET = "bad_league_target"
    LEAGUE_NAME_TAKEN = "league_name_taken"
    TEAM_NAME_TAKEN = "team_name_taken"
    TEAM_EMPTY = "team_empty"
    NOT_CLUB_PLAYER = "not_club_player"
    PLAYER_IN_OTHER_TEAM = "player_in_other_team"
    TOO_FEW_TEAMS = "too_few_teams"
    FIXTURES_PLAYED = "fixtures_played"
    NO_SUCH_LEG = "no_such_leg"
    WRONG_SIDE_SIZE = "wrong_side_size"
    NOT_IN_TEAM = "not_in_team"
    PLAYER_TWICE = "player_twice"
    PLAYER_LEG_LIMIT = "player_leg_limit"
    BAD_WINNER = "bad_winner"
    BAD_LOSER_SCORE = "bad_loser_score"
    TEAM_HAS_LEGS = "team_has_legs"
    MATCH_GONE = "match_gone"
    REASON_REQUIRED = "reason_required"  # a recorded leg changes only with a reason
