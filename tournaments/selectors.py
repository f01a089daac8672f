"""Reads for events, always scoped by club (the tenant) and event."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Prefetch, QuerySet
from django.http import Http404

from .models import Club, Entry, Event, Round, Table

UserLike = AbstractBaseUser | AnonymousUser


def public_events() -> QuerySet[Event]:
    """Events the public may see: every event past its draft."""
    return Event.objects.exclude(status=Event.Status.DRAFT).select_related(
        "club", "match_point_format"
    )


def clubs_directed_by(user: UserLike) -> QuerySet[Club]:
    """The clubs whose events ``user`` may run (all of them for a superuser)."""
    if not user.is_authenticated:
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(directors=user)


def events_directed_by(user: UserLike) -> QuerySet[Event]:
    """Events ``user`` may run, newest first."""
    return Event.objects.filter(club__in=clubs_directed_by(user)).select_related(
        "club", "match_point_format"
    )


def directed_event(user: UserLike, event_id: int) -> Event:
    """The event if ``user`` directs its club; 404 otherwise (never a hint that it exists)."""
    event = events_directed_by(user).filter(pk=event_id).first()
    if event is None:
        raise Http404("No such event.")
    return event


def public_event(event_id: int) -> Event:
    """A public event or 404."""
    event = public_events().filter(pk=event_id).first()
    if event is None:
        raise Http404("No such event.")
    return event


def is_director(user: UserLike, event: Event) -> bool:
    """Whether ``user`` may run ``event``."""
    return clubs_directed_by(user).filter(pk=event.club_id).exists()


def event_entries(event: Event) -> QuerySet[Entry]:
    """The entries of an event with their players, by name."""
    return event.entries.select_related("player").order_by("player__name")


def tables_with_results(round_: Round) -> QuerySet[Table]:
    """A game's tables with seats, players and results: one query for the entry page."""
    return round_.tables.select_related(
        "seat_a__player", "seat_b__player", "result__winner__player"
    ).order_by("number")


def event_round(event: Event, number: int) -> Round:
    """Game ``number`` of ``event`` or 404."""
    round_ = event.rounds.filter(number=number).first()
    if round_ is None:
        raise Http404("No such game.")
    return round_


def latest_round(event: Event) -> Round | None:
    """The most recently drawn game, if any."""
    return event.rounds.order_by("-number").first()


def rounds_with_tables(event: Event) -> QuerySet[Round]:
    """All games of an event, each with its tables, seats and results prefetched."""
    tables = Table.objects.select_related(
        "seat_a__player", "seat_b__player", "result__winner__player"
    ).order_by("number")
    return event.rounds.order_by("number").prefetch_related(Prefetch("tables", queryset=tables))


def can_redraw(event: Event, round_: Round, tables: list[Table]) -> bool:
    """Whether the TD may draw ``round_`` again: the latest game, with no result but byes."""
    latest = latest_round(event)
    return (
        latest is not None
        and latest.pk == round_.pk
        and event.status != Event.Status.FINISHED
        and not any(t.seat_b_id is not None and hasattr(t, "result") for t in tables)
    )
