"""Self check-in: "I'm here" on a player's own link, or their name picked at the door's QR.

Both go through the one check-in service (``entries.set_checked_in``) and are written to the
event's audit log with how (and, at the door, from which phone: a phone that checks in a
second player is named in the log, so the TD sees who checked in whom). The door closes
when the first game is drawn, or when the TD closes it; rotating the door token voids the
QR codes printed or photographed before.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments import names
from tournaments.audit_chain import append_audit
from tournaments.models import AuditEntry, Entry, Event, new_door_token

from ..error_codes import TournamentsError
from ._common import UserLike, acting_user, actor_name, locked_event
from .entries import set_checked_in

# The audit log's action of a self check-in (the TD's door page lists them).
SELF_CHECK_IN = "self_check_in"


def door_refusal(event: Event) -> str:
    """Why players cannot check themselves in now ("" when they can)."""
    if event.status in (Event.Status.FINISHED, Event.Status.CANCELLED):
        return _("This event is over.")
    if event.rounds.exists():
        return _(
            "Check-in is closed: the first game has been drawn. Please see the tournament director."
        )
    if event.door_closed:
        return _("Check-in at the door is closed. Please see the tournament director.")
    return ""


@transaction.atomic
def self_check_in(entry: Entry, *, how: str, by: Entry | None = None) -> Entry:
    """Check ``entry`` in on the player's own word: ``how`` is ``Entry.CheckIn.LINK`` or
    ``DOOR``; ``by``, at the door, is the entry this phone checked in before (someone
    checking in someone else), named in the audit log."""
    if how not in (Entry.CheckIn.LINK, Entry.CheckIn.DOOR):
        raise ServiceError(TournamentsError.UNKNOWN_ACTION, _("Unknown way to check in."))
    event = locked_event(entry.event)
    refusal = door_refusal(event)
    if refusal:
        raise ServiceError(TournamentsError.DOOR_CLOSED, refusal)
    entry = Entry.objects.select_related("player").get(pk=entry.pk, event=event)
    if entry.checked_in:
        return entry  # twice is once: nothing to log
    entry = set_checked_in(entry, True, how=how)
    new = {"player": entry.name, "how": how}
    reason = ""
    if by is not None and by.pk != entry.pk:
        new["by"] = by.player.name
        reason = _("Checked in from the phone that checked in %(name)s.") % {"name": by.player.name}
    append_audit(
        event,
        [
            AuditEntry(
                event=event,
                actor=entry.player.name if by is None else new.get("by", entry.player.name),
                action=SELF_CHECK_IN,
                new=new,
                reason=reason,
            )
        ],
    )
    return entry


@transaction.atomic
def set_door(
    event: Event, *, closed: bool | None = None, rotate: bool = False, user: UserLike = None
) -> Event:
    """Close or re-open the door's self check-in; ``rotate`` gives the door QR a new token
    (the old QR stops working)."""
    event = locked_event(event)
    changes: dict[str, object] = {}
    if closed is not None and bool(closed) != event.door_closed:
        event.door_closed = bool(closed)
        changes["door_closed"] = event.door_closed
    if rotate:
        event.door_token = new_door_token()
        changes["door_token"] = "rotated"
    if changes:
        event.save(update_fields=["door_closed", "door_token"])
        append_audit(
            event,
            [
                AuditEntry(
                    event=event,
                    user=acting_user(user),
                    actor=actor_name(user),
                    action="door",
                    new=changes,
                )
            ],
        )
    return event


def door_candidates(event: Event, query: str, limit: int = 8) -> list[Entry]:
    """The entries whose name fits what was typed at the door (accents, case and a typo
    aside), best first; nothing for fewer than two letters (no browsing the whole field)."""
    if len(names.fold(query).replace(" ", "")) < 2:
        return []
    entries = {
        e.pk: e
        for e in event.entries.filter(withdrawn=False)
        .select_related("player", "partner")
        .order_by("pk")
    }
    # A team is found by either partner's name (partners' cribbage).
    typed = [(pk, p.name) for pk, e in entries.items() for p in (e.player, e.partner) if p]
    ids = list(dict.fromkeys(names.best_matches(query, typed, limit)))
    return [entries[pk] for pk in ids]


def self_check_ins(event: Event) -> list[AuditEntry]:
    """The audit log's self check-ins of the event, latest first (the TD's door page)."""
    return list(event.audit.filter(action=SELF_CHECK_IN).order_by("-pk"))
