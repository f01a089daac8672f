"""Pages of Stoppa events: the tables of every session (public), and the TD's session page
(draw, release, enter each table's chip nets by hand or from verified deal records)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments import hooks, selectors
from tournaments.views_clock import clock_panel

from .forms import StoppaDealsForm, StoppaNetsForm, StoppaTableSizesForm
from .kind import STOPPA


def _stoppa_event(event):
    if not STOPPA.owns(event):
        raise Http404("Not a Stoppa event.")
    return event


@require_GET
def event_sessions(request: HttpRequest, event_id: int) -> HttpResponse:
    """Public: the tables of every released session, with each player's net once entered."""
    event = _stoppa_event(selectors.public_event(event_id))
    context = {
        "event": event,
        "sessions": selectors.stoppa_sessions(event, released_only=True),
    }
    return render(request, "tournaments/stoppa_sessions.html", context)


def _rows(tables, posted=None) -> list[tuple]:
    """(table, nets form, deals form) per table; the posted table keeps its bound forms. A
    table whose players sent nets that wait for confirmations shows them (``table.reported``)
    typed in, for the TD to save as they are."""
    reported = hooks.reported_nets(tables[0].round_id) if tables else {}
    rows = []
    for table in tables:
        table.reported = None if table.has_result else reported.get(table.pk)
        if posted is not None and posted[0] == table.pk:
            rows.append((table, posted[1], posted[2]))
        else:
            initial = {}
            if table.reported is not None:
                initial = {f"net_{pk}": net for pk, net in table.reported.nets.items()}
            rows.append(
                (
                    table,
                    StoppaNetsForm(table=table, initial=initial),
                    StoppaDealsForm(initial={"table": table.pk}, auto_id=f"d{table.pk}-%s"),
                )
            )
    return rows


def _session_context(event, round_, rows) -> dict:
    return {
        "event": event,
        "round": round_,
        "rows": rows,
        "can_redraw": selectors.stoppa_can_redraw(event, round_),
        "sizes_form": StoppaTableSizesForm(
            initial={"table_size": event.table_size, "min_table_size": event.min_table_size}
        ),
        # The round clock, as on a cribbage game's page.
        "clock_panel": clock_panel(event, round_) if not round_.is_draft else None,
    }


@login_required
def td_session(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """The TD's page of one session: one row per table, the players' nets typed in seat order
    (Tab moves on, Enter saves the row and goes to the next table), or the session's deal
    records pasted to be verified and summed. A sum other than zero is a form error and
    changes nothing (HTTP 400 without HTMX)."""
    event = _stoppa_event(selectors.directed_event(request.user, event_id))
    round_ = selectors.event_round(event, number)
    tables = [t for t in selectors.stoppa_tables(round_) if not t.sitting_out]
    if request.method != "POST":
        return render(
            request,
            "tournaments/td_stoppa_session.html",
            _session_context(event, round_, _rows(tables)),
        )
    posted = request.POST.get("table", "")
    table = next((t for t in tables if str(t.pk) == posted), None)
    deals_form = StoppaDealsForm(
        request.POST if request.POST.get("kind") == "deals" else None,
        initial={"table": posted},
        auto_id=f"d{posted}-%s",
    )
    if request.POST.get("kind") == "deals":
        nets_form = StoppaNetsForm(table=table)
        saved = deals_form.save(event, session=number, user=request.user)
    else:
        nets_form = StoppaNetsForm(request.POST, table=table)
        saved = nets_form.save(event, session=number, user=request.user)
    if table is None:
        errors = nets_form.errors if request.POST.get("kind") != "deals" else deals_form.errors
        for error in [e for f in errors.values() for e in f]:
            messages.error(request, error)
        return render(
            request,
            "tournaments/td_stoppa_session.html",
            _session_context(event, round_, _rows(tables)),
            status=400,
        )
    if saved is not None:
        table = selectors.stoppa_tables(round_).get(pk=table.pk)
        if not request.htmx:
            messages.success(request, _("Table %(n)s saved.") % {"n": table.number})
            return redirect("td-session", event_id=event.pk, number=number)
        nets_form = StoppaNetsForm(table=table)
        deals_form = StoppaDealsForm(initial={"table": table.pk}, auto_id=f"d{table.pk}-%s")
    if request.htmx:
        context = {
            "event": event,
            "round": round_,
            "table": table,
            "form": nets_form,
            "deals_form": deals_form,
            "saved": saved,
        }
        return render(request, "tournaments/td_stoppa_session.html#stoppa-row", context)
    context = _session_context(event, round_, _rows(tables, (table.pk, nets_form, deals_form)))
    return render(request, "tournaments/td_stoppa_session.html", context, status=400)


@login_required
@require_POST
def td_table_sizes(request: HttpRequest, event_id: int) -> HttpResponse:
    """Set the largest and the smallest Stoppa table for the next draw."""
    event = _stoppa_event(selectors.directed_event(request.user, event_id))
    form = StoppaTableSizesForm(request.POST)
    if form.save(event) is None:
        for error in form.non_field_errors() + [e for f in form.errors.values() for e in f]:
            messages.error(request, error)
    else:
        messages.success(request, _("Table sizes saved: they apply from the next draw."))
    return redirect("td-event", event_id=event.pk)
