"""Hostile requests answered before any view runs, with the answer a client can act on."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _


def _api_error(status: int, code: str, detail: str) -> JsonResponse:
    """The drf-standardized-errors body every API error shares."""
    return JsonResponse(
        {"type": "client_error", "errors": [{"code": code, "detail": detail, "attr": None}]},
        status=status,
    )


class BadInputMiddleware:
    """A body over the upload limit is a 413; a path with a NUL character is a 404.

    PostgreSQL refuses NUL in text, so such a path (``/k/abc%00def/``) must not reach the
    database; and a body over the limit is refused before it is read.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        api = request.path.startswith("/api/")
        if "\x00" in request.path:
            if api:
                return _api_error(404, "not_found", "No such API endpoint.")
            return HttpResponse("Not found.", status=404, content_type="text/plain")
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = _body_limit(request)
        if limit and length > limit:
            detail = _("The request is over %(mb)s MB, the limit for this page.") % {
                "mb": limit // (1024 * 1024)
            }
            if api:
                return _api_error(413, "request_too_large", detail)
            return render(request, "413.html", {"detail": detail}, status=413)
        return self.get_response(request)


def _body_limit(request: HttpRequest) -> int:
    """The largest body a request may send: the event archive's import page takes the archive
    limit (and a little for the form around the file), every other request the upload limit."""
    try:
        name = resolve(request.path_info).url_name
    except Resolver404:
        name = None
    if name in settings.LARGE_UPLOAD_PAGES:
        return settings.ARCHIVE_MAX_BYTES + 64 * 1024
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0


# --- A database connection lost mid-request --------------------------------------------------

RETRY_AFTER_SECONDS = 2
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def retry_safe_when(predicate: Callable[[HttpRequest], bool]) -> Callable:
    """Mark a view whose writes may be sent twice (e.g. a player's report: a resent report is
    the same report): a request that lost its database connection is then run once more."""

    def mark(view: Callable) -> Callable:
        view.db_retry_safe = predicate  # type: ignore[attr-defined]
        return view

    return mark


def _retry_safe(request: HttpRequest, view: Callable) -> bool:
    if request.method in SAFE_METHODS:
        return True
    # A DRF view's class carries the mark (as_view() returns a new function).
    predicate = getattr(view, "db_retry_safe", None) or getattr(
        getattr(view, "cls", None), "db_retry_safe", None
    )
    return bool(predicate and predicate(request))


class LostConnectionMiddleware:
    """A request whose database connection died (the server restarted or terminated it, the
    pool could not hand one out in time) is run once more on a new connection when that is
    safe: reads, and writes marked retry-safe. Otherwise, or when the second try fails too,
    the answer is a 503 with Retry-After (the player's page and its offline queue send the
    report again), never a 500.

    Django's own handler turns the view's exception into a response; ``process_exception``
    sees it first and marks the request.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if getattr(request, "_db_lost", None) == "retry":
            request._db_lost = None  # type: ignore[attr-defined]
            request._db_retried = True  # type: ignore[attr-defined]
            response = self.get_response(request)
        if getattr(request, "_db_lost", None) is not None:
            return _unavailable(request)
        return response

    def process_view(self, request: HttpRequest, view: Callable, args, kwargs) -> None:
        if request.method not in SAFE_METHODS and not request.content_type.startswith("multipart/"):
            # Read the body now (within the upload limit, checked before any view): a second
            # run of the view reads it again from memory.
            request.body  # noqa: B018
        request._db_retry_safe = _retry_safe(request, view)  # type: ignore[attr-defined]

    def process_exception(self, request: HttpRequest, exception: Exception):
        from django.db import InterfaceError, OperationalError, connections

        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        for conn in connections.all(initialized_only=True):
            if not conn.in_atomic_block:
                # Broken or not, a new connection (or the pool's next one) serves the retry.
                conn.close()
        if getattr(request, "_db_retried", False):
            request._db_lost = "again"  # type: ignore[attr-defined]
        elif getattr(request, "_db_retry_safe", request.method in SAFE_METHODS):
            request._db_lost = "retry"  # type: ignore[attr-defined]
        else:
            request._db_lost = "unsafe"  # type: ignore[attr-defined]
        return _unavailable(request)


def _unavailable(request: HttpRequest) -> HttpResponse:
    detail = _("The database did not answer for a moment. Try again in a few seconds.")
    if request.path.startswith("/api/"):
        response: HttpResponse = _api_error(503, "database_unavailable", detail)
    else:
        # A page of its own, no menu: the menu would ask the database that just failed.
        response = render(request, "503.html", {"detail": detail}, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
