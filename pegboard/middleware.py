"""Hostile requests answered before any view runs, with the answer a client can act on."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse


def _api_error(status: int, code: str, detail: str) -> JsonResponse:
    """The drf-standardized-errors body every API error shares."""
    return JsonResponse(
        {"type": "client_error", "errors": [{"code": code, "detail": detail, "attr": None}]},
        status=status,
    )


class BadInputMiddleware:
    """A body over the upload limit is a 413; a path with a NUL character is a 404.

    PostgreSQL refuses NUL in text, so a key such as ``/k/abc%00def/`` used to reach the
    database and fail there (HTTP 500); and a 10 MB body was read before being refused.
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
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0
        if limit and length > limit:
            detail = f"The request body is over {limit // 1_000_000} MB."
            if api:
                return _api_error(413, "request_too_large", detail)
            return HttpResponse(detail, status=413, content_type="text/plain")
        return self.get_response(request)
