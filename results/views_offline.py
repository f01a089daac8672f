"""The private-link page as an installable web app: its manifest and its service worker.

Club halls lose Wi-Fi. The service worker (served at ``/k/sw.js`` so that its scope covers
every private link) keeps the page and its static files, so the page opens offline; a
report made offline is kept on the phone by ``static/js/offline.js`` and sent when the
connection returns (the server takes a resent report as the same report: see
``results.services.reports.submit``).
"""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from .views import _entry_or_404

# Where the service worker keeps a report whose POST failed (a cache entry per page path);
# static/js/offline.js reads it from there.
OUTBOX = "/k/_outbox"


@require_GET
@cache_control(no_cache=True)  # a new worker must reach the phones as soon as it is deployed
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/k/sw.js``: the service worker of the private-link pages (scope ``/k/``)."""
    from django.template.loader import render_to_string

    context = {"static_prefix": static(""), "outbox": OUTBOX}
    body = render_to_string("results/sw.js", context)
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = reverse("player-sw").rsplit("/", 1)[0] + "/"
    return response


@require_GET
def manifest(request: HttpRequest, key: str) -> HttpResponse:
    """``/k/<key>/manifest.webmanifest``: installing the page opens the player's own link."""
    entry = _entry_or_404(key)
    page = reverse("player-page", args=[key])
    data = {
        "name": _("Pegboard: %(event)s") % {"event": entry.event.name},
        "short_name": "Pegboard",
        "description": _("Your table, your opponent and your reports at %(event)s.")
        % {"event": entry.event.name},
        "start_url": page,
        "scope": page,
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#146c43",
        "icons": [
            {"src": static("icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return HttpResponse(
        json.dumps(data, ensure_ascii=False), content_type="application/manifest+json"
    )
