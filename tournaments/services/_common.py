"""What every service module shares: the event's row lock and the user type."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import connection
from django.db.models import Model
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments.models import Event

from ..error_codes import TournamentsError

UserLike = AbstractBaseUser | AnonymousUser | None


def analyze(*models: type[Model]) -> None:
    """Refresh PostgreSQL's statistics of these tables after a bulk write.

    Without it the planner goes on guessing from the empty tables it last saw: after a bulk
    load it estimated one entry row and chose a nested loop that took a 20,000-player
    recompute over two minutes. A no-op on SQLite.
    """
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in models:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


def acting_user(user: UserLike) -> User | None:
    """The signed-in user to store as who entered something (None for anonymous)."""
    return user if isinstance(user, User) and user.is_authenticated else None


def actor_name(user: UserLike) -> str:
    """The name the audit log shows for ``user`` ("?" when nobody is signed in)."""
    found = acting_user(user)
    return found.get_username() if found is not None else "?"


def locked_event(event: Event) -> Event:
    """Re-read the event under a row lock so concurrent TD actions on it run one at a time.

    Every service that writes to an event takes this lock first, and only then locks a
    table or a match: one lock order everywhere, so two writers never deadlock. A cancelled
    event takes no more changes (it stays as it was when it was called off).
    """
    event = Event.objects.select_for_update().select_related("match_point_format").get(pk=event.pk)
    if event.status == Event.Status.CANCELLED:
        raise ServiceError(
            TournamentsError.EVENT_CANCELLED, _("The event was cancelled: it takes no changes.")
        )
    return event


def shared_event_lock(event: Event) -> Event:
    """Hold the event against the TD's changes, but not against other players' reports.

    A player's report takes PostgreSQL's weakest row lock on the event (``FOR KEY SHARE``):
    it waits for a TD action that holds the event (``FOR UPDATE``: a redraw, the finish) and
    makes such an action wait, but two reports at different tables never wait for each other.
    With the exclusive lock every report of a 1,000-player event queued behind the one
    before it. The bump of ``results_version`` that a confirmation ends with is an ordinary
    UPDATE (``FOR NO KEY UPDATE``), which key-share holders do not block. SQLite takes its
    write lock up front (IMMEDIATE transactions), so it needs nothing here.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT 1 FROM {Event._meta.db_table} WHERE id = %s FOR KEY SHARE", [event.pk]
            )
    return Event.objects.select_related("match_point_format").get(pk=event.pk)
