"""The TD API of an event's ACC paperwork (issue 27): the event report (JSON, CSV or PDF) and
computing its Master Rating Points."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import renderers, serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api_td import TD_ERRORS, TDView
from tournaments.api_td.serializers import NoInput

from . import exports
from .acc_report import event_report, report_export, report_pdf
from .api_export import CSVRenderer
from .models import MrpAward
from .mrp_awards import compute_event_mrp

REPORT_FORMATS = ("json", "csv", "pdf")


class PDFRenderer(renderers.BaseRenderer):
    """Lets ``?format=pdf`` through DRF's content negotiation; the view writes the bytes."""

    media_type = "application/pdf"
    format = "pdf"
    charset = None
    render_style = "binary"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data


class MrpAwardSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="entry.name", read_only=True)

    class Meta:
        model = MrpAward
        fields = [
            "entry",
            "name",
            "qualifying_rank",
            "game_points",
            "points",
            "basis",
            "provisional",
            "rules_effective",
        ]
        read_only_fields = fields


class EventAccReport(TDView):
    """The ACC event report of an event its TD runs."""

    renderer_classes = [renderers.JSONRenderer, CSVRenderer, PDFRenderer]

    @extend_schema(
        summary="The ACC event report",
        description="One line per entrant in final places: ACC number, member or guest, "
        "games, game points, Master Rating Points (a Main or Consolation event; "
        "`provisional` where the table is unverified) or Grass Roots points (a club night, "
        "members only), and the payback column (empty until the money app gives it). " + TD_ERRORS,
        parameters=[
            OpenApiParameter(
                "format",
                str,
                enum=list(REPORT_FORMATS),
                description="json (the default), csv (UTF-8 with a BOM) or pdf.",
            )
        ],
        responses={
            (200, "application/json"): OpenApiResponse(
                OpenApiTypes.OBJECT, description="The event, the columns and the rows."
            ),
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="The CSV."),
            (200, "application/pdf"): OpenApiResponse(
                OpenApiTypes.BINARY, description="The printable report."
            ),
        },
    )
    def get(self, request: Request, event_id: int) -> HttpResponse:
        fmt = request.query_params.get("format", "json")
        if fmt not in REPORT_FORMATS:
            raise NotFound(_("No such export."))
        event = self.event()
        report = event_report(event)
        if fmt == "pdf":
            response = HttpResponse(
                report_pdf(report, base_url=request.build_absolute_uri("/")),
                content_type="application/pdf",
            )
            response["Content-Disposition"] = exports.content_disposition(
                f"{event.name} {event.date:%Y-%m-%d} ACC report.pdf"
            )
            return response
        export = report_export(report)
        response = HttpResponse(
            exports.render(export, fmt), content_type=exports.CONTENT_TYPES[fmt]
        )
        response["Content-Disposition"] = exports.content_disposition(f"{export.name}.{fmt}")
        return response


class ComputeMrp(TDView):
    """Compute (again) a finished Main or Consolation event's Master Rating Points."""

    @extend_schema(
        summary="Compute an event's Master Rating Points",
        description="From the ACC's rules in force on the event's date (books.mrp): the "
        "qualifiers' points, the upper half by the loaded table (provisional while it is "
        "unverified), the lower half the fixed award. " + TD_ERRORS,
        request=NoInput,
        responses={200: MrpAwardSerializer(many=True)},
    )
    def post(self, request: Request, event_id: int) -> Response:
        awards = compute_event_mrp(self.event())
        rows = MrpAward.objects.filter(pk__in=[a.pk for a in awards]).select_related(
            "entry__player", "entry__partner"
        )
        return Response(MrpAwardSerializer(rows.order_by("qualifying_rank"), many=True).data)
