"""Reads for Stoppa's sessions and tables (re-exported by :mod:`tournaments.selectors`)."""

from __future__ import annotations

from django.db.models import F, Prefetch, QuerySet

from tournaments.models import (
    Event,
    Round,
    StoppaSeat,
    StoppaTable,
)


def stoppa_tables(round_: Round) -> QuerySet[StoppaTable]:
    """A session's Stoppa tables with their seats and players, in table order (sitting out
    last)."""
    seats = StoppaSeat.objects.select_related("entry__player").order_by("position")
    return round_.stoppa_tables.prefetch_related(Prefetch("seats", queryset=seats)).order_by(
        F("number").asc(nulls_last=True)
    )


def stoppa_sessions(event: Event, *, released_only: bool = False) -> QuerySet[Round]:
    """Every session of a Stoppa event with its tables, seats, players and nets prefetched.

    ``released_only`` leaves out a draft (what the public sees).
    """
    seats = StoppaSeat.objects.select_related("entry__player").order_by("position")
    tables = StoppaTable.objects.prefetch_related(Prefetch("seats", queryset=seats)).order_by(
        F("number").asc(nulls_last=True)
    )
    rounds = event.rounds.order_by("number")
    if released_only:
        rounds = rounds.filter(status=Round.Status.RELEASED)
    return rounds.prefetch_related(Prefetch("stoppa_tables", queryset=tables))


def stoppa_can_redraw(event: Event, round_: Round) -> bool:
    """Whether the TD may draw the session again: the latest one, no table with nets."""
    latest = event.rounds.order_by("-number").first()
    return (
        latest is not None
        and latest.pk == round_.pk
        and event.status != Event.Status.FINISHED
        and not round_.stoppa_tables.filter(entered_at__isnull=False).exists()
    )


# The API's lists: each a queryset the cursor pagination orders by a unique key and cuts into
# pages, so a page costs the same few queries at 100 players or at 20,000.
