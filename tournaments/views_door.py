"""A night that runs itself at the door (issue 28): the TD's door page (registration, the
waiting list, the door QR and who checked in how), the public registration page and a
registration's own page, the door's check-in page, and the club's event templates.

The public pages need no account: a registration's page is reached by its key, the door's
page by the event's door token (which the TD rotates to void an old QR code).
"""

from __future__ import annotations

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from core import cache
from core.devices import Device, device_of, remember_device
from core.errors import ServiceError
from core.throttles import client_address

from . import selectors
from .forms.door import (
    FromTemplateForm,
    PublicRegistrationForm,
    RegistrationSettingsForm,
    TemplateForm,
)
from .models import Entry, Event, EventTemplate, Registration
from .services import door, registration, templates

# A flood of registrations from one address is stopped (the door's check-ins have their own
# limits, per device and per address: ``services.door.check_in_allowed``).
REGISTRATIONS_PER_ADDRESS = 20
WINDOW_SECONDS = 600


def _over(counter: str, limit: int) -> bool:
    """Whether ``counter`` passed ``limit`` in this window (never, with the cache down)."""
    found = cache.count(counter, window=WINDOW_SECONDS)
    return found is not None and found > limit


def _slow_down() -> str:
    return _("Too many tries from this phone; wait a few minutes and try again.")


def qr_svg(url: str) -> str:
    """The QR code of ``url`` as inline SVG (the score cards' segno settings)."""
    return segno.make(url, error="m").svg_inline(scale=6, border=2)


def _door_url(request: HttpRequest, event: Event) -> str:
    return request.build_absolute_uri(reverse("event-door", args=[event.pk, event.door_token]))


def _td_door_page(request: HttpRequest, event: Event, *, form=None, status: int = 200):
    waiting = event.waiting_list.select_related(
        "registration__player", "registration__partner"
    ).order_by("position")
    return render(
        request,
        "tournaments/td_door.html",
        {
            "event": event,
            "form": form
            or RegistrationSettingsForm(
                initial={"registration_open": event.registration_open, "cap": event.cap}
            ),
            "entrants": registration.entrants_count(event),
            "waiting": waiting,
            "registrations": event.registrations.select_related(
                "player", "partner", "entry"
            ).order_by("created_at", "pk"),
            "register_url": request.build_absolute_uri(reverse("event-register", args=[event.pk])),
            "door_url": _door_url(request, event),
            "door_qr": qr_svg(_door_url(request, event)),
            "door_refusal": door.door_refusal(event),
            "check_ins": door.self_check_ins(event),
            "template_form": TemplateForm(initial={"name": event.name}),
        },
        status=status,
    )


@login_required
def td_door(request: HttpRequest, event_id: int) -> HttpResponse:
    """The TD's door: online registration and the cap (POST), the waiting list, the door QR
    and the self check-ins."""
    event = selectors.directed_event(request.user, event_id)
    if request.method != "POST":
        return _td_door_page(request, event)
    form = RegistrationSettingsForm(request.POST)
    done = form.run(
        lambda: registration.set_registration(
            event,
            registration_open=form.cleaned_data["registration_open"],
            cap=form.cleaned_data["cap"],
            user=request.user,
        )
    )
    if done is None:
        return _td_door_page(request, event, form=form, status=400)
    messages.success(request, _("Registration settings saved."))
    return redirect("td-door", event_id=event.pk)


@login_required
@require_POST
def td_door_switch(request: HttpRequest, event_id: int) -> HttpResponse:
    """Close or re-open the door's self check-in, or give the door QR a new token."""
    event = selectors.directed_event(request.user, event_id)
    action = request.POST.get("action")
    try:
        if action == "rotate":
            door.set_door(event, rotate=True, user=request.user)
            messages.success(request, _("The door QR code is new: the old one no longer works."))
        else:
            door.set_door(event, closed=action == "close", user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("td-door", event_id=event.pk)


@login_required
def td_door_print(request: HttpRequest, event_id: int) -> HttpResponse:
    """The door QR on a page of its own, to print or to show on a screen at the door."""
    event = selectors.directed_event(request.user, event_id)
    url = _door_url(request, event)
    return render(
        request, "tournaments/door_qr.html", {"event": event, "url": url, "qr": qr_svg(url)}
    )


def _registering_event(event_id: int) -> Event:
    """An event open to online registration (a draft too: it is not public yet), else 404."""
    event = (
        Event.objects.select_related("club")
        .exclude(status=Event.Status.CANCELLED)
        .filter(pk=event_id, registration_open=True)
        .first()
    )
    if event is None:
        raise Http404("No such event.")
    return event


@never_cache
def event_register(request: HttpRequest, event_id: int) -> HttpResponse:
    """The public registration page: a name (and a partner's, for teams), an optional email
    or phone; an entry below the cap, else a place on the waiting list; the player lands on
    their own page."""
    event = _registering_event(event_id)
    form = PublicRegistrationForm(request.POST or None, teams=event.game_kind.team_size > 1)
    status = 200
    if request.method == "POST" and _over(
        f"door:register:{event.pk}:{client_address(request)}",
        REGISTRATIONS_PER_ADDRESS,
    ):
        form.is_valid()
        form.add_error(None, _slow_down())
        status = 429
    elif request.method == "POST":
        made = form.run(
            lambda: registration.register_online(
                event,
                name=form.cleaned_data["name"],
                partner_name=form.cleaned_data.get("partner", ""),
                email=form.cleaned_data["email"],
                phone=form.cleaned_data["phone"],
            )
        )
        if made is not None:
            return redirect("registration-page", key=made.key)
        status = 400
    context = {
        "event": event,
        "form": form,
        "refusal": registration.registration_refusal(event),
        "entrants": registration.entrants_count(event),
    }
    return render(request, "tournaments/event_register.html", context, status=status)


@never_cache
def registration_page(request: HttpRequest, key: str) -> HttpResponse:
    """A registration's own page (its key is the link): "You're in", or the place on the
    waiting list; "I can't come" frees the place for the next who waits."""
    found = (
        Registration.objects.select_related("event__club", "player", "partner", "entry")
        .filter(key=key)
        .first()
    )
    if found is None or found.event.status == Event.Status.CANCELLED:
        raise Http404("Unknown link.")
    action = request.POST.get("action") if request.method == "POST" else None
    try:
        if action == "withdraw":
            registration.withdraw_registration(found)
            messages.success(request, _("Your place is given up. Thank you for telling us."))
        elif action == "here" and found.entry is not None:  # "I'm here", as on the link
            device = device_of(request).label
            door.self_check_in(found.entry, how=Entry.CheckIn.LINK, device=device)
            messages.success(request, _("You are checked in. Good luck!"))
    except ServiceError as exc:
        messages.error(request, exc.message)
    if action:
        return remember_device(request, redirect("registration-page", key=key))
    State = Registration.State
    state, position = registration.registration_state(found)
    entry = found.entry
    return render(
        request,
        "tournaments/registration.html",
        {
            "registration": found,
            "event": found.event,
            "state": state,
            "position": position,
            "checked_in": entry is not None and entry.checked_in,
            "door_refusal": door.door_refusal(found.event) if state == State.IN else None,
        },
    )


def _door_event(event_id: int, token: str) -> Event:
    event = Event.objects.select_related("club").filter(pk=event_id, door_token=token).first()
    if event is None or event.status == Event.Status.CANCELLED:
        raise Http404("This door code is no longer valid.")
    return event


@never_cache
def event_door(request: HttpRequest, event_id: int, token: str) -> HttpResponse:
    """The door QR's page: find your name (accents aside) and check in. The phone gets a
    device cookie (``core.devices``): check-ins are counted per device and per address, and
    each names its device in the audit log."""
    event = _door_event(event_id, token)
    device = device_of(request)
    if request.method == "POST":
        response = _door_check_in(request, event, token, device)
    else:
        response = _door_page(request, event, token)
    return remember_device(request, response)


def _door_check_in(request: HttpRequest, event: Event, token: str, device: Device) -> HttpResponse:
    """The door's POST: the entry's token (never its id), within the device's and the
    address's limits (429, nothing written, past either)."""
    raw = request.POST.get("entry", "").strip()
    if not door.is_entry_token(raw):
        # A plain id, or a hand-made post (entry=abc, 1.5, 1e999): a page that says so.
        messages.error(request, _("Find your name below and press it to check in."))
        return _door_page(request, event, token, status=400)
    if not door.check_in_allowed(event, device=device.label, address=client_address(request)):
        messages.error(
            request, _("Too many check-ins from here: please see the tournament director.")
        )
        return _door_page(request, event, token, status=429)
    entry = door.entry_for_token(event, raw)
    if entry is None:  # another event's, or of a door QR since rotated
        messages.error(request, _("Find your name below and press it to check in."))
        return _door_page(request, event, token, status=400)
    try:
        door.self_check_in(entry, how=Entry.CheckIn.DOOR, device=device.label)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("event-door", event_id=event.pk, token=token)
    messages.success(request, _("Welcome, %(name)s: you are checked in.") % {"name": entry.name})
    return redirect("event-door", event_id=event.pk, token=token)


def _door_page(
    request: HttpRequest, event: Event, token: str, *, status: int = 200
) -> HttpResponse:
    query = request.GET.get("q", "")[:120]
    found = door.door_candidates(event, query) if query else []
    return render(
        request,
        "tournaments/event_door.html",
        {
            "event": event,
            "token": token,
            "query": query,
            "found": [(entry, door.entry_token(event, entry.pk)) for entry in found],
            "refusal": door.door_refusal(event),
        },
        status=status,
    )


@login_required
@require_POST
def td_save_template(request: HttpRequest, event_id: int) -> HttpResponse:
    """ "Save as template": the event's way of playing, under a name of the club's."""
    event = selectors.directed_event(request.user, event_id)
    form = TemplateForm(request.POST)
    made = form.run(
        lambda: templates.save_template(
            event, name=form.cleaned_data["name"], replace=form.cleaned_data["replace"]
        )
    )
    if made is None:
        for errors in form.errors.values():
            messages.error(request, " ".join(str(error) for error in errors))
    else:
        messages.success(request, _("Saved as the template %(name)s.") % {"name": made.name})
    return redirect("td-event", event_id=event.pk)


@login_required
@require_POST
def td_event_from_template(request: HttpRequest, club_id: int) -> HttpResponse:
    """ "New event from template" on the club's page; or, with ``delete``, drop a template."""
    club = selectors.directed_club(request.user, club_id)
    if "delete" in request.POST:
        try:
            templates.delete_template(club, int(request.POST["delete"]))
            messages.success(request, _("Template deleted."))
        except (ServiceError, ValueError):
            messages.error(request, _("There is no such template."))
        return redirect("td-club", club_id=club.pk)
    form = FromTemplateForm(request.POST, templates=EventTemplate.objects.filter(club=club))
    made = form.run(
        lambda: templates.event_from_template(
            EventTemplate.objects.get(club=club, pk=form.cleaned_data["template"]),
            name=form.cleaned_data["name"],
            date=form.cleaned_data["date"],
        )
    )
    if made is None:  # the club's page again, the errors beside the fields
        from .views_club import _club_page

        return _club_page(request, club, status=400, from_template_form=form)
    messages.success(request, _("%(name)s is set up from the template.") % {"name": made.name})
    return redirect("td-event", event_id=made.pk)
