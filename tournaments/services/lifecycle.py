"""An event's life outside play: whether it counts for the season, cancelling it, deleting a
draft. Each is one transaction and leaves a trace of who did it."""

from __future__ import annotations

import logging

from django.contrib.admin.models import DELETION, LogEntry
from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments import hooks
from tournaments.audit_chain import append_audit
from tournaments.models import AuditEntry, Event, GameResult

from ..error_codes import TournamentsError
from ._common import UserLike, acting_user, actor_name, locked_event

logger = logging.getLogger("pegboard.audit")

REASON_LENGTH = 300  # AuditEntry.reason


@transaction.atomic
def set_counts_for_season(event: Event, counts: bool, *, user: UserLike = None) -> Event:
    """Mark the event as counting for its club's seasons or not (a test night), audited; the
    seasons its date falls in are rebuilt."""
    event = locked_event(event)
    if event.counts_for_season == counts:
        return event
    append_audit(
        event,
        [
            AuditEntry(
                event=event,
                user=acting_user(user),
                actor=actor_name(user),
                action="season_counting",
                old={"counts_for_season": event.counts_for_season},
                new={"counts_for_season": counts},
            )
        ],
    )
    event.counts_for_season = counts
    event.save(update_fields=["counts_for_season"])
    hooks.event_season_changed(event.pk)
    return event


@transaction.atomic
def cancel_event(event: Event, *, user: UserLike = None, reason: str = "") -> Event:
    """Call the event off, under way or not yet: it leaves the public lists and the seasons,
    takes no more results, and its games so far are kept as they were. Audited."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.CANCELLED:
        raise ServiceError(TournamentsError.EVENT_CANCELLED, _("The event is cancelled already."))
    if event.status == Event.Status.FINISHED:
        raise ServiceError(
            TournamentsError.EVENT_FINISHED,
            _("The event has finished: re-open it first to cancel it."),
        )
    reason = reason.strip()
    if len(reason) > REASON_LENGTH:
        raise ServiceError(
            TournamentsError.REASON_TOO_LONG,
            _("Keep the reason under %(n)s characters.") % {"n": REASON_LENGTH},
            field="reason",
        )
    append_audit(
        event,
        [
            AuditEntry(
                event=event,
                user=acting_user(user),
                actor=actor_name(user),
                action="event_cancelled",
                old={"status": event.status},
                new={"status": Event.Status.CANCELLED},
                reason=reason,
            )
        ],
    )
    event.status = Event.Status.CANCELLED
    event.save(update_fields=["status"])
    hooks.results_changed(event.pk)
    hooks.event_season_changed(event.pk)
    return event


@transaction.atomic
def delete_draft_event(event: Event, *, user: UserLike = None) -> str:
    """Delete a draft event nothing was played in (its entries go with it); returns its name.

    The event's own audit log goes with it, so the deletion is recorded in the admin's log
    (who, when, which event) and the audit logger.
    """
    event = locked_event(event)
    if event.status != Event.Status.DRAFT:
        raise ServiceError(
            TournamentsError.EVENT_NOT_DRAFT,
            _("Only a draft event can be deleted; cancel this one instead."),
        )
    if event.rounds.exists() or GameResult.objects.filter(table__round__event=event).exists():
        raise ServiceError(
            TournamentsError.EVENT_HAS_GAMES,
            _("Games were drawn in this event: cancel it instead."),
        )
    kept = hooks.reason_to_keep(event.pk)
    if kept:
        raise ServiceError(TournamentsError.EVENT_KEPT, kept)
    name, pk = str(event), event.pk
    found = acting_user(user)
    if found is not None:
        LogEntry.objects.log_actions(
            user_id=found.pk,
            queryset=[event],
            action_flag=DELETION,
            change_message="Deleted the draft event from its settings page.",
            single_object=True,
        )
    logger.info("event %s (%s) deleted by %s", pk, name, actor_name(user))
    event.delete()
    # SQLite gives this id to the next event: its cached language must not be this one's.
    transaction.on_commit(lambda: cache.delete(f"event-language:{pk}"), robust=True)
    return name
