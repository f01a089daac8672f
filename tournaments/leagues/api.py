"""The TD API of leagues: leagues, teams, fixtures, a match's legs, and the table.

Every route but the table is for a signed-in TD of the league's club (401 when not signed
in, 404 for another club's league, as the pages). A refused write is HTTP 400 with the
service's message and code on its field (``wrong_side_size``, ``not_in_team``,
``player_leg_limit``, ``bad_loser_score``, ...) and nothing is written.
"""

from __future__ import annotations

from django.db import models
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.drf import TextField
from tournaments import selectors as tournament_selectors
from tournaments.api_td.base import TD_ERRORS, TDView
from tournaments.limits import MAX_ID, MAX_NUMBER, MAX_SCORE

from . import selectors, services
from .models import League, LeagueMatch, LegKind, Side


class LeagueSerializer(serializers.ModelSerializer):
    players_needed = serializers.IntegerField(
        read_only=True,
        help_text="Players a team needs to play every leg of a match (a team with fewer "
        "cannot complete one).",
    )
    leg_kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=LegKind.choices),
        max_length=100,
        help_text="A match's legs in playing order.",
    )

    class Meta:
        model = League
        fields = [
            "id",
            "name",
            "season_start",
            "season_end",
            "leg_kinds",
            "win_on",
            "points_win",
            "points_draw",
            "points_loss",
            "target",
            "legs_per_player",
            "players_needed",
        ]
        read_only_fields = ["id", "players_needed"]
        extra_kwargs: dict[str, dict] = {"name": {"validators": []}}

    # Text is text: a JSON number for a league's name was stored as "7" or "inf".
    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.CharField: TextField,
    }


class PlayerRef(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class TeamSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(max_length=80)
    players = PlayerRef(many=True, read_only=True)


class TeamInput(serializers.Serializer):
    name = TextField(max_length=80)
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        max_length=100,
        help_text="Player ids of the club's players.",
    )


class FixturesInput(serializers.Serializer):
    first_date = serializers.DateField(required=False, allow_null=True, default=None)
    days_between = serializers.IntegerField(min_value=1, max_value=60, default=7)
    twice = serializers.BooleanField(default=False, help_text="Every pair meets home and away.")


class LegSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=LegKind.choices)
    played = serializers.BooleanField()
    home = serializers.ListField(child=serializers.CharField(), help_text="Players' names.")
    away = serializers.ListField(child=serializers.CharField(), help_text="Players' names.")
    winner = serializers.ChoiceField(choices=Side.choices, allow_null=True)
    loser_score = serializers.IntegerField(allow_null=True)
    spread = serializers.IntegerField(allow_null=True)
    skunk_level = serializers.IntegerField(allow_null=True)


class MatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    date = serializers.DateField(allow_null=True)
    home = serializers.CharField()
    away = serializers.CharField()
    status = serializers.ChoiceField(choices=LeagueMatch.Status.choices)
    home_legs = serializers.IntegerField()
    away_legs = serializers.IntegerField()
    home_points = serializers.IntegerField()
    away_points = serializers.IntegerField()
    winner = serializers.CharField(
        allow_null=True, help_text='"home", "away", "" for a draw; null until complete.'
    )
    legs = LegSerializer(many=True, required=False)


class LegInput(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER, help_text="Leg number.")
    home_players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        max_length=2,
        help_text="Player ids of the home side: 1 for singles, 2 for doubles.",
    )
    away_players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), max_length=2
    )
    winner = serializers.ChoiceField(choices=Side.choices)
    loser_score = serializers.IntegerField(
        min_value=-MAX_SCORE, max_value=MAX_SCORE, help_text="The winner scored the target."
    )
    reason = serializers.CharField(
        max_length=300,
        required=False,
        allow_blank=True,
        default="",
        help_text="Why a recorded leg is changed: needed to change it (code reason_required), "
        "kept in the league's audit log.",
    )


class TableRowSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    team = serializers.CharField(source="team.name")
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    legs_for = serializers.IntegerField()
    legs_against = serializers.IntegerField()
    points = serializers.IntegerField()
    spread = serializers.IntegerField()


def team_data(team) -> dict:
    return {
        "id": team.pk,
        "name": team.name,
        "players": [{"id": p.pk, "name": p.name} for p in team.players.all()],
    }


def match_data(match: LeagueMatch, *, legs: bool = False) -> dict:
    result = selectors.match_result(match)
    data: dict[str, object] = {
        "id": match.pk,
        "round": match.round,
        "date": match.date,
        "home": match.home.name,
        "away": match.away.name,
        "status": match.status,
        "home_legs": result.home_legs,
        "away_legs": result.away_legs,
        "home_points": result.home_points,
        "away_points": result.away_points,
        "winner": None if result.winner is None else str(result.winner),
    }
    if legs:
        data["legs"] = [
            {
                "number": row.number,
                "kind": row.kind,
                "played": row.leg is not None,
                "home": [p.name for p in row.leg.players(Side.HOME)] if row.leg else [],
                "away": [p.name for p in row.leg.players(Side.AWAY)] if row.leg else [],
                "winner": row.leg.winner if row.leg else None,
                "loser_score": row.leg.loser_score if row.leg else None,
                "spread": row.leg.spread if row.leg else None,
                "skunk_level": row.leg.skunk_level if row.leg else None,
            }
            for row in result.rows
        ]
    return MatchSerializer(data).data


class _LeagueView(TDView):
    def league(self) -> League:
        return selectors.directed_league(self.request.user, self.kwargs["league_id"])

    def match(self, league: League) -> LeagueMatch:
        selectors.league_match(league, self.kwargs["match_id"])  # 404 if not the league's
        return selectors.league_matches(league).get(pk=self.kwargs["match_id"])


class ClubLeagues(TDView):
    """The club's leagues, and a new one."""

    @extend_schema(
        summary="List the club's leagues (TD)",
        description=TD_ERRORS,
        responses={200: LeagueSerializer(many=True)},
    )
    def get(self, request: Request, club_id: int) -> Response:
        club = tournament_selectors.directed_club(request.user, club_id)
        return Response(LeagueSerializer(selectors.club_leagues(club)[:200], many=True).data)

    @extend_schema(
        summary="Create a league in the club",
        description="A league for one season and its match format. " + TD_ERRORS,
        request=LeagueSerializer,
        responses={201: LeagueSerializer},
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = tournament_selectors.directed_club(request.user, club_id)
        values = self.valid(LeagueSerializer, request.data)
        league = services.create_league(club, user=request.user, **values)
        return Response(LeagueSerializer(league).data, status=status.HTTP_201_CREATED)


class LeagueDetail(_LeagueView):
    @extend_schema(
        summary="Read a league (TD)", description=TD_ERRORS, responses={200: LeagueSerializer}
    )
    def get(self, request: Request, league_id: int) -> Response:
        return Response(LeagueSerializer(self.league()).data)


class LeagueTeams(_LeagueView):
    @extend_schema(
        summary="List a league's teams (TD)",
        description=TD_ERRORS,
        responses={200: TeamSerializer(many=True)},
    )
    def get(self, request: Request, league_id: int) -> Response:
        teams = selectors.league_teams(self.league())
        return Response(TeamSerializer([team_data(t) for t in teams], many=True).data)

    @extend_schema(
        summary="Add a team to a league",
        description="A name and the club's players in it; a player is in one team of a "
        "league. " + TD_ERRORS,
        request=TeamInput,
        responses={201: TeamSerializer},
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = self.league()
        values = self.valid(TeamInput, request.data)
        team = services.save_team(
            league, name=values["name"], player_ids=values["players"], user=request.user
        )
        team = selectors.league_teams(league).get(pk=team.pk)
        return Response(TeamSerializer(team_data(team)).data, status=status.HTTP_201_CREATED)


class LeagueMatches(_LeagueView):
    @extend_schema(
        summary="List a league's matches (TD)",
        description="Fixtures by round, with each match's score so far. " + TD_ERRORS,
        responses={200: MatchSerializer(many=True)},
    )
    def get(self, request: Request, league_id: int) -> Response:
        return Response([match_data(m) for m in selectors.league_matches(self.league())])


class LeagueFixtures(_LeagueView):
    @extend_schema(
        summary="Draw a league's fixtures (round robin)",
        description="Replaces the fixtures; refused (fixtures_played) once a leg is "
        "recorded. " + TD_ERRORS,
        request=FixturesInput,
        responses={201: MatchSerializer(many=True)},
    )
    def post(self, request: Request, league_id: int) -> Response:
        league = self.league()
        services.schedule_fixtures(
            league, user=request.user, **self.valid(FixturesInput, request.data)
        )
        rows = [match_data(m) for m in selectors.league_matches(league)]
        return Response(rows, status=status.HTTP_201_CREATED)


class LeagueMatchDetail(_LeagueView):
    @extend_schema(
        summary="Read a league match and its legs (TD)",
        description=TD_ERRORS,
        responses={200: MatchSerializer},
    )
    def get(self, request: Request, league_id: int, match_id: int) -> Response:
        return Response(match_data(self.match(self.league()), legs=True))


class LeagueLegs(_LeagueView):
    @extend_schema(
        summary="Record (or correct) a leg of a league match",
        description="Who played each side, the winning side and the loser's score. " + TD_ERRORS,
        request=LegInput,
        responses={201: MatchSerializer},
    )
    def post(self, request: Request, league_id: int, match_id: int) -> Response:
        league = self.league()
        match = self.match(league)
        services.record_leg(match, user=request.user, **self.valid(LegInput, request.data))
        return Response(match_data(self.match(league), legs=True), status=status.HTTP_201_CREATED)


class LeagueTable(_LeagueView):
    """The league table, public like the league's page."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="Read a league's table",
        description="Ordered by points, legs difference, spread, then name; complete "
        "matches only. 404: no such league.",
        responses={200: TableRowSerializer(many=True)},
    )
    def get(self, request: Request, league_id: int) -> Response:
        league = selectors.public_league(league_id)
        return Response(TableRowSerializer(selectors.league_table(league), many=True).data)
