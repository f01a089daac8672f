"""The crosstable (wall chart) of an event: a public page, paged, and the whole of it as a PDF."""

from __future__ import annotations

import hashlib

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from core import cache
from tournaments.models import Event

from . import exports
from .crosstable import crosstable
from .selectors import standings_event, standings_public, standings_version

PDF_KEPT_FOR = 3600  # seconds a rendered crosstable PDF stays in the cache


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


@require_GET
def event_crosstable_pdf(request: HttpRequest, event_id: int) -> HttpResponse:
    """``/events/<id>/crosstable.pdf``: the whole crosstable, landscape, to pin on the wall.

    Rendered synchronously, like the season summary, once per snapshot: a 1,000-player
    field of nine games is about 70 pages and several seconds of layout."""
    import weasyprint

    event = _event(request, event_id)
    # One render per snapshot version and language (a 1,000-player wall chart takes seconds
    # to lay out): every later download of the same standings comes from the cache.
    version = standings_version(event.pk) if standings_public(event) else None
    digest = hashlib.blake2b(f"{version}".encode(), digest_size=12).hexdigest()
    key = f"crosstable-pdf:{event.pk}:{request.LANGUAGE_CODE}:{digest}"
    pdf = cache.get(key) if version else None
    if pdf is None:
        table = crosstable(event, per_page=None)
        context = {"event": event, "table": table}
        html = render_to_string("scoring/crosstable_pdf.html", context, request)
        pdf = weasyprint.HTML(string=html, base_url=request.build_absolute_uri("/")).write_pdf()
        if version:
            cache.set(key, pdf, PDF_KEPT_FOR)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = exports.content_disposition(f"{event.name} crosstable.pdf")
    return response
