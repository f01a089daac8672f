"""Self check-in: "I'm here" on a player's own link, or their name picked at the door's QR.

Both go through the one check-in service (``entries.set_checked_in``) and are written to the
event's audit log with how and from which device (``core.devices``: a short label of the
phone's signed cookie); a device that checks in a second player is named in the log by the
player it checked in first, so the TD sees who checked in whom. The door closes when the
first game is drawn, or when the TD closes it; rotating the door token voids the QR codes
printed or photographed before.

The door's page never shows an entry's id (ids are sequential: one phone could check in the
whole field by counting): each name found carries an opaque token of its entry, an HMAC of
the event, its door token and the entry, which :func:`entry_for_token` takes back.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from core import cache
from core.errors import ServiceError
from tournaments import names
from tournaments.audit_chain import append_audit
from tournaments.models import AuditEntry, Entry, Event, new_door_token

from ..error_codes import TournamentsError
from ._common import UserLike, acting_user, actor_name, locked_event
from .entries import set_checked_in

# The audit log's action of a self check-in (the TD's door page lists them).
SELF_CHECK_IN = "self_check_in"
# The door page's entry tokens: their HMAC's salt and length (hex digits).
ENTRY_TOKEN_SALT = "pegboard.door.entry"
ENTRY_TOKEN_LENGTH = 32
# Check-ins at the door in a window: per device (a phone, by its signed cookie) and per
# client address (a hall's phones share its Wi-Fi: a larger allowance), each per event.
CHECK_INS_PER_PHONE = 8
CHECK_INS_PER_ADDRESS = 20
CHECK_IN_WINDOW_SECONDS = 600


def entry_token(event: Event, entry_id: int) -> str:
    """The door page's opaque name of an entry of ``event``: good for the event's current
    door QR only."""
    message = f"{event.pk}:{event.door_token}:{entry_id}"
    digest = salted_hmac(ENTRY_TOKEN_SALT, message, algorithm="sha256").hexdigest()
    return digest[:ENTRY_TOKEN_LENGTH]


def is_entry_token(value: str) -> bool:
    """Whether ``value`` has the shape of an entry token (a plain id, or anything else, not)."""
    return (
        len(value) == ENTRY_TOKEN_LENGTH
        and value.isascii()
        and all(c in "0123456789abcdef" for c in value)
    )


def entry_for_token(event: Event, token: str) -> Entry | None:
    """The entry of ``event`` (not withdrawn) whose door token is ``token``, else None (a
    token of another event, or of a door QR since rotated, is None)."""
    if not is_entry_token(token):
        return None
    for pk in event.entries.filter(withdrawn=False).values_list("pk", flat=True):
        if constant_time_compare(entry_token(event, pk), token):
            return Entry.objects.select_related("player").get(pk=pk)
    return None


def check_in_allowed(event: Event, *, device: str, address: str) -> bool:
    """Count one check-in at the door of ``event`` against the device (its label) and the
    client's address; False when either is past its limit in the window (then nothing is to
    be written). Both counters live in the cache, so dropping the session cookie, or the
    device cookie too, escapes neither the address's; with the cache down, True."""
    over = False
    for counter, limit in (
        (f"door:check-in:address:{event.pk}:{address}", CHECK_INS_PER_ADDRESS),
        (f"door:check-in:device:{event.pk}:{device}", CHECK_INS_PER_PHONE),
    ):
        found = cache.count(counter, window=CHECK_IN_WINDOW_SECONDS)
        over = over or (found is not None and found > limit)
    return not over


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


def _first_by_device(event: Event, device: str, player: str) -> str:
    """The player that ``device`` checked in first at this event, other than ``player``
    ("" if none): the audit log's own record, whatever cookies the phone kept."""
    rows = event.audit.filter(action=SELF_CHECK_IN).order_by("pk").only("new")
    for row in rows:
        new = row.new or {}
        if new.get("device") == device and new.get("player") != player:
            return str(new.get("player", ""))
    return ""


@transaction.atomic
def self_check_in(entry: Entry, *, how: str, device: str = "", by: Entry | None = None) -> Entry:
    """Check ``entry`` in on the player's own word: ``how`` is ``Entry.CheckIn.LINK`` or
    ``DOOR``; ``device`` is the phone's label (``core.devices.Device.label``), in the audit
    log. A device that checked in another player before is named by that player's name
    (``by``, given or found in the log): someone checking in someone else."""
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
    if device:
        new["device"] = device
    reason = ""
    by_name = by.player.name if by is not None and by.pk != entry.pk else ""
    if by is None and device:
        by_name = _first_by_device(event, device, entry.name)
    if by_name:
        new["by"] = by_name
        reason = _("Checked in from the phone that checked in %(name)s.") % {"name": by_name}
    append_audit(
        event,
        [
            AuditEntry(
                event=event,
                actor=by_name or entry.player.name,
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
