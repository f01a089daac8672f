"""Season pages: the public season tables, and the TD's recompute button."""

from __future__ import annotations

import time

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.selectors import clubs_directed_by

from .models import Season
from .seasons import season_events


def _pending(request: HttpRequest, season: Season) -> float | None:
    """The time a recompute was asked for, while the season has not been computed since."""
    try:
        since = float(request.GET.get("since", ""))
    except ValueError:
        return None
    done = season.computed_at is not None and season.computed_at.timestamp() >= since
    return None if done else since


@require_GET
def season_list(request: HttpRequest) -> HttpResponse:
    """Every club's seasons, newest first."""
    seasons = Season.objects.select_related("club").order_by("club__name", "-start")
    return render(request, "scoring/season_list.html", {"seasons": seasons})


@require_GET
def season_detail(request: HttpRequest, season_id: int) -> HttpResponse:
    """A season table: Grass Roots points, master points, nights, special hands."""
    season = Season.objects.select_related("club").filter(pk=season_id).first()
    if season is None:
        raise Http404("No such season.")
    ledgers = season.ledgers.select_related("player").order_by("rank", "player__name")
    context = {
        "season": season,
        "ledgers": ledgers,
        "events": season_events(season).order_by("date"),
        "grass_roots": season.grass_roots.all(),
        "can_recompute": clubs_directed_by(request.user).filter(pk=season.club_id).exists(),
        "pending": _pending(request, season),
    }
    if request.htmx:
        return render(request, "scoring/season_detail.html#season-table", context)
    return render(request, "scoring/season_detail.html", context)


@login_required
@require_POST
def season_recompute(request: HttpRequest, season_id: int) -> HttpResponse:
    """Queue a rebuild of the season's ledgers (Celery); the page follows it."""
    from .tasks import recompute_season

    season = Season.objects.filter(pk=season_id, club__in=clubs_directed_by(request.user)).first()
    if season is None:
        raise Http404("No such season.")
    asked = time.time()
    recompute_season.delay(season.pk)
    messages.info(request, _("The season table is being recomputed."))
    return redirect(f"{reverse('season', args=[season.pk])}?since={asked:.3f}")


@require_GET
def player_ledgers(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's season lines and lifetime totals across every season."""
    from tournaments.models import Player

    from .seasons import lifetime_totals

    player = Player.objects.select_related("home_club").filter(pk=player_id).first()
    if player is None:
        raise Http404("No such player.")
    lines = player.ledgers.select_related("season__club").order_by("-season__start")
    context = {"player": player, "lines": lines, "lifetime": lifetime_totals(player.pk)}
    return render(request, "scoring/player.html", context)
