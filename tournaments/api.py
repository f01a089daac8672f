"""REST API of events: list and read (public), post a result (the event's TD)."""

from __future__ import annotations

import django_filters
from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django_filters import rest_framework as drf_filters
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, permissions, serializers, status
from rest_framework.authentication import (
    BasicAuthentication,
    SessionAuthentication,
    TokenAuthentication,
)
from rest_framework.request import Request
from rest_framework.response import Response

from core.drf import KeysetCursorPagination
from core.errors import ServiceError
from tournaments.limits import MAX_ID, MAX_NUMBER, MAX_SCORE
from tournaments.outcome import format_spread

from . import selectors, services
from .clock import clock_of
from .error_codes import TournamentsError
from .models import (
    Bracket,
    Entry,
    Event,
    GameResult,
    PlayoffGame,
    PlayoffMatch,
    Round,
    Table,
    entry_names,
)


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
    name = serializers.CharField(help_text="The player's name; a team's: both partners'.")
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


def _api_url(serializer: serializers.Serializer, name: str, *args: object) -> str:
    """The absolute URL of API route ``name`` (relative without a request in the context)."""
    url = reverse(name, args=args)
    request = serializer.context.get("request")
    return request.build_absolute_uri(url) if request is not None else url


class ClockSerializer(serializers.Serializer):
    """A game's round clock at the server's ``now`` (issue 28)."""

    game = serializers.IntegerField(help_text="Game number.")
    state = serializers.ChoiceField(
        choices=Round.Clock.choices,
        help_text="`time`: the clock ran out (a running clock past its end).",
    )
    minutes = serializers.IntegerField(allow_null=True, help_text="Minutes given, with any added.")
    ends_at = serializers.DateTimeField(allow_null=True, help_text="When it ends (running).")
    seconds_left = serializers.IntegerField(
        allow_null=True, help_text="Seconds left (running or paused; 0 at time)."
    )
    now = serializers.DateTimeField(
        help_text="The server's time of this reading: count down from it, not the device's."
    )


class GameSerializer(serializers.ModelSerializer):
    table_count = serializers.IntegerField(help_text="Tables of the game, byes included.")
    result_count = serializers.IntegerField(help_text="Tables with a result.")
    tables_url = serializers.SerializerMethodField(help_text="The game's tables (paginated).")

    class Meta:
        model = Round
        fields = [
            "number",
            "seed",
            "method",
            "notes",
            "table_count",
            "result_count",
            "tables_url",
            "clock",
        ]

    clock = serializers.SerializerMethodField(help_text="The game's round clock.")

    @extend_schema_field(ClockSerializer)
    def get_clock(self, obj: Round) -> dict:
        return ClockSerializer(clock_of(obj)).data

    def get_tables_url(self, obj: Round) -> str:
        return _api_url(self, "api-game-tables", obj.event_id, obj.number)


class EventDetailSerializer(EventSerializer):
    """An event with counts and the links to its lists, never the lists themselves."""

    entry_count = serializers.IntegerField(help_text="Entries, withdrawn ones included.")
    game_count = serializers.IntegerField(help_text="Released games.")
    entries_url = serializers.SerializerMethodField(help_text="The entries (paginated).")
    games_url = serializers.SerializerMethodField(help_text="The released games (paginated).")
    results_url = serializers.SerializerMethodField(help_text="The results (paginated).")
    standings_url = serializers.SerializerMethodField(
        help_text="The standings (paginated; 404 while they are not published)."
    )

    class Meta(EventSerializer.Meta):
        fields = [
            *EventSerializer.Meta.fields,
            "entry_count",
            "game_count",
            "entries_url",
            "games_url",
            "results_url",
            "standings_url",
        ]

    def get_entries_url(self, obj: Event) -> str:
        return _api_url(self, "api-entries", obj.pk)

    def get_games_url(self, obj: Event) -> str:
        return _api_url(self, "api-games", obj.pk)

    def get_results_url(self, obj: Event) -> str:
        return _api_url(self, "api-results", obj.pk)

    def get_standings_url(self, obj: Event) -> str:
        return _api_url(self, "api-standings", obj.pk)


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
    """One public event: its fields, how many entries and games it has, and the links to
    its entries, games, results and standings (each a paginated list)."""

    serializer_class = EventDetailSerializer
    permission_classes = [permissions.AllowAny]
    lookup_url_kwarg = "event_id"

    def get_object(self) -> Event:
        return selectors.public_event_summary(self.kwargs["event_id"])


class EventScopedList(generics.ListAPIView):
    """A paginated list of one public event (404 for a draft or a missing one), by cursor."""

    permission_classes = [permissions.AllowAny]
    pagination_class = KeysetCursorPagination
    filter_backends: list = []

    def event(self) -> Event:
        """The public event of the URL, read once per request; the club's TD also reads a
        draft event's lists (their scripts set it up before it goes public)."""
        if not hasattr(self, "_event"):
            try:
                self._event = selectors.public_event(self.kwargs["event_id"])
            except Http404:
                self._event = selectors.directed_event(self.request.user, self.kwargs["event_id"])
        return self._event


class EventEntries(EventScopedList):
    """The entries of a public event, in entry order."""

    serializer_class = EntrySerializer
    cursor_ordering = ("id",)
    queryset = Entry.objects.none()  # for the schema; requests use get_queryset

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Entry.objects.none()
        return selectors.api_entries(self.event())


class EventGames(EventScopedList):
    """The released games of a public event with their counts, without their tables."""

    serializer_class = GameSerializer
    cursor_ordering = ("number",)
    queryset = Round.objects.none()

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Round.objects.none()
        return selectors.public_games(self.event())


class TableFilter(django_filters.FilterSet):
    open = drf_filters.BooleanFilter(  # the DRF flavour reads 1/0 as well as true/false
        method="filter_open", label=_lazy("Only the tables without a result (open=1).")
    )

    class Meta:
        model = Table
        fields = ["open"]

    def filter_open(self, queryset: QuerySet[Table], name: str, value: bool) -> QuerySet[Table]:
        return queryset.filter(result__isnull=value)


class GameTables(EventScopedList):
    """The tables of a released game with their seats (entry ids) and results, by number, the
    byes last; ``?open=1`` keeps the tables still without a result."""

    serializer_class = TableSerializer
    cursor_ordering = ("place", "id")
    filter_backends = [DjangoFilterBackend]
    filterset_class = TableFilter
    queryset = Table.objects.none()

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Table.objects.none()
        return selectors.game_tables(selectors.public_game(self.event(), self.kwargs["number"]))


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


class EventResults(EventScopedList):
    """The results of a public event game by game (GET, anyone); record (or change, with a
    reason) a table's result (POST, only a TD of the event's club)."""

    serializer_class = ResultSerializer
    cursor_ordering = ("game_number", "table_id")
    queryset = GameResult.objects.none()
    # A token first: a script without credentials is answered 401 (``WWW-Authenticate:
    # Token``), not the session's 403.
    authentication_classes = [TokenAuthentication, BasicAuthentication, SessionAuthentication]

    def get_permissions(self) -> list[permissions.BasePermission]:
        # Per method, so that the schema documents each one's errors as they really are.
        request = getattr(self, "request", None)
        if request is not None and request.method == "POST":
            return [permissions.IsAuthenticated()]
        return [permissions.AllowAny()]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return GameResult.objects.none()
        return selectors.event_results(self.event())

    @extend_schema(request=ResultInput, responses={201: ResultSerializer})
    def post(self, request: Request, event_id: int) -> Response:
        event = selectors.directed_event(request.user, event_id)
        data = ResultInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        table = Table.objects.filter(
            round__event=event, round__number=values["game"], number=values["table"]
        ).first()
        if table is None:
            raise ServiceError(
                TournamentsError.UNKNOWN_TABLE,
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
                    "name": entry.name if entry else None,
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
        names = entry_names(obj.event.entries)
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
                        "seat_a__player", "seat_a__partner", "seat_b__player", "seat_b__partner"
                    ).prefetch_related("games"),
                )
            )
            .first()
        )
        if bracket is None:
            raise Http404("No playoff yet.")
        return bracket
