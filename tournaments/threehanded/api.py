"""REST API of three-handed cribbage events: every released game's tables (public), a table's
final scores (TD). A refused table is HTTP 400 with a named code (``score_required``,
``negative_score``, ``score_over_target``, ``no_winner``, ``loser_reached_target``,
``not_at_table``, ...) and nothing is written."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import ServiceError
from tournaments import selectors
from tournaments.error_codes import TournamentsError
from tournaments.limits import MAX_ID, MAX_NUMBER
from tournaments.models import Round, StoppaSeat, StoppaTable
from tournaments.stoppa.api import _NotFoundFor404

from . import services
from .kind import THREE_HANDED


class ThreeHandedSeatSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="entry.player.name")
    score = serializers.IntegerField(
        source="net", allow_null=True, help_text="Final score; null until the table's entry."
    )

    class Meta:
        model = StoppaSeat
        fields = ["position", "entry", "name", "score"]


class ThreeHandedTableSerializer(serializers.ModelSerializer):
    game = serializers.IntegerField(source="round.number")
    number = serializers.IntegerField(help_text="Table number within the game.")
    complete = serializers.BooleanField(source="has_result", help_text="The scores are in.")
    seats = ThreeHandedSeatSerializer(many=True, read_only=True)

    class Meta:
        model = StoppaTable
        fields = ["game", "number", "complete", "note", "seats"]


class ThreeHandedGameSerializer(serializers.ModelSerializer):
    game = serializers.IntegerField(source="number")
    tables = ThreeHandedTableSerializer(many=True, read_only=True, source="stoppa_tables")

    class Meta:
        model = Round
        fields = ["game", "seed", "notes", "tables"]


class ThreeHandedScoreInput(serializers.Serializer):
    entry = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="Entry id of a player at the table."
    )
    score = serializers.IntegerField(
        min_value=0, max_value=999, help_text="The player's final score (the winner's: the target)."
    )


class ThreeHandedResultInput(serializers.Serializer):
    game = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER, help_text="Game number.")
    table = serializers.IntegerField(
        min_value=1, max_value=MAX_NUMBER, help_text="Table number within the game."
    )
    scores = ThreeHandedScoreInput(many=True, help_text="Every player of the table, once.")
    reason = serializers.CharField(
        max_length=300,
        required=False,
        allow_blank=True,
        default="",
        help_text="Why a table's recorded result is changed: needed to change it "
        "(code reason_required), kept in the audit log.",
    )


def _three_handed(event):
    if not THREE_HANDED.owns(event):
        raise NotFound(_("Not a three-handed cribbage event."))
    return event


class ThreeHandedGames(_NotFoundFor404, generics.ListAPIView):
    """The released games of a public three-handed event: tables, seats in order, scores."""

    serializer_class = ThreeHandedGameSerializer
    permission_classes = [permissions.AllowAny]
    pagination_class = None
    queryset = Round.objects.none()  # for the schema; requests use get_queryset

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Round.objects.none()
        event = _three_handed(selectors.public_event(self.kwargs["event_id"]))
        return selectors.stoppa_sessions(event, released_only=True)


class ThreeHandedResultCreate(_NotFoundFor404, generics.GenericAPIView):
    """Record (or correct) a table's final scores. Only a TD of the event's club."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = ThreeHandedResultInput

    @extend_schema(request=ThreeHandedResultInput, responses={201: ThreeHandedTableSerializer})
    def post(self, request: Request, event_id: int) -> Response:
        event = _three_handed(selectors.directed_event(request.user, event_id))
        data = ThreeHandedResultInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        table = StoppaTable.objects.filter(
            round__event=event, round__number=values["game"], number=values["table"]
        ).first()
        if table is None:
            raise ServiceError(
                TournamentsError.UNKNOWN_TABLE,
                _("Game %(game)s has no table %(table)s.")
                % {"game": values["game"], "table": values["table"]},
                field="table",
            )
        scores: dict[int, int] = {}
        for row in values["scores"]:
            if row["entry"] in scores:
                raise ServiceError(
                    TournamentsError.DUPLICATE_ENTRY, _("A player is listed twice."), field="scores"
                )
            scores[row["entry"]] = row["score"]
        saved = services.record_table_scores(
            event, table=table, scores=scores, user=request.user, reason=values["reason"]
        )
        saved = selectors.stoppa_tables(saved.round).select_related("round").get(pk=saved.pk)
        return Response(ThreeHandedTableSerializer(saved).data, status=status.HTTP_201_CREATED)


class ThreeHandedPlacePoints(serializers.Serializer):
    points_first = serializers.IntegerField(
        min_value=0, max_value=services.MAX_PLACE_POINTS, help_text="The winner of a table."
    )
    points_second = serializers.IntegerField(
        min_value=0,
        max_value=services.MAX_PLACE_POINTS,
        help_text="Second at a table of three (two tied on second both get them).",
    )
    points_third = serializers.IntegerField(
        min_value=0,
        max_value=services.MAX_PLACE_POINTS,
        help_text="Last place: third at a table of three, second at a table of two.",
    )


class ThreeHandedPlacePointsView(_NotFoundFor404, generics.GenericAPIView):
    """The event's match points for each place at a table: read (anyone, a public event) or
    set (PUT, a TD of the event's club; the standings follow)."""

    serializer_class = ThreeHandedPlacePoints

    def get_permissions(self):
        if self.request.method == "GET":
            return [permissions.AllowAny()]
        return [permissions.IsAuthenticated()]

    @staticmethod
    def _points(event) -> dict:
        return {
            "points_first": event.points_first,
            "points_second": event.points_second,
            "points_third": event.points_third,
        }

    @extend_schema(responses={200: ThreeHandedPlacePoints})
    def get(self, request: Request, event_id: int) -> Response:
        return Response(self._points(_three_handed(selectors.public_event(event_id))))

    @extend_schema(request=ThreeHandedPlacePoints, responses={200: ThreeHandedPlacePoints})
    def put(self, request: Request, event_id: int) -> Response:
        event = _three_handed(selectors.directed_event(request.user, event_id))
        data = ThreeHandedPlacePoints(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        event = services.set_place_points(
            event,
            first=values["points_first"],
            second=values["points_second"],
            third=values["points_third"],
        )
        return Response(self._points(event))
