"""REST API of events: list and read (public), post a result (the event's TD)."""

from __future__ import annotations

import django_filters
from django.db.models import Prefetch
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from pegboard.drf import as_validation_error
from pegboard.errors import ServiceError
from tournaments.limits import MAX_ID, MAX_NUMBER, MAX_SCORE
from tournaments.outcome import format_spread

from . import selectors, services
from .models import Bracket, Entry, Event, GameResult, PlayoffGame, PlayoffMatch, Round, Table


class ClubSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()


class EventSerializer(serializers.ModelSerializer):
    club = ClubSerializer(read_only=True)
    match_point_format = serializers.SlugRelatedField(slug_field="code", read_only=True)

    class Meta:
        model = Event
        fields = [
            "id",
            "club",
            "name",
            "date",
            "game",
            "kind",
            "games_planned",
            "target",
            "match_point_format",
            "muggins",
            "status",
            "standings_published",
        ]


class EntrySerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="player.name")
    acc_number = serializers.CharField(source="player.acc_number")

    class Meta:
        model = Entry
        fields = ["id", "name", "acc_number", "checked_in", "withdrawn"]


class ResultSerializer(serializers.ModelSerializer):
    game = serializers.IntegerField(source="table.round.number")
    table = serializers.IntegerField(source="table.number", allow_null=True)
    spread = serializers.SerializerMethodField()

    class Meta:
        model = GameResult
        fields = [
            "id",
            "game",
            "table",
            "kind",
            "winner",
            "loser",
            "loser_score",
            "winner_points",
            "loser_points",
            "margin",
            "spread",
            "skunk_level",
        ]

    def get_spread(self, obj: GameResult) -> str:
        return format_spread(obj.margin)


class TableSerializer(serializers.ModelSerializer):
    result = ResultSerializer(read_only=True, allow_null=True, default=None)

    class Meta:
        model = Table
        fields = ["number", "seat_a", "seat_b", "note", "result"]


class GameSerializer(serializers.ModelSerializer):
    tables = TableSerializer(many=True, read_only=True)

    class Meta:
        model = Round
        fields = ["number", "seed", "notes", "tables"]


class EventDetailSerializer(EventSerializer):
    entries = EntrySerializer(many=True, read_only=True)
    games = GameSerializer(many=True, read_only=True, source="rounds")

    class Meta(EventSerializer.Meta):
        fields = [*EventSerializer.Meta.fields, "entries", "games"]


class EventFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(field_name="club__slug")
    date_from = django_filters.DateFilter(field_name="date", lookup_expr="gte")
    date_to = django_filters.DateFilter(field_name="date", lookup_expr="lte")

    class Meta:
        model = Event
        fields = ["club", "status", "game", "date_from", "date_to"]


class EventList(generics.ListAPIView):
    """Events open to the public (past their draft), newest first."""

    serializer_class = EventSerializer
    filterset_class = EventFilter
    permission_classes = [permissions.AllowAny]

    def get_queryset(self):
        return selectors.public_events().order_by("-date", "name")


class EventDetail(generics.RetrieveAPIView):
    """One public event with its entries and every game's tables and results."""

    serializer_class = EventDetailSerializer
    permission_classes = [permissions.AllowAny]
    lookup_url_kwarg = "event_id"

    def get_object(self) -> Event:
        event = selectors.public_event(self.kwargs["event_id"])
        return (
            Event.objects.filter(pk=event.pk)
            .select_related("club", "match_point_format")
            .prefetch_related(
                "entries__player",
                Prefetch("rounds", queryset=Round.objects.filter(status=Round.Status.RELEASED)),
                "rounds__tables__result__table__round",
            )
            .get()
        )


class ResultInput(serializers.Serializer):
    game = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER, help_text="Game number.")
    table = serializers.IntegerField(
        min_value=1, max_value=MAX_NUMBER, help_text="Table number within the game."
    )
    winner = serializers.IntegerField(
        min_value=-MAX_ID, max_value=MAX_ID, help_text="Entry id of the winner."
    )
    loser_score = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=-MAX_SCORE,
        max_value=MAX_SCORE,
        help_text="The loser's score (0 to target - 1).",
    )
    forfeit = serializers.BooleanField(default=False)
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=300,
        help_text="Why a result already recorded is changed (required to change one).",
    )


class ResultCreate(generics.GenericAPIView):
    """Record (or change, with a reason) a table's result. Only a TD of the event's club."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = ResultInput

    @extend_schema(request=ResultInput, responses={201: ResultSerializer})
    def post(self, request: Request, event_id: int) -> Response:
        event = selectors.directed_event(request.user, event_id)
        data = ResultInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        table = Table.objects.filter(
            round__event=event, round__number=values["game"], number=values["table"]
        ).first()
        try:
            if table is None:
                raise ServiceError(
                    "unknown_table",
                    _("Game %(game)s has no table %(table)s.")
                    % {"game": values["game"], "table": values["table"]},
                    field="table",
                )
            result = services.record_result(
                event,
                table=table,
                winner=values["winner"],
                loser_score=values.get("loser_score"),
                forfeit=values["forfeit"],
                reason=values.get("reason", ""),
                user=request.user,
            )
        except ServiceError as exc:
            raise as_validation_error(exc) from None
        return Response(ResultSerializer(result).data, status=status.HTTP_201_CREATED)

    def handle_exception(self, exc):
        # A TD of another club learns nothing about this event: 404, as for a missing one.
        if isinstance(exc, Http404):
            from rest_framework.exceptions import NotFound

            exc = NotFound("No such event.")
        return super().handle_exception(exc)


class PlayoffSeatSerializer(serializers.Serializer):
    entry = serializers.IntegerField(allow_null=True, help_text="Entry id; null while waiting.")
    name = serializers.CharField(allow_null=True)
    seed = serializers.IntegerField(allow_null=True)
    bye = serializers.BooleanField(help_text="Nobody will come to this seat.")
    wins = serializers.IntegerField()


class PlayoffGameSerializer(serializers.ModelSerializer):
    class Meta:
        model = PlayoffGame
        fields = ["number", "winner", "loser_score", "forfeit"]


class PlayoffMatchSerializer(serializers.ModelSerializer):
    seats = serializers.SerializerMethodField()
    games = PlayoffGameSerializer(many=True, read_only=True)

    class Meta:
        model = PlayoffMatch
        fields = [
            "code",
            "section",
            "round",
            "number",
            "best_of",
            "seats",
            "winner",
            "decided",
            "walkover",
            "winner_to",
            "loser_to",
            "games",
        ]

    @extend_schema_field(PlayoffSeatSerializer(many=True))
    def get_seats(self, obj: PlayoffMatch) -> list[dict]:
        seats = []
        for entry, seed, empty, wins in (
            (obj.seat_a, obj.seed_a, obj.empty_a, obj.wins_a),
            (obj.seat_b, obj.seed_b, obj.empty_b, obj.wins_b),
        ):
            seats.append(
                {
                    "entry": entry.pk if entry else None,
                    "name": entry.player.name if entry else None,
                    "seed": seed,
                    "bye": empty,
                    "wins": wins,
                }
            )
        return seats


class PlaceSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    entry = serializers.IntegerField()
    name = serializers.CharField()


class BracketSerializer(serializers.ModelSerializer):
    seeds = serializers.ListField(
        child=serializers.IntegerField(), help_text="Entry ids, seed 1 first."
    )
    best_of = serializers.ListField(child=serializers.IntegerField())
    places = serializers.SerializerMethodField()
    matches = PlayoffMatchSerializer(many=True, read_only=True)

    class Meta:
        model = Bracket
        fields = [
            "source",
            "entrants",
            "seeds",
            "best_of",
            "side_best_of",
            "third_place",
            "consolation",
            "double_elimination",
            "champion",
            "places",
            "matches",
        ]

    @extend_schema_field(PlaceSerializer(many=True))
    def get_places(self, obj: Bracket) -> list[dict]:
        names = dict(obj.event.entries.values_list("pk", "player__name"))
        rows = sorted((place, int(pk)) for pk, place in (obj.places or {}).items())
        return [{"place": p, "entry": pk, "name": names.get(pk, "")} for p, pk in rows]


class EventBracket(generics.RetrieveAPIView):
    """The playoff bracket of a public event: matches, games, champion and final places."""

    serializer_class = BracketSerializer
    permission_classes = [permissions.AllowAny]

    def get_object(self) -> Bracket:
        event = selectors.public_event(self.kwargs["event_id"])
        bracket = (
            Bracket.objects.filter(event=event)
            .select_related("event")
            .prefetch_related(
                Prefetch(
                    "matches",
                    queryset=PlayoffMatch.objects.select_related(
                        "seat_a__player", "seat_b__player"
                    ).prefetch_related("games"),
                )
            )
            .first()
        )
        if bracket is None:
            raise Http404("No playoff yet.")
        return bracket
