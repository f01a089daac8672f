"""What every service module shares: the event's row lock and the user type."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import connection
from django.db.models import Model

from tournaments.models import Event

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
    table or a match: one lock order everywhere, so two writers never deadlock.
    """
    return Event.objects.select_for_update().select_related("match_point_format").get(pk=event.pk)
