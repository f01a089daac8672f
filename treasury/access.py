"""Who may open a club's money pages: its TDs (``Club.directors``, everything) and its
treasurers (``ClubStaff`` with ``ClubRole.TREASURER``: the money pages and the treasury API,
never the TD's pairing and results pages, which keep asking ``tournaments.selectors``).

Another club's money answers 404 as the TD pages do: never a hint that it exists.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.http import Http404

from tournaments import selectors as tournament_selectors
from tournaments.models import Club, Event
from tournaments.selectors import UserLike

from .models import ClubRole


def money_clubs(user: UserLike) -> QuerySet[Club]:
    """The clubs whose books ``user`` may keep: those they direct, and those they are the
    treasurer of (all of them for a superuser)."""
    if not isinstance(user, User) or not user.is_authenticated:
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(
        Q(directors=user) | Q(staff__user=user, staff__role=ClubRole.TREASURER)
    ).distinct()


def money_club(user: UserLike, club_id: int) -> Club:
    """The club if ``user`` may keep its books; 404 otherwise."""
    club = money_clubs(user).filter(pk=club_id).first()
    if club is None:
        raise Http404("No such club.")
    return club


def money_event(user: UserLike, event_id: int) -> Event:
    """The event if ``user`` may keep its club's books; 404 otherwise."""
    event = (
        Event.objects.filter(club__in=money_clubs(user), pk=event_id)
        .select_related("club", "match_point_format")
        .first()
    )
    if event is None:
        raise Http404("No such event.")
    return event


def directs(user: UserLike, club: Club) -> bool:
    """Whether ``user`` is a TD of ``club`` (a treasurer is not: the TD pages stay closed)."""
    return tournament_selectors.clubs_directed_by(user).filter(pk=club.pk).exists()
