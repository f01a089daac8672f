"""Reads of the scoring app."""

from __future__ import annotations

from django.db.models import QuerySet

from .models import Standing


def standings_for_event(event_id: int) -> QuerySet[Standing]:
    """The stored standings of an event, best first, with the player on each row."""
    return (
        Standing.objects.filter(event_id=event_id)
        .select_related("entry__player")
        .order_by("rank", "entry__player__name")
    )
