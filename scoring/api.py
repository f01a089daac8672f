"""REST API of standings."""

from __future__ import annotations

import hashlib

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from core import cache
from core.drf import KeysetCursorPagination
from tournaments.limits import MAX_NUMBER
from tournaments.outcome import format_spread

from .models import Standing
from .places import FinalPlaces
from .selectors import (
    placed_standings,
    standings_event,
    standings_version,
    with_movement,
    with_place_labels,
)

ANSWERED_FOR = 3600  # seconds a public standings page stays in the cache


class StandingSerializer(serializers.ModelSerializer):
    entry = serializers.IntegerField(source="entry_id")
    name = serializers.CharField(source="entry.name")
    acc_number = serializers.CharField(source="entry.player.acc_number")
    withdrawn = serializers.BooleanField(source="entry.withdrawn")
    display = serializers.SerializerMethodField(
        help_text="ACC style: game points/games won spread."
    )
    after_game = serializers.IntegerField(source="snapshot.after_game")
    complete = serializers.BooleanField(source="snapshot.complete", help_text="Game complete.")
    version = serializers.IntegerField(source="snapshot.version")
    computed_at = serializers.DateTimeField(source="snapshot.computed_at")
    place = serializers.IntegerField(
        read_only=True,
        help_text="Final place: once the playoff is decided its places come first (champion 1, "
        "runner-up 2, semifinal losers 3, ...), then the qualifying order; the rank until then.",
    )
    place_label = serializers.CharField(
        read_only=True, help_text='The place as the standings write it: "3=" when shared.'
    )
    movement = serializers.IntegerField(
        default=0, help_text="Places gained since the snapshot of the game before."
    )
    explanation = serializers.CharField(
        read_only=True,
        help_text="Why the row is below the row above, in words, as the standings page says it "
        "(empty when game points alone say it).",
    )

    class Meta:
        model = Standing
        fields = [
            "place",
            "place_label",
            "rank",
            "tied",
            "entry",
            "name",
            "acc_number",
            "withdrawn",
            "game_points",
            "games_played",
            "games_won",
            "games_lost",
            "spread",
            "skunks_won",
            "skunks_suffered",
            "byes",
            "after_game",
            "complete",
            "version",
            "computed_at",
            "movement",
            "separated_by",
            "explanation",
            "display",
            "chips",
            "sessions_won",
            "best_session",
        ]

    def get_display(self, obj: Standing) -> str:
        if obj.chips is not None:  # Stoppa: chips and sessions won
            return f"{obj.chips:+d} ({obj.sessions_won or 0})"
        return f"{obj.game_points}/{obj.games_won} {format_spread(obj.spread)}"


@extend_schema(
    parameters=[
        OpenApiParameter(
            "after_game", int, description="Standings after this game (default: the latest)."
        )
    ]
)
class EventStandings(generics.ListAPIView):
    """The standings of an event, best first (final place, then entry id among those who
    share it), a page at a time: public once published; the event's TD sees them
    always. Until the playoff is decided the place is the qualifying rank."""

    serializer_class = StandingSerializer
    permission_classes = [permissions.AllowAny]
    pagination_class = KeysetCursorPagination
    # Until the playoff is decided the place is the rank: the same key and cursors as before.
    cursor_ordering = ("place", "entry_id")
    filter_backends: list = []

    queryset = Standing.objects.none()  # for the schema; requests use get_queryset

    def list(self, request: Request, *args, **kwargs) -> Response:
        """A public page of the standings is built once per snapshot version and then read
        from the cache, with the version as its ETag (an unchanged poll is a 304). A signed-in
        reader (the TD may see unpublished standings) is answered fresh."""
        if request.user.is_authenticated:
            return super().list(request, *args, **kwargs)
        after = request.query_params.get("after_game", "")
        after_game = int(after) if after.isascii() and after.isdigit() else None
        version = standings_version(self.kwargs["event_id"], after_game)
        if version is None:
            raise NotFound(_("No such event, or its standings are not published."))
        etag = hashlib.blake2b(
            f"{version}|{request.META.get('QUERY_STRING', '')}".encode(), digest_size=12
        ).hexdigest()
        if etag in request.headers.get("If-None-Match", "").replace("W/", ""):
            return Response(status=304, headers={"ETag": f'"{etag}"'})
        key = f"standings-api:{self.kwargs['event_id']}:{etag}"
        data = cache.get(key)  # None with the cache down: answered fresh
        if data is None:
            data = super().list(request, *args, **kwargs).data
            cache.set(key, data, ANSWERED_FOR)
        return Response(data, headers={"ETag": f'"{etag}"', "Cache-Control": "no-cache"})

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Standing.objects.none()
        event = standings_event(self.request.user, self.kwargs["event_id"])
        if event is None:
            raise NotFound(_("No such event, or its standings are not published."))
        self.event = event
        after = self.request.query_params.get("after_game", "")
        after_game = int(after) if after.isascii() and after.isdigit() else None
        if after_game is not None and after_game > MAX_NUMBER:  # no such game
            self.places = FinalPlaces(event.pk)
            return Standing.objects.none().annotate(place=self.places.expression())
        rows, self.places = placed_standings(event.pk, after_game)
        return rows

    def paginate_queryset(self, queryset):
        """The page's rows, each with its place as written and its movement since the game
        before (none once the playoff placed them)."""
        page = super().paginate_queryset(queryset)
        if page is None:
            return None
        with_place_labels(page, self.places)
        return page if self.places.decided else with_movement(self.event.pk, page)
