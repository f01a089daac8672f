"""League pages: the TD's (a club's leagues, one league's teams and fixtures, a match's legs
by keyboard) and the public ones (the league table with its fixtures, a match's legs).

A refused post shows the page again with the error beside its field (HTTP 400); one that
succeeds redirects.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import selectors as tournament_selectors

from . import selectors
from .export import export_league
from .forms import FixturesForm, LeagueForm, LegForm, TeamForm
from .models import League, LeagueMatch, LeagueTeam


@login_required
def td_leagues(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's leagues; a new league (POST)."""
    club = tournament_selectors.directed_club(request.user, club_id)
    form = LeagueForm(request.POST or None)
    if request.method == "POST":
        league = form.save(club, user=request.user)
        if league is not None:
            messages.success(request, _("League %(name)s created.") % {"name": league.name})
            return redirect("td-league", league_id=league.pk)
    context = {"club": club, "leagues": selectors.club_leagues(club), "form": form}
    status = 400 if form.errors else 200
    return render(request, "leagues/td_leagues.html", context, status=status)


def _league_page(request, league: League, *, team_form=None, fixtures_form=None, status=200):
    matches = list(selectors.league_matches(league))
    context = {
        "league": league,
        "club": league.club,
        "teams": selectors.league_teams(league),
        "team_form": team_form or TeamForm(league=league),
        "fixtures_form": fixtures_form or FixturesForm(),
        "fixtures": [(match, selectors.match_result(match)) for match in matches],
        "table": selectors.league_table(league),
    }
    return render(request, "leagues/td_league.html", context, status=status)


@login_required
def td_league(request: HttpRequest, league_id: int) -> HttpResponse:
    """One league: its teams (a new team, POST), its fixtures and its table."""
    league = selectors.directed_league(request.user, league_id)
    if request.method != "POST":
        return _league_page(request, league)
    form = TeamForm(request.POST, league=league)
    team = form.save(user=request.user)
    if team is None:
        return _league_page(request, league, team_form=form, status=400)
    messages.success(request, _("Team %(name)s saved.") % {"name": team.name})
    return redirect("td-league", league_id=league.pk)


@login_required
def td_league_team(request: HttpRequest, league_id: int, team_id: int) -> HttpResponse:
    """Change a team: its name, its players (a new player joins mid-season)."""
    league = selectors.directed_league(request.user, league_id)
    team = get_object_or_404(LeagueTeam, league=league, pk=team_id)
    form = TeamForm(request.POST or None, league=league, team=team)
    if request.method == "POST" and form.save(user=request.user) is not None:
        messages.success(request, _("Team %(name)s saved.") % {"name": team.name})
        return redirect("td-league", league_id=league.pk)
    context = {"league": league, "club": league.club, "team": team, "form": form}
    status = 400 if form.errors else 200
    return render(request, "leagues/td_team.html", context, status=status)


@login_required
@require_POST
def td_league_fixtures(request: HttpRequest, league_id: int) -> HttpResponse:
    """Draw the league's fixtures as a round robin (again, while no leg is played)."""
    league = selectors.directed_league(request.user, league_id)
    form = FixturesForm(request.POST)
    matches = form.save(league, user=request.user)
    if matches is None:
        return _league_page(request, league, fixtures_form=form, status=400)
    messages.success(request, _("%(n)s fixtures drawn.") % {"n": len(matches)})
    return redirect("td-league", league_id=league.pk)


def _match_context(league: League, match: LeagueMatch) -> dict:
    match = selectors.league_matches(league).get(pk=match.pk)
    return {"league": league, "match": match, "result": selectors.match_result(match)}


@login_required
def td_league_match(request: HttpRequest, league_id: int, match_id: int) -> HttpResponse:
    """A match's legs, entered one at a time by keyboard; a leg again corrects it, with a
    reason. After leg N is saved the form offers the next leg not yet recorded (``?after=N``),
    so an Enter never lands on a saved leg by accident; once every leg is recorded none is
    chosen, and the TD picks the one to correct."""
    league = selectors.directed_league(request.user, league_id)
    match = selectors.league_match(league, match_id)
    context = _match_context(league, match)
    after = request.GET.get("after", "")
    next_leg = selectors.next_leg(context["result"], int(after) if after.isdigit() else None)
    form = LegForm(request.POST or None, match=match, initial={"number": next_leg})
    if request.method == "POST":
        leg = form.save(user=request.user)
        if leg is not None:
            messages.success(request, _("Leg %(n)s recorded.") % {"n": leg.number})
            page = reverse("td-league-match", args=[league.pk, match.pk])
            return redirect(f"{page}?after={leg.number}")
    context["form"] = form
    context["all_recorded"] = next_leg is None
    status = 400 if form.errors else 200
    return render(request, "leagues/td_match.html", context, status=status)


@login_required
def td_league_export(request: HttpRequest, league_id: int) -> HttpResponse:
    """The whole league as JSON (teams, fixtures, legs, table): the league's archive."""
    league = selectors.directed_league(request.user, league_id)
    body = json.dumps(export_league(league), ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    name = slugify(league.name) or "league"
    response["Content-Disposition"] = f'attachment; filename="{name}-{league.season_start}.json"'
    return response


def leagues(request: HttpRequest) -> HttpResponse:
    """Every club's leagues, the latest season first."""
    rows = League.objects.select_related("club").order_by("-season_start", "club__name", "name")
    return render(request, "leagues/leagues.html", {"leagues": rows[:100]})


def league(request: HttpRequest, league_id: int) -> HttpResponse:
    """A league's table, its fixtures and results."""
    found = selectors.public_league(league_id)
    matches = list(selectors.league_matches(found))
    context = {
        "league": found,
        "table": selectors.league_table(found),
        "fixtures": [(match, selectors.match_result(match)) for match in matches],
    }
    return render(request, "leagues/league.html", context)


def league_match(request: HttpRequest, league_id: int, match_id: int) -> HttpResponse:
    """A match's legs: who played, who won, the loser's score and the spread."""
    found = selectors.public_league(league_id)
    match = selectors.league_match(found, match_id)
    return render(request, "leagues/match.html", _match_context(found, match))
