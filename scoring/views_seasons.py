"""The TD's season pages: a club's seasons, a new season, a season's dates and Grass Roots
table. Every query is scoped by the clubs the user directs."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournaments.selectors import clubs_directed_by

from . import seasons
from .forms import GrassRootsForm, SeasonForm
from .models import Season


def _directed_season(user, season_id: int) -> Season:
    season = (
        Season.objects.select_related("club")
        .filter(pk=season_id, club__in=clubs_directed_by(user))
        .first()
    )
    if season is None:
        raise Http404("No such season.")
    return season


@login_required
def td_seasons(request: HttpRequest, club_id: int) -> HttpResponse:
    """A club's seasons (GET) and a new one (POST), September to May unless told otherwise."""
    club = clubs_directed_by(request.user).filter(pk=club_id).first()
    if club is None:
        raise Http404("No such club.")
    start, end = seasons.default_dates(seasons.timezone.localdate())
    form = SeasonForm(initial={"start": start, "end": end})
    if request.method == "POST":
        form = SeasonForm(request.POST)
        season = form.create(club)
        if season is not None:
            messages.success(
                request,
                _("Season %(name)s created with the ACC's Grass Roots table.")
                % {"name": season.name},
            )
            return redirect("td-season", season_id=season.pk)
    context = {
        "club": club,
        "seasons": Season.objects.filter(club=club).order_by("-start"),
        "form": form,
    }
    return render(request, "scoring/td_seasons.html", context, status=400 if form.errors else 200)


@login_required
def td_season(request: HttpRequest, season_id: int) -> HttpResponse:
    """A season's name and dates, and its Grass Roots table, for the club's TD."""
    season = _directed_season(request.user, season_id)
    form = SeasonForm(
        initial={
            "name": season.name,
            "start": season.start,
            "end": season.end,
            "night_games": season.night_games,
        }
    )
    table_form = GrassRootsForm(season=season)
    if request.method == "POST":
        if "acc_table" in request.POST:
            seasons.set_grass_roots(season, dict(seasons.ACC_GRASS_ROOTS))
            messages.success(request, _("The ACC's Grass Roots table is back."))
            return redirect("td-season", season_id=season.pk)
        if "rows" in request.POST:
            table_form = GrassRootsForm(request.POST, season=season)
            if table_form.save(season) is not None:
                messages.success(request, _("Grass Roots table saved; the season is recomputed."))
                return redirect("td-season", season_id=season.pk)
        else:
            form = SeasonForm(request.POST)
            if form.save(season) is not None:
                messages.success(request, _("Season saved; it is recomputed."))
                return redirect("td-season", season_id=season.pk)
    context = {
        "season": season,
        "form": form,
        "table_form": table_form,
        "events": seasons.season_events(season).order_by("date"),
    }
    status = 400 if form.errors or table_form.errors else 200
    return render(request, "scoring/td_season.html", context, status=status)
