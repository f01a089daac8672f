"""The private page of a player at a table of several (``ResultShape.TABLE_NETS``, Stoppa;
``ResultShape.TABLE_SCORES``, three-handed cribbage): their table and seat, the table's
numbers (nets and running chips, or final scores); send the table's numbers or confirm the
sheet another player sent. ``views.player_page`` hands the request over here when the event's
kind reports its tables this way; the kind checks the numbers (``check_sheet``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy

from core.errors import ServiceError
from tournaments.clock import public_clock
from tournaments.kinds import ResultShape
from tournaments.services import door

from . import selectors_sheets, services

PAGE = "results/player_nets.html"
# Each shape's page and its words once the sheet is sent or recorded.
PAGES = {ResultShape.TABLE_NETS: PAGE, ResultShape.TABLE_SCORES: "results/player_scores.html"}
RECORDED = {
    ResultShape.TABLE_NETS: gettext_lazy("Every player confirmed: the table's nets are recorded."),
    ResultShape.TABLE_SCORES: gettext_lazy(
        "Every player confirmed: the table's scores are recorded."
    ),
}
SENT = {
    ResultShape.TABLE_NETS: gettext_lazy("Thank you: the other players confirm the nets next."),
    ResultShape.TABLE_SCORES: gettext_lazy("Thank you: the other players confirm the scores next."),
}


def player_page(request: HttpRequest, key: str, entry) -> HttpResponse:
    """GET: the page (or, polled with ``?since=``, 204 while nothing changed); POST: send the
    table's nets (``action=report_nets``, ``net-<entry id>`` each) or confirm the sheet shown
    (``action=confirm_nets``, ``sheet``). A refusal re-shows the page with the error and the
    typed values, HTTP 400."""
    page = PAGES[entry.event.game_kind.result_shape]
    here = selectors_sheets.player_seat(entry)
    if request.method == "POST":
        return _post(request, key, entry, here, page)
    if request.htmx and "since" in request.GET:
        if request.GET["since"] == here.token:
            return HttpResponse(status=204)
        return render(request, f"{page}#live", _context(key, entry, here))
    return render(request, page, _context(key, entry, here))


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
        "hall_clock": public_clock(entry.event) if here.polled else None,
    }


def _int(value: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def _post(request: HttpRequest, key: str, entry, here, page: str) -> HttpResponse:
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
        return render(request, page, context, status=400)
    shape = entry.event.game_kind.result_shape
    if sheet.status == sheet.Status.RECORDED:
        messages.success(request, str(RECORDED[shape]))
    else:
        messages.success(request, str(SENT[shape]))
    return redirect("player-page", key=key)
