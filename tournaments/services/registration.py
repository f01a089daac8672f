"""Online pre-registration: the event's cap, registrations, and the waiting list.

A registration below the cap is an entry at once; beyond it, a place on the waiting list.
A withdrawal before the first draw (``entries.withdraw_entry``) hands the freed place to
the first who waits (:func:`fill_from_waiting_list`); their page then says they are in.
Every step is in the event's audit log.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments.audit_chain import append_audit
from tournaments.models import AuditEntry, Entry, Event, Registration, WaitingPlace

from ..error_codes import TournamentsError
from ._common import UserLike, acting_user, actor_name, locked_event
from .entries import check_team, enter_player, find_or_make_player

# Digits with the usual separators and an optional leading +: "+39 055 123 4567".
PHONE = re.compile(r"^\+?[0-9][0-9 ()./-]{4,28}$")


def entrants_count(event: Event) -> int:
    """How many places of the field are taken: the entries that have not withdrawn."""
    return event.entries.filter(withdrawn=False).count()


def _audit(event: Event, action: str, new: dict, *, actor: str, user=None) -> None:
    append_audit(event, [AuditEntry(event=event, user=user, actor=actor, action=action, new=new)])


@transaction.atomic
def set_registration(
    event: Event, *, registration_open: bool, cap: int | None, user: UserLike = None
) -> Event:
    """Open or close online registration and set the cap (None: no limit). The cap cannot
    go below the entrants already in; raising it moves the waiting list up."""
    event = locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError(TournamentsError.EVENT_FINISHED, _("The event has finished."))
    if cap is not None:
        if not isinstance(cap, int) or isinstance(cap, bool):
            raise ServiceError(TournamentsError.BAD_CAP, _("Enter a whole number."), field="cap")
        taken = entrants_count(event)
        if cap < taken:
            raise ServiceError(
                TournamentsError.CAP_BELOW_ENTRANTS,
                _("%(n)s players are entered already: the cap cannot be lower.") % {"n": taken},
                field="cap",
            )
        if not 2 <= cap <= 5000:
            raise ServiceError(
                TournamentsError.BAD_CAP,
                _("The cap is a number of players between 2 and 5000."),
                field="cap",
            )
    old = {"registration_open": event.registration_open, "cap": event.cap}
    event.registration_open, event.cap = bool(registration_open), cap
    event.save(update_fields=["registration_open", "cap"])
    new = {"registration_open": event.registration_open, "cap": event.cap}
    if new != old:
        append_audit(
            event,
            [
                AuditEntry(
                    event=event,
                    user=acting_user(user),
                    actor=actor_name(user),
                    action="registration_settings",
                    old=old,
                    new=new,
                )
            ],
        )
    if not event.rounds.exists():
        fill_from_waiting_list(event)
    return event


def _clean_contact(email: str, phone: str) -> tuple[str, str]:
    email, phone = (email or "").strip(), " ".join((phone or "").split())
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise ServiceError(
                TournamentsError.BAD_EMAIL, _("Enter a valid email address."), field="email"
            ) from None
    if phone and not PHONE.match(phone):
        raise ServiceError(
            TournamentsError.BAD_PHONE,
            _("Enter a phone number: digits, spaces and an optional leading +."),
            field="phone",
        )
    return email, phone


def registration_refusal(event: Event) -> str:
    """Why the public registration page takes no registrations now ("" when it does)."""
    if event.status in (Event.Status.FINISHED, Event.Status.CANCELLED):
        return _("This event is over: it takes no registrations.")
    if not event.registration_open:
        return _("Online registration is closed. Ask the tournament director.")
    if event.rounds.exists():
        return _("The event has started: register with the tournament director at the door.")
    return ""


def _team(event: Event, partner_name: str) -> bool:
    """Whether the event's kind is played by teams of two; refuses a missing partner there
    and a partner where players play alone (the form's partner field)."""
    team = event.game_kind.team_size > 1
    if team and not partner_name.strip():
        raise ServiceError(
            TournamentsError.PARTNER_REQUIRED,
            _("%(game)s is played in teams of two: enter your partner's name.")
            % {"game": event.game_kind.label},
            field="partner",
        )
    if not team and partner_name.strip():
        raise ServiceError(
            TournamentsError.NOT_TEAM_GAME,
            _("%(game)s is not played in teams: register alone.") % {"game": event.game_kind.label},
            field="partner",
        )
    return team


@transaction.atomic
def register_online(
    event: Event, *, name: str, partner_name: str = "", email: str = "", phone: str = ""
) -> Registration:
    """A player's own registration from the public page (no account), with their partner's
    name where the kind is played by teams of two: a returning club player is found by
    name; an entry below the cap, else a place on the waiting list."""
    event = locked_event(event)
    refusal = registration_refusal(event)
    if refusal:
        raise ServiceError(TournamentsError.REGISTRATION_CLOSED, refusal)
    email, phone = _clean_contact(email, phone)
    team = _team(event, partner_name)
    player = find_or_make_player(event, name=name)
    partner = find_or_make_player(event, name=partner_name) if team else None
    for who, field in ((player, "name"), (partner, "partner")):
        if who is None:
            continue
        if (
            event.registrations.filter(Q(player=who) | Q(partner=who)).exists()
            or event.entries.filter(Q(player=who) | Q(partner=who)).exists()
        ):
            raise ServiceError(
                TournamentsError.ALREADY_REGISTERED,
                _("%(name)s is already registered for this event.") % {"name": who.name},
                field=field,
            )
    check_team(event, player, partner)  # two different players
    registration = Registration(
        event=event, player=player, partner=partner, email=email, phone=phone
    )
    if event.cap is None or entrants_count(event) < event.cap:
        registration.entry = enter_player(event, player, partner=partner)
        registration.save()
        _audit(event, "registered", {"player": registration.name}, actor=player.name)
        return registration
    registration.save()
    last = event.waiting_list.order_by("-position").values_list("position", flat=True).first()
    place = WaitingPlace.objects.create(
        event=event, registration=registration, position=(last or 0) + 1
    )
    _audit(
        event,
        "waiting_list",
        {"player": registration.name, "position": place.position},
        actor=player.name,
    )
    return registration


def _leave_list(place: WaitingPlace) -> None:
    """Take ``place`` off its list; those behind it move one place up."""
    event_id, position = place.event_id, place.position
    place.delete()
    WaitingPlace.objects.filter(event_id=event_id, position__gt=position).update(
        position=F("position") - 1
    )


def seat_from_waiting_list(event: Event, entry: Entry, same: bool | None) -> None:
    """The TD entered someone who waits on the online list (at the door, past the cap). In
    the caller's transaction (``enter_player``'s), the event locked.

    Whoever gave that name online may not be the person the TD entered, so the TD says
    (``same``): the same person, and the registration holds the new entry (its link says
    they are in; they leave the list, those behind move up); someone else, and the
    registration is set aside, holding nothing (its link can neither withdraw nor check in
    the TD's entry). Not said: refused, asking."""
    team = [entry.player_id] + ([entry.partner_id] if entry.partner_id else [])
    places = list(
        WaitingPlace.objects.select_related("registration__player", "registration__partner")
        .filter(Q(registration__player_id__in=team) | Q(registration__partner_id__in=team))
        .filter(event=event)
        .order_by("position")
    )
    if places and same is None:
        raise ServiceError(
            TournamentsError.WAITING_REGISTRATION,
            _(
                "%(name)s is on the waiting list from an online registration. Is the person "
                "you enter the one who registered? Say so, or say it is someone else."
            )
            % {"name": places[0].registration.name},
            field="same_as_waiting",
        )
    for place in places:
        registration = place.registration
        place.refresh_from_db(fields=["position"])  # a place left before moved it up
        _leave_list(place)
        if same and not Registration.objects.filter(entry=entry).exists():
            registration.entry = entry
            registration.save(update_fields=["entry"])
            # Not "moved up": no place came free, the TD let them in (their page says so).
            _audit(
                event,
                "entered_from_waiting_list",
                {"player": registration.name},
                actor="tournament director",
            )
            continue
        registration.left_at = timezone.now()
        registration.save(update_fields=["left_at"])
        _audit(
            event,
            "registration_set_aside",
            {"player": registration.name},
            actor="tournament director",
        )


def fill_from_waiting_list(event: Event) -> list[Registration]:
    """Give the free places (below the cap) to those waiting, first come first in; in the
    caller's transaction, the event locked. Returns the registrations moved up."""
    moved = []
    while event.cap is None or entrants_count(event) < event.cap:
        place = (
            WaitingPlace.objects.select_related("registration__player")
            .filter(event=event)
            .order_by("position")
            .first()
        )
        if place is None:
            break
        registration = place.registration
        _leave_list(place)  # first: the entry below must not find them waiting
        entry = Entry.objects.filter(event=event, player=registration.player).first()
        if entry is not None and entry.pk != registration.entry_id:
            # Someone the TD entered under that name: not this registration's to take.
            registration.left_at = timezone.now()
            registration.save(update_fields=["left_at"])
            _audit(
                event, "registration_set_aside", {"player": registration.name}, actor="waiting list"
            )
            continue
        if entry is None:
            entry = enter_player(
                event, registration.player, partner=registration.partner, same_as_waiting=True
            )
        elif entry.withdrawn:  # its own entry, withdrawn meanwhile: in again
            entry.withdrawn = False
            entry.save(update_fields=["withdrawn"])
        registration.entry = entry
        registration.moved_up_at = timezone.now()
        registration.save(update_fields=["entry", "moved_up_at"])
        _audit(event, "moved_up", {"player": registration.name}, actor="waiting list")
        moved.append(registration)
    return moved


@transaction.atomic
def withdraw_registration(registration: Registration) -> Registration:
    """The player's own "I can't come" from their page: an entry is withdrawn through the
    withdrawal service (which moves the waiting list up); a waiting place is given up."""
    from .entries import withdraw_entry

    event = locked_event(registration.event)
    registration = Registration.objects.select_for_update().get(pk=registration.pk, event=event)
    name = registration.player.name
    place = WaitingPlace.objects.filter(registration=registration).first()
    if place is not None:
        _leave_list(place)
        registration.left_at = timezone.now()
        registration.save(update_fields=["left_at"])
        _audit(event, "left_waiting_list", {"player": name}, actor=name)
        return registration
    entry = registration.entry
    if entry is None or entry.withdrawn:
        raise ServiceError(
            TournamentsError.NOT_WAITING, _("%(name)s holds no place now.") % {"name": name}
        )
    if event.rounds.exists():
        raise ServiceError(
            TournamentsError.DOOR_CLOSED,
            _("The event has started: tell the tournament director you are leaving."),
        )
    _audit(event, "withdrawn_online", {"player": name}, actor=name)
    withdraw_entry(entry)
    return registration


def registration_state(registration: Registration) -> tuple[str, int | None]:
    """Where the registration stands (a ``Registration.State``) and, while waiting, the
    position on the list."""
    State = Registration.State
    place = WaitingPlace.objects.filter(registration=registration).first()
    if place is not None:
        return State.WAITING, place.position
    withdrawn = (
        Entry.objects.filter(registration=registration).values_list("withdrawn", flat=True).first()
    )
    if withdrawn is not None:
        return (State.WITHDRAWN if withdrawn else State.IN), None
    return State.LEFT, None
