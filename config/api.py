"""Shared API pieces."""

from django.http import HttpRequest, JsonResponse


def api_not_found(request: HttpRequest, rest: str) -> JsonResponse:
    """A JSON 404 for any unknown path under /api/ (clients never get an HTML page)."""
    return JsonResponse(
        {
            "type": "client_error",
            "errors": [{"code": "not_found", "detail": "No such API endpoint.", "attr": None}],
        },
        status=404,
    )
