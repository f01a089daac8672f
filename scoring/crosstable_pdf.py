"""The crosstable as a landscape PDF (WeasyPrint), kept in the cache per snapshot version and
language; the printables worker lays out a large field's (``scoring.tasks.crosstable_pdf``)."""

from __future__ import annotations

import hashlib

from django.template.loader import render_to_string
from django.utils import translation

from core import cache
from tournaments.models import Event

from .crosstable import crosstable

PDF_KEPT_FOR = 3600  # seconds a rendered crosstable PDF stays in the cache


def pdf_key(event_id: int, language: str, version: str) -> str:
    """The cache key of an event's crosstable PDF: one per snapshot version and language."""
    digest = hashlib.blake2b(version.encode(), digest_size=12).hexdigest()
    return f"crosstable-pdf:{event_id}:{language}:{digest}"


def render_pdf(event: Event, language: str) -> bytes:
    """The whole crosstable of ``event`` as a landscape PDF, in ``language``."""
    import weasyprint

    with translation.override(language):
        table = crosstable(event, per_page=None)
        html = render_to_string("scoring/crosstable_pdf.html", {"event": event, "table": table})
    return weasyprint.HTML(string=html).write_pdf()


def store_pdf(event_id: int, language: str, key: str) -> bool:
    """Render an event's crosstable PDF into the cache under ``key`` (the printables worker's
    job for a large field); False when the event is gone."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return False
    cache.set(key, render_pdf(event, language), PDF_KEPT_FOR)
    return True
