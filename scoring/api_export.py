"""REST API of the exports: an event's standings, results, seating or bracket as CSV or JSON."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, renderers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.views import APIView

from tournaments import selectors
from tournaments.limits import MAX_NUMBER

from . import exports
from .views_export import download


class CSVRenderer(renderers.BaseRenderer):
    """Lets ``?format=csv`` through DRF's content negotiation; the view writes the bytes."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data


def _number(request: Request, name: str) -> int | None:
    value = request.query_params.get(name, "")
    if value.isascii() and value.isdigit() and int(value) <= MAX_NUMBER:
        return int(value)
    return None


@extend_schema(
    parameters=[
        OpenApiParameter(
            "what",
            str,
            OpenApiParameter.PATH,
            enum=list(exports.WHATS),
            description="What to export.",
        ),
        OpenApiParameter(
            "format",
            str,
            enum=list(exports.FORMATS),
            description="csv (UTF-8 with a BOM, formula-safe) or json (the default).",
        ),
        OpenApiParameter("after_game", int, description="Standings after this game."),
        OpenApiParameter("game", int, description="Seating of this game only."),
    ],
    responses={
        (200, "application/json"): OpenApiResponse(
            OpenApiTypes.OBJECT,
            description="The event, the columns (key and label) and the rows by column key.",
        ),
        (200, "text/csv"): OpenApiResponse(
            OpenApiTypes.STR, description="A header row of labels, then one line per row."
        ),
        404: OpenApiResponse(
            description="No such event, standings not published, no playoff, or a game kind "
            "without this export."
        ),
    },
)
class EventExport(APIView):
    """An event's standings, results, seating or bracket as a file to download: public once
    the event is past its draft (standings once published, released games only); the
    event's TD gets unpublished standings and draft games too."""

    permission_classes = [permissions.AllowAny]
    renderer_classes = [renderers.JSONRenderer, CSVRenderer]

    def get(self, request: Request, event_id: int, what: str) -> HttpResponse:
        if what not in exports.WHATS:
            raise NotFound(_("No such export."))
        fmt = request.query_params.get("format", "json")
        if fmt not in exports.FORMATS:
            raise NotFound(_("No such export."))
        event = selectors.events_directed_by(request.user).filter(pk=event_id).first()
        director = event is not None
        if event is None:
            event = selectors.public_events().filter(pk=event_id).first()
        if event is None:
            raise NotFound(_("No such event."))
        try:
            export = exports.event_export(
                event,
                what,
                after_game=_number(request, "after_game"),
                game=_number(request, "game"),
                director=director,
            )
        except exports.ExportUnavailable as exc:
            raise NotFound(str(exc)) from None
        return download(export, fmt)
