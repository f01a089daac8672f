"""A league as one JSON-ready dict: its format, teams, fixtures with their legs, and table.

The results archive (``results/archive``) carries events; a league is not an event, so it
has this export of its own (players by name, never database ids of users).
"""

from __future__ import annotations

from typing import Any

from . import selectors
from .models import League, Side

FORMAT_VERSION = 1


def export_league(league: League) -> dict[str, Any]:
    """Everything the league is, by names: format, teams, fixtures, legs and the table."""
    matches = []
    for match in selectors.league_matches(league):
        result = selectors.match_result(match)
        matches.append(
            {
                "round": match.round,
                "date": match.date.isoformat() if match.date else None,
                "home": match.home.name,
                "away": match.away.name,
                "status": match.status,
                "legs_won": [result.home_legs, result.away_legs],
                "points": [result.home_points, result.away_points],
                "legs": [
                    {
                        "leg": leg.number,
                        "kind": leg.kind,
                        "home": [p.name for p in leg.players(Side.HOME)],
                        "away": [p.name for p in leg.players(Side.AWAY)],
                        "winner": leg.winner,
                        "loser_score": leg.loser_score,
                        "spread": leg.spread,
                        "skunk_level": leg.skunk_level,
                    }
                    for leg in match.legs.all()
                ],
            }
        )
    return {
        "format": "pegboard-league",
        "version": FORMAT_VERSION,
        "club": league.club.name,
        "league": {
            "name": league.name,
            "season_start": league.season_start.isoformat(),
            "season_end": league.season_end.isoformat(),
            "legs": list(league.leg_kinds),
            "win_on": league.win_on,
            "points": [league.points_win, league.points_draw, league.points_loss],
            "target": league.target,
            "legs_per_player": league.legs_per_player,
        },
        "teams": [
            {"name": team.name, "players": [p.name for p in team.players.all()]}
            for team in selectors.league_teams(league)
        ],
        "matches": matches,
        "table": [
            {
                "place": row.place,
                "team": row.team.name,
                "played": row.played,
                "won": row.won,
                "drawn": row.drawn,
                "lost": row.lost,
                "legs_for": row.legs_for,
                "legs_against": row.legs_against,
                "points": row.points,
                "spread": row.spread,
            }
            for row in selectors.league_table(league)
        ],
    }
