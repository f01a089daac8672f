"""The TD's event life outside play: whether it counts for the season, cancelling it, and
deleting a draft. Cancelling and deleting ask for a confirmation first (a page that says what
will happen), and are refused with the reason when the event's state does not allow them."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import ServiceError

from . import selectors, services


@login_required
@require_POST
def td_event_season(request: HttpRequest, event_id: int) -> HttpResponse:
    """The settings page's "counts for the season" switch: saves at once."""
    event = selectors.directed_event(request.user, event_id)
    counts = request.POST.get("counts_for_season") == "on"
    try:
        services.set_counts_for_season(event, counts, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("td-event-settings", event_id=event.pk)
    if counts:
        messages.success(request, _("The event counts for the season once it has finished."))
    else:
        messages.success(request, _("The event no longer counts for the season."))
    return redirect("td-event-settings", event_id=event.pk)


def _confirm_page(request, event, *, action: str, error: str = "", status: int = 200):
    return render(
        request,
        "tournaments/td_event_confirm.html",
        {"event": event, "action": action, "error": error},
        status=status,
    )


@login_required
def td_event_cancel(request: HttpRequest, event_id: int) -> HttpResponse:
    """Cancel the event (GET: what it means, and the button to confirm)."""
    event = selectors.directed_event(request.user, event_id)
    if request.method != "POST":
        return _confirm_page(request, event, action="cancel")
    try:
        services.cancel_event(event, user=request.user, reason=request.POST.get("reason", ""))
    except ServiceError as exc:
        return _confirm_page(request, event, action="cancel", error=exc.message, status=400)
    messages.success(request, _("%(name)s is cancelled.") % {"name": event.name})
    return redirect("td-club", club_id=event.club_id)


@login_required
def td_event_delete(request: HttpRequest, event_id: int) -> HttpResponse:
    """Delete a draft event nothing was played in (GET: the confirmation)."""
    event = selectors.directed_event(request.user, event_id)
    if request.method != "POST":
        return _confirm_page(request, event, action="delete")
    try:
        name = services.delete_draft_event(event, user=request.user)
    except ServiceError as exc:
        return _confirm_page(request, event, action="delete", error=exc.message, status=400)
    messages.success(request, _("%(name)s is deleted.") % {"name": name})
    return redirect("td-club", club_id=event.club_id)


@login_required
@require_POST
def td_clone_event(request: HttpRequest, event_id: int) -> HttpResponse:
    """ "Clone for another night": a new draft event played the same way (and, when asked,
    with the same players registered); the TD lands on it."""
    event = selectors.directed_event(request.user, event_id)
    try:
        date = datetime.date.fromisoformat(request.POST.get("date", ""))
    except ValueError:
        messages.error(request, _("Give the new night's date."))
        return redirect("td-event", event_id=event.pk)
    try:
        copy = services.clone_event(
            event,
            name=request.POST.get("name", ""),
            date=date,
            with_players=request.POST.get("with_players") == "1",
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("td-event", event_id=event.pk)
    messages.success(
        request, _("%(name)s is set up like %(source)s.") % {"name": copy.name, "source": event}
    )
    return redirect("td-event", event_id=copy.pk)
