"""The private page of a player at a table of several (``ResultShape.TABLE_NETS``, Stoppa):
their table and seat, the session nets and running chips; send the table's nets or confirm
the sheet another player sent. ``views.player_page`` hands the request over here when the
event's kind reports its tables this way."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments.services import door

from . import selectors_sheets, services

PAGE = "results/player_nets.html"


def player_page(request: HttpRequest, key: str, entry) -> HttpResponse:
    """GET: the page (or, polled with ``?since=``, 204 while nothing changed); POST: send the
    table's nets (``action=report_nets``, ``net-<entry id>`` each) or confirm the sheet shown
    (``action=confirm_nets``, ``sheet``). A refusal re-shows the page with the error and the
    typed values, HTTP 400."""
    here = selectors_sheets.player_seat(entry)
    if request.method == "POST":
        return _post(request, key, entry, here)
    if request.htmx and "since" in request.GET:
        if request.GET["since"] == here.token:
            return HttpResponse(status=204)
        return render(request, f"{PAGE}#live", _context(key, entry, here))
    return render(request, PAGE, _context(key, entry, here))


def _context(key: str, entry, here, *, typed=None, error: str = "") -> dict:
    typed = typed or {}
    return {
        "key": key,
        "entry": entry,
        "door_refusal": None if entry.checked_in else door.door_refusal(entry.event),
        "here": here,
        "table": here.table,
        "typed": [(seat, typed.get(seat.entry_id, "")) for seat in here.seats],
        "error": error,
    }


def _int(value: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _post(request: HttpRequest, key: str, entry, here) -> HttpResponse:
    action = request.POST.get("action", "")
    table = _int(request.POST.get("table", ""))
    typed = {s.entry_id: request.POST.get(f"net-{s.entry_id}", "").strip() for s in here.seats}
    try:
        if action == "confirm_nets":
            sheet = services.confirm_nets(
                key, table=table, sheet=_int(request.POST.get("sheet", "")), entry=entry
            )
        else:
            sheet = services.report_nets(key, table=table, nets=typed, entry=entry)
    except ServiceError as exc:
        here = selectors_sheets.player_seat(entry)  # what stands now (a changed sheet)
        context = _context(key, entry, here, typed=typed, error=exc.message)
        return render(request, PAGE, context, status=400)
    if sheet.status == sheet.Status.RECORDED:
        messages.success(request, _("Every player confirmed: the table's nets are recorded."))
    else:
        messages.success(request, _("Thank you: the other players confirm the nets next."))
    return redirect("player-page", key=key)
