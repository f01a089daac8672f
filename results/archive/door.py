"""The archive's online registrations and waiting list (issue 28): exported with the entry's
ref while the player holds a place, else their place on the waiting list; imported onto the
imported entries (or, for those who waited, the club's player of that name, or a new one).
Each registration gets a new key on import: the old links stay with the old Pegboard."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from tournaments.models import Entry, Event, Player, Registration, WaitingPlace

from .validate import _Check, text


def _when(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def export_registrations(event: Event, ref: Callable[[int | None], int | None]) -> list[dict]:
    """The event's registrations in the order they came, each with its waiting place."""
    places = dict(
        WaitingPlace.objects.filter(event=event).values_list("registration_id", "position")
    )
    return [
        {
            "name": r.player.name,
            "acc_number": r.player.acc_number,
            "partner_name": r.partner.name if r.partner_id else None,
            "partner_acc_number": r.partner.acc_number if r.partner_id else "",
            "entry": ref(r.entry_id),
            "email": r.email,
            "phone": r.phone,
            "created_at": _when(r.created_at),
            "moved_up_at": _when(r.moved_up_at),
            "left_at": _when(r.left_at),
            "waiting_position": places.get(r.pk),
        }
        for r in event.registrations.select_related("player", "partner").order_by(
            "created_at", "pk"
        )
    ]


def _player(event: Event, name: str, acc: str) -> Player:
    """A registration's player who holds no entry: by ACC number, else the club's player of
    that name, else a new one."""
    from tournaments.selectors import club_players

    found = (Player.objects.filter(acc_number=acc).first() if acc else None) or (
        club_players(event.club).filter(name=name).first()
    )
    return found or Player.objects.create(name=name, acc_number=acc, home_club=event.club)


def import_registrations(
    data: dict, event: Event, entries: dict[Any, Entry], check: _Check
) -> None:
    """Rebuild the registrations and the waiting list of an imported ``event``."""
    seen_players: set[int] = set()
    seen_positions: set[int] = set()
    for i, row in enumerate(data.get("registrations") or []):
        path = f"registrations[{i}]"
        entry = check.ref(row, "entry", path, entries, null=True)
        partner_name = text(row, "partner_name")
        if entry is not None:  # the entry names the team (an older archive has no partner)
            player, partner = entry.player, entry.partner
        else:
            player = _player(event, row["name"], text(row, "acc_number"))
            partner = (
                _player(event, partner_name, text(row, "partner_acc_number"))
                if partner_name
                else None
            )
        team = {player.pk} | ({partner.pk} if partner is not None else set())
        if team & seen_players or (partner is not None and partner.pk == player.pk):
            raise check.bad(path, _("registers one player twice"))
        seen_players |= team
        made = Registration.objects.create(
            event=event,
            player=player,
            partner=partner,
            entry=entry,
            email=text(row, "email"),
            phone=text(row, "phone"),
            moved_up_at=check.when(row, "moved_up_at", path),
            left_at=check.when(row, "left_at", path),
        )
        created = check.when(row, "created_at", path)
        if created is not None:
            Registration.objects.filter(pk=made.pk).update(created_at=created)
        position = row.get("waiting_position")
        if position is not None:
            if entry is not None or position in seen_positions:
                raise check.bad(f"{path}.waiting_position", _("is not a free place on the list"))
            seen_positions.add(position)
            WaitingPlace.objects.create(event=event, registration=made, position=position)
