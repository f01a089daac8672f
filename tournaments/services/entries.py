"""Entries: entering and registering players, check-in, withdrawal, forbidden pairs."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from pegboard.errors import ServiceError
from tournaments import hooks
from tournaments import pairing_bridge as bridge
from tournaments.models import Bracket, Entry, Event, ForbiddenPair, Player

from ._common import locked_event


@transaction.atomic
def enter_player(event: Event, player: Player, *, checked_in: bool = False) -> Entry:
    """Enter ``player`` in ``event`` (a late entry joins at the next game drawn)."""
    event = locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError("event_finished", _("The event has finished; no more entries."))
    entry, created = Entry.objects.get_or_create(
        event=event, player=player, defaults={"checked_in": checked_in}
    )
    if not created:
        raise ServiceError(
            "already_entered",
            _("%(name)s is already entered.") % {"name": player.name},
            field="name",
        )
    return entry


@transaction.atomic
def register_player(
    event: Event,
    *,
    name: str,
    acc_number: str = "",
    status: str = Player.Status.MEMBER,
    checked_in: bool = True,
) -> Entry:
    """Find or create a player by ACC number (else by name in the club) and enter them."""
    name = " ".join(name.split())
    acc_number = acc_number.strip()
    if not name:
        raise ServiceError("name_required", _("A player needs a name."), field="name")
    if status not in Player.Status.values:
        raise ServiceError("bad_status", _("Unknown player status."), field="status")
    player = None
    if acc_number:
        player = Player.objects.filter(acc_number=acc_number).first()
        if player is not None and player.name.casefold() != name.casefold():
            raise ServiceError(
                "acc_number_taken",
                _("ACC number %(number)s belongs to %(name)s.")
                % {"number": acc_number, "name": player.name},
                field="acc_number",
            )
    if player is None:
        player = (
            Player.objects.filter(name__iexact=name, home_club=event.club).first()
            if not acc_number
            else None
        )
    if player is None:
        player = Player.objects.create(
            name=name,
            acc_number=acc_number,
            status=status,
            home_club=event.club if status == Player.Status.MEMBER else None,
        )
    return enter_player(event, player, checked_in=checked_in)


@transaction.atomic
def set_checked_in(entry: Entry, checked_in: bool) -> Entry:
    """Mark an entry present (or not) for the next draw."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.withdrawn and checked_in:
        raise ServiceError("withdrawn", _("%(name)s has withdrawn.") % {"name": entry.player.name})
    entry.checked_in = checked_in
    entry.save(update_fields=["checked_in"])
    return entry


@transaction.atomic
def withdraw_entry(entry: Entry) -> Entry:
    """Withdraw an entry from later games; games already played stand.

    A draft game that seats them is drawn again without them, and in a playoff their open
    match (and any they would reach) becomes a walkover for the opponent.
    """
    event = locked_event(entry.event)
    entry = Entry.objects.select_for_update().get(pk=entry.pk, event=event)
    entry.withdrawn = True
    entry.checked_in = False
    entry.save(update_fields=["withdrawn", "checked_in"])
    kind = event.game_kind
    latest = event.rounds.order_by("-number").first()
    if latest is not None and latest.is_draft and entry.pk in kind.seated(latest):
        number = latest.number
        latest.delete()
        try:
            with transaction.atomic():
                kind.draw(event, number, draft=True)
        except ServiceError:
            pass  # the field left cannot be seated now: the TD draws again when it can
    bracket = Bracket.objects.select_for_update().filter(event=event).first()
    if bracket is not None and entry.pk in bracket.seeds:
        bridge.save_bracket(bracket, bridge.pure_bracket(bracket))
    hooks.results_changed(entry.event_id)
    return entry


@transaction.atomic
def add_forbidden_pair(
    event: Event, entry_a: Entry | int, entry_b: Entry | int, *, reason: str = ""
) -> ForbiddenPair:
    """Never seat these two entries together (family, partners) from the next draw on."""
    event = locked_event(event)
    ids = [e.pk if isinstance(e, Entry) else e for e in (entry_a, entry_b)]
    if ids[0] == ids[1]:
        raise ServiceError(
            "same_player", _("A forbidden pair needs two different players."), field="entry_b"
        )
    if event.entries.filter(pk__in=ids).count() != 2:
        raise ServiceError(
            "unknown_player", _("Both players must be entered in this event."), field="entry_a"
        )
    low, high = sorted(ids)
    pair, created = ForbiddenPair.objects.get_or_create(
        event=event, entry_a_id=low, entry_b_id=high, defaults={"reason": reason.strip()[:120]}
    )
    if not created:
        raise ServiceError(
            "already_forbidden", _("These two are already a forbidden pair."), field="entry_b"
        )
    return pair


@transaction.atomic
def remove_forbidden_pair(event: Event, pair_id: int) -> None:
    """Lift a forbidden pair (from the next draw on)."""
    event = locked_event(event)
    deleted, _rows = ForbiddenPair.objects.filter(event=event, pk=pair_id).delete()
    if not deleted:
        raise ServiceError("unknown_pair", _("There is no such forbidden pair."))
