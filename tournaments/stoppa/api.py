"""REST API of Stoppa events: the tables of every session (public), a table's chip nets (TD).

A table's nets are posted as one list (every player, summing to zero) or as the session's
deal records, each verified by ``games.stoppa.verify_deal`` and summed. A refused entry is
HTTP 400 with a named code (``nets_not_zero``, ``net_missing``, ``not_at_table``,
``deal_rejected``, ``incomplete_session``, ...) and nothing is written.
"""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import ServiceError
from tournaments import selectors
from tournaments.error_codes import TournamentsError
from tournaments.limits import MAX_ID, MAX_NET, MAX_NUMBER
from tournaments.models import Round, StoppaSeat, StoppaTable

from . import services as services_stoppa
from .kind import STOPPA


class StoppaSeatSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="entry.player.name")
    net = serializers.IntegerField(
        allow_null=True, help_text="Chip net for the session; null until the table's entry."
    )

    class Meta:
        model = StoppaSeat
        fields = ["position", "entry", "name", "net"]


class StoppaTableSerializer(serializers.ModelSerializer):
    session = serializers.IntegerField(source="round.number")
    number = serializers.IntegerField(
        allow_null=True, help_text="Table number; null for the players sitting out."
    )
    sitting_out = serializers.BooleanField()
    complete = serializers.BooleanField(source="has_result", help_text="The nets are in.")
    seats = StoppaSeatSerializer(many=True, read_only=True)

    class Meta:
        model = StoppaTable
        fields = ["session", "number", "sitting_out", "complete", "source", "note", "seats"]


class StoppaSessionSerializer(serializers.ModelSerializer):
    session = serializers.IntegerField(source="number")
    tables = StoppaTableSerializer(many=True, read_only=True, source="stoppa_tables")

    class Meta:
        model = Round
        fields = ["session", "seed", "notes", "tables"]


class NetInput(serializers.Serializer):
    entry = serializers.IntegerField(
        min_value=-MAX_ID, max_value=MAX_ID, help_text="Entry id of a player at the table."
    )
    net = serializers.IntegerField(
        min_value=-MAX_NET,
        max_value=MAX_NET,
        help_text="Chips won (+) or lost (-) over the session.",
    )


class StoppaResultInput(serializers.Serializer):
    session = serializers.IntegerField(
        min_value=1, max_value=MAX_NUMBER, help_text="Session (game) number."
    )
    table = serializers.IntegerField(
        min_value=1, max_value=MAX_NUMBER, help_text="Table number within the session."
    )
    nets = NetInput(
        many=True, required=False, help_text="Every player's net; they must sum to zero."
    )
    deals = serializers.ListField(
        child=serializers.JSONField(),
        required=False,
        help_text="The session's deal records (games/stoppa/README.md), one per deal: one "
        "full rotation, each player dealing once. Verified, then summed.",
    )
    reason = serializers.CharField(
        max_length=300,
        required=False,
        allow_blank=True,
        default="",
        help_text="Why a table's recorded result is changed: needed to change it "
        "(code reason_required), kept in the audit log.",
    )

    def validate(self, attrs):
        if ("nets" in attrs) == ("deals" in attrs):
            raise serializers.ValidationError(
                _("Give either the nets or the deal records of the table."), code="nets_or_deals"
            )
        return attrs


class _NotFoundFor404:
    def handle_exception(self, exc):
        # A TD of another club learns nothing about this event: 404, as for a missing one.
        if isinstance(exc, Http404):
            exc = NotFound("No such event.")
        return super().handle_exception(exc)


class StoppaSessions(_NotFoundFor404, generics.ListAPIView):
    """The released sessions of a public Stoppa event: tables, seats in order, nets."""

    serializer_class = StoppaSessionSerializer
    permission_classes = [permissions.AllowAny]
    pagination_class = None
    queryset = Round.objects.none()  # for the schema; requests use get_queryset

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Round.objects.none()
        event = selectors.public_event(self.kwargs["event_id"])
        if not STOPPA.owns(event):
            raise NotFound(_("Not a Stoppa event."))
        return selectors.stoppa_sessions(event, released_only=True)


class StoppaResultCreate(_NotFoundFor404, generics.GenericAPIView):
    """Record (or correct) a Stoppa table's session nets. Only a TD of the event's club."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = StoppaResultInput

    @extend_schema(request=StoppaResultInput, responses={201: StoppaTableSerializer})
    def post(self, request: Request, event_id: int) -> Response:
        event = selectors.directed_event(request.user, event_id)
        if not STOPPA.owns(event):
            raise NotFound(_("Not a Stoppa event."))
        data = StoppaResultInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        table = StoppaTable.objects.filter(
            round__event=event, round__number=values["session"], number=values["table"]
        ).first()
        if table is None:
            raise ServiceError(
                TournamentsError.UNKNOWN_TABLE,
                _("Session %(session)s has no table %(table)s.")
                % {"session": values["session"], "table": values["table"]},
                field="table",
            )
        if "deals" in values:
            saved = services_stoppa.record_session_deals(
                event,
                table=table,
                deals=values["deals"],
                user=request.user,
                reason=values["reason"],
            )
        else:
            nets: dict[int, int] = {}
            for row in values["nets"]:
                if row["entry"] in nets:
                    raise ServiceError(
                        TournamentsError.DUPLICATE_ENTRY,
                        _("A player is listed twice."),
                        field="nets",
                    )
                nets[row["entry"]] = row["net"]
            saved = services_stoppa.record_session_nets(
                event, table=table, nets=nets, user=request.user, reason=values["reason"]
            )
        saved = selectors.stoppa_tables(saved.round).select_related("round").get(pk=saved.pk)
        return Response(StoppaTableSerializer(saved).data, status=status.HTTP_201_CREATED)
