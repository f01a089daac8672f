"""Club rating pages: the club's rating list (public) and the TD's recompute from scratch."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.models import Club
from tournaments.selectors import clubs_directed_by

from . import ratings
from .models import RatingState


@require_GET
def club_ratings(request: HttpRequest, club_id: int) -> HttpResponse:
    """``/clubs/<id>/ratings/``: every rated player of the club, surest-best first."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise Http404("No such club.")
    context = {
        "club": club,
        "lines": ratings.club_ranking(club.pk),
        "state": RatingState.objects.filter(club=club).first(),
        "provisional_games": ratings.PROVISIONAL_GAMES,
        "provisional_sigma": ratings.PROVISIONAL_SIGMA,
        "can_recompute": clubs_directed_by(request.user).filter(pk=club.pk).exists(),
    }
    return render(request, "scoring/club_ratings.html", context)


@login_required
@require_POST
def club_ratings_recompute(request: HttpRequest, club_id: int) -> HttpResponse:
    """The TD's button: rate every game of the club again from scratch (Celery)."""
    from .tasks import recompute_ratings

    club = clubs_directed_by(request.user).filter(pk=club_id).first()
    if club is None:
        raise Http404("No such club.")
    recompute_ratings.delay(club.pk)
    messages.info(request, _("The club's ratings are being recomputed from scratch."))
    return redirect(reverse("club-ratings", args=[club.pk]))
