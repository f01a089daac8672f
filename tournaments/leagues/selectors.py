"""The reads of leagues: a club's leagues, a match's result and the league table.

Every read is scoped by the club (the tenant): a TD reaches a league through the clubs they
direct (404 otherwise), the public through the league's id.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch, QuerySet
from django.http import Http404

from tournaments import selectors as tournament_selectors
from tournaments.models import Club, Player
from tournaments.services._common import UserLike

from .models import League, LeagueMatch, LeagueTeam, Leg, LegKind, Side


def club_leagues(club: Club) -> QuerySet[League]:
    """The club's leagues, the latest season first."""
    return League.objects.filter(club=club).order_by("-season_start", "name")


def directed_league(user: UserLike, league_id: int) -> League:
    """The league if ``user`` directs its club; 404 otherwise (no hint that it exists)."""
    if user is None:
        raise Http404("No such league.")
    clubs = tournament_selectors.clubs_directed_by(user)
    league = League.objects.filter(pk=league_id, club__in=clubs).select_related("club").first()
    if league is None:
        raise Http404("No such league.")
    return league


def public_league(league_id: int) -> League:
    """Any league, for its public table (leagues are public, like published standings)."""
    league = League.objects.filter(pk=league_id).select_related("club").first()
    if league is None:
        raise Http404("No such league.")
    return league


def league_match(league: League, match_id: int) -> LeagueMatch:
    """One match of ``league``, or 404."""
    match = (
        LeagueMatch.objects.filter(league=league, pk=match_id)
        .select_related("league", "home", "away")
        .first()
    )
    if match is None:
        raise Http404("No such match.")
    return match


def league_teams(league: League) -> QuerySet[LeagueTeam]:
    """The league's teams by name, with their players by name."""
    return LeagueTeam.objects.filter(league=league).prefetch_related(
        Prefetch("players", queryset=Player.objects.order_by("name", "pk"))
    )


def _legs() -> QuerySet[Leg]:
    return Leg.objects.select_related("home_first", "home_second", "away_first", "away_second")


def league_matches(league: League) -> QuerySet[LeagueMatch]:
    """The league's fixtures by round, with their teams and legs."""
    return (
        LeagueMatch.objects.filter(league=league)
        .select_related("home", "away", "league")
        .prefetch_related(Prefetch("legs", queryset=_legs().order_by("number")))
        .order_by("round", "pk")
    )


@dataclass
class LegRow:
    """One leg of a match as the pages show it: played (``leg``) or still to play."""

    number: int
    kind: LegKind
    leg: Leg | None


@dataclass
class MatchResult:
    """A match's score so far: legs and game points of each side, and the home side's
    spread (the sum of the legs' spreads, + when home won the leg)."""

    legs_total: int
    legs_played: int = 0
    home_legs: int = 0
    away_legs: int = 0
    home_points: int = 0
    away_points: int = 0
    home_spread: int = 0
    rows: list[LegRow] = field(default_factory=list)
    win_on: str = League.WinOn.LEGS
    home_name: str = ""
    away_name: str = ""

    @property
    def winner_name(self) -> str:
        """The winning team's name; "" for a draw or a match not complete."""
        if self.winner == Side.HOME:
            return self.home_name
        return self.away_name if self.winner == Side.AWAY else ""

    @property
    def complete(self) -> bool:
        return self.legs_played == self.legs_total

    @property
    def away_spread(self) -> int:
        return -self.home_spread

    @property
    def winner(self) -> str | None:
        """``home``, ``away`` or ``""`` (a draw) once the match is complete; None before."""
        if not self.complete:
            return None
        if self.win_on == League.WinOn.POINTS:
            home, away = self.home_points, self.away_points
        else:
            home, away = self.home_legs, self.away_legs
        if home == away:
            return ""
        return Side.HOME if home > away else Side.AWAY


def match_result(match: LeagueMatch) -> MatchResult:
    """The score of ``match`` from its recorded legs (use ``league_matches`` to prefetch)."""
    league = match.league
    legs = {leg.number: leg for leg in match.legs.all()}
    result = MatchResult(
        legs_total=len(league.leg_kinds),
        win_on=league.win_on,
        home_name=match.home.name,
        away_name=match.away.name,
    )
    for number, kind in enumerate(league.legs, start=1):
        leg = legs.get(number)
        result.rows.append(LegRow(number, kind, leg))
        if leg is None:
            continue
        result.legs_played += 1
        result.home_points += leg.score(Side.HOME, league.target)
        result.away_points += leg.score(Side.AWAY, league.target)
        if leg.winner == Side.HOME:
            result.home_legs += 1
            result.home_spread += leg.spread
        else:
            result.away_legs += 1
            result.home_spread -= leg.spread
    return result


def next_leg(result: MatchResult, after: int | None = None) -> int | None:
    """The leg the TD's form offers next: the first not yet recorded after leg ``after`` (the
    one just saved), else the first not yet recorded before it; None once every leg is."""
    open_legs = [row.number for row in result.rows if row.leg is None]
    if not open_legs:
        return None
    later = [n for n in open_legs if after is not None and n > after]
    return (later or open_legs)[0]


@dataclass
class TableRow:
    """One team's line in the league table."""

    team: LeagueTeam
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    legs_for: int = 0
    legs_against: int = 0
    points: int = 0
    spread: int = 0
    place: int = 0

    @property
    def legs_difference(self) -> int:
        return self.legs_for - self.legs_against


def league_table(league: League) -> list[TableRow]:
    """The league table from the complete matches: played, won, drawn, lost, legs for and
    against, match points and spread; ordered by points, then legs difference, then spread,
    then name. Teams level on all three share a place."""
    rows = {team.pk: TableRow(team) for team in LeagueTeam.objects.filter(league=league)}
    for match in league_matches(league).filter(status=LeagueMatch.Status.PLAYED):
        result = match_result(match)
        sides = (
            (rows[match.home_id], result.home_legs, result.away_legs, result.home_spread, "home"),
            (rows[match.away_id], result.away_legs, result.home_legs, result.away_spread, "away"),
        )
        for row, legs_for, legs_against, spread, side in sides:
            row.played += 1
            row.legs_for += legs_for
            row.legs_against += legs_against
            row.spread += spread
            if result.winner == "":
                row.drawn += 1
                row.points += league.points_draw
            elif result.winner == side:
                row.won += 1
                row.points += league.points_win
            else:
                row.lost += 1
                row.points += league.points_loss
    ordered = sorted(
        rows.values(),
        key=lambda r: (-r.points, -r.legs_difference, -r.spread, r.team.name.casefold()),
    )
    previous = None
    for index, row in enumerate(ordered, start=1):
        key = (row.points, row.legs_difference, row.spread)
        row.place = previous[1] if previous and previous[0] == key else index
        previous = (key, row.place)
    return ordered
