"""The crosstable (wall chart) of an event: a public page, paged, and the whole of it as a PDF."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from core import cache
from tournaments.models import Event

from . import exports
from .crosstable import crosstable, crosstable_cells_count
from .crosstable_pdf import PDF_KEPT_FOR, pdf_key, render_pdf
from .selectors import standings_event, standings_public, standings_version

# A wall chart up to this many cells is laid out while the reader waits (a club night: well
# under a second); a larger one (1,000 players x 9 games: about a minute of WeasyPrint on a
# busy 2-core machine) goes to the printables worker and the page waits for it.
SYNC_CELLS = 2500
PENDING_FOR = 600  # seconds a queued render is not queued again


def _event(request: HttpRequest, event_id: int) -> Event:
    """The event whose crosstable ``request`` may read: the public once the standings are
    published, the event's TD always (404 otherwise)."""
    event = standings_event(request.user, event_id)
    if event is None:
        raise Http404("No such event, or its standings are not published.")
    return event


def _page(request: HttpRequest) -> int:
    value = request.GET.get("page", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) < 7 else 1


@require_GET
def event_crosstable(request: HttpRequest, event_id: int) -> HttpResponse:
    """``/events/<id>/crosstable/``: who played whom, game by game, a page of rows at a time
    in standings order (``?page=``), linked from the event's public page."""
    event = _event(request, event_id)
    table = crosstable(event, page=_page(request))
    return render(
        request, "scoring/crosstable.html", {"event": event, "table": table, "public": True}
    )


def _pdf_response(event: Event, pdf: bytes) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = exports.content_disposition(f"{event.name} crosstable.pdf")
    return response


@require_GET
def event_crosstable_pdf(request: HttpRequest, event_id: int) -> HttpResponse:
    """``/events/<id>/crosstable.pdf``: the whole crosstable, landscape, to pin on the wall.

    Rendered once per snapshot and language, then read from the cache. A small field is laid
    out while the reader waits; a large one is handed to the printables worker, and the
    reader gets a page that reloads until the PDF is ready (202)."""
    event = _event(request, event_id)
    language = request.LANGUAGE_CODE
    version = standings_version(event.pk) if standings_public(event) else None
    if version is None:  # the TD's look at unpublished standings: never cached
        return _pdf_response(event, render_pdf(event, language))
    key = pdf_key(event.pk, language, version)
    pdf = cache.get(key)
    if pdf is not None:
        return _pdf_response(event, pdf)
    if crosstable_cells_count(event) <= SYNC_CELLS:
        pdf = render_pdf(event, language)
        cache.set(key, pdf, PDF_KEPT_FOR)
        return _pdf_response(event, pdf)
    queued = cache.add(f"{key}:queued", 1, PENDING_FOR)
    if queued is None:  # no cache to hand the PDF over through: laid out here
        return _pdf_response(event, render_pdf(event, language))
    if queued:
        from .tasks import crosstable_pdf

        crosstable_pdf.delay(event.pk, language, key)
        pdf = cache.get(key)  # an eager worker (tests, a worker-less machine) has it already
        if pdf is not None:
            return _pdf_response(event, pdf)
    return render(request, "scoring/crosstable_pending.html", {"event": event}, status=202)
