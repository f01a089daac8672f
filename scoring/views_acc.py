"""The TD's ACC paperwork of an event: the event report (CSV, PDF) and the button that
computes its Master Rating Points."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.errors import ServiceError
from tournaments import selectors

from . import exports
from .acc_report import event_report, report_export, report_pdf
from .mrp_awards import compute_event_mrp


@login_required
@require_GET
def td_acc_report_csv(request: HttpRequest, event_id: int) -> HttpResponse:
    """``/td/events/<id>/acc-report.csv``: the ACC event report, one line per entrant."""
    event = selectors.directed_event(request.user, event_id)
    export = report_export(event_report(event))
    response = HttpResponse(exports.render_csv(export), content_type=exports.CONTENT_TYPES["csv"])
    response["Content-Disposition"] = exports.content_disposition(f"{export.name}.csv")
    return response


@login_required
@require_GET
def td_acc_report_pdf(request: HttpRequest, event_id: int) -> HttpResponse:
    """``/td/events/<id>/acc-report.pdf``: the ACC event report, printable (a few pages,
    rendered at once as the season summary is)."""
    event = selectors.directed_event(request.user, event_id)
    pdf = report_pdf(event_report(event), base_url=request.build_absolute_uri("/"))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = exports.content_disposition(
        f"{event.name} {event.date:%Y-%m-%d} ACC report.pdf"
    )
    return response


@login_required
@require_POST
def td_compute_mrp(request: HttpRequest, event_id: int) -> HttpResponse:
    """Compute (again) the event's Master Rating Points, then back to the event page."""
    event = selectors.directed_event(request.user, event_id)
    try:
        awards = compute_event_mrp(event)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Master Rating Points computed for %(n)s qualifiers.") % {"n": len(awards)},
        )
    return redirect("td-event", event.pk)
