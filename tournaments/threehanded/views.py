"""The TD's page of one three-handed game (draw again, release, key each table's final
scores; HTMX saves a row and moves on) and the place points setting."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import hooks, selectors
from tournaments.views_clock import clock_panel

from .forms import PlacePointsForm, TableScoresForm
from .kind import THREE_HANDED

PAGE = "tournaments/td_three_game.html"


def _event(event):
    if not THREE_HANDED.owns(event):
        raise Http404("Not a three-handed cribbage event.")
    return event


def _rows(tables, posted=None) -> list[tuple]:
    """(table, scores form) per table; the posted table keeps its bound form. A table whose
    players sent scores that wait for confirmations shows them typed in (``table.reported``)."""
    reported = hooks.reported_nets(tables[0].round_id) if tables else {}
    rows = []
    for table in tables:
        table.reported = None if table.has_result else reported.get(table.pk)
        if posted is not None and posted[0] == table.pk:
            rows.append((table, posted[1]))
            continue
        initial = {}
        if table.reported is not None:
            initial = {f"score_{pk}": v for pk, v in table.reported.nets.items()}
        rows.append((table, TableScoresForm(table=table, initial=initial)))
    return rows


def _context(event, round_, rows) -> dict:
    return {
        "event": event,
        "round": round_,
        "rows": rows,
        "can_redraw": selectors.stoppa_can_redraw(event, round_),
        # The round clock, as on a two-player game's page.
        "clock_panel": clock_panel(event, round_) if not round_.is_draft else None,
    }


@login_required
def td_game(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """The TD's page of one game: a row per table, each player's final score in seat order
    (Tab moves on, Enter saves the row). Scores the game cannot have ended on are a form
    error beside the row and change nothing (HTTP 400 without HTMX)."""
    event = _event(selectors.directed_event(request.user, event_id))
    round_ = selectors.event_round(event, number)
    tables = [t for t in selectors.stoppa_tables(round_) if not t.sitting_out]
    if request.method != "POST":
        return render(request, PAGE, _context(event, round_, _rows(tables)))
    posted = request.POST.get("table", "")
    table = next((t for t in tables if str(t.pk) == posted), None)
    if table is None:
        messages.error(request, _("There is no such table in this event."))
        return render(request, PAGE, _context(event, round_, _rows(tables)), status=400)
    form = TableScoresForm(request.POST, table=table)
    saved = form.save(event, game=number, user=request.user)
    if saved is not None:
        table = selectors.stoppa_tables(round_).get(pk=table.pk)
        if not request.htmx:
            messages.success(request, _("Table %(n)s saved.") % {"n": table.number})
            return redirect(THREE_HANDED.round_page, event_id=event.pk, number=number)
        form = TableScoresForm(table=table)
    if request.htmx:
        context = {"event": event, "round": round_, "table": table, "form": form, "saved": saved}
        # HTMX swaps a 200 only: the row comes back with its errors beside the fields.
        return render(request, f"{PAGE}#three-row", context)
    context = _context(event, round_, _rows(tables, (table.pk, form)))
    return render(request, PAGE, context, status=400)


@login_required
@require_POST
def td_place_points(request: HttpRequest, event_id: int) -> HttpResponse:
    """Set the event's match points for each place at a table."""
    event = _event(selectors.directed_event(request.user, event_id))
    form = PlacePointsForm(request.POST)
    if form.save(event) is None:
        for error in form.non_field_errors() + [e for f in form.errors.values() for e in f]:
            messages.error(request, str(error))
    else:
        messages.success(request, _("Place points saved: the standings follow."))
    return redirect("td-event", event_id=event.pk)
