"""What every service module shares: the event's row lock and the user type."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tournaments.models import Event

UserLike = AbstractBaseUser | AnonymousUser | None


def locked_event(event: Event) -> Event:
    """Re-read the event under a row lock so concurrent TD actions on it run one at a time.

    Every service that writes to an event takes this lock first, and only then locks a
    table or a match: one lock order everywhere, so two writers never deadlock.
    """
    return Event.objects.select_for_update().select_related("match_point_format").get(pk=event.pk)
