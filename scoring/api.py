"""REST API of standings."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, serializers
from rest_framework.exceptions import NotFound

from tournaments import selectors
from tournaments.outcome import format_spread

from .models import Standing
from .selectors import standings_with_movement


class StandingSerializer(serializers.ModelSerializer):
    entry = serializers.IntegerField(source="entry_id")
    name = serializers.CharField(source="entry.player.name")
    acc_number = serializers.CharField(source="entry.player.acc_number")
    withdrawn = serializers.BooleanField(source="entry.withdrawn")
    display = serializers.SerializerMethodField(
        help_text="ACC style: game points/games won spread."
    )
    after_game = serializers.IntegerField(source="snapshot.after_game")
    complete = serializers.BooleanField(source="snapshot.complete", help_text="Game complete.")
    version = serializers.IntegerField(source="snapshot.version")
    computed_at = serializers.DateTimeField(source="snapshot.computed_at")
    movement = serializers.IntegerField(
        default=0, help_text="Places gained since the snapshot of the game before."
    )

    class Meta:
        model = Standing
        fields = [
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
    """The standings of an event: public once published; the event's TD sees them always."""

    serializer_class = StandingSerializer
    permission_classes = [permissions.AllowAny]
    pagination_class = None

    queryset = Standing.objects.none()  # for the schema; requests use get_queryset

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Standing.objects.none()
        event_id = self.kwargs["event_id"]
        event = selectors.events_directed_by(self.request.user).filter(pk=event_id).first()
        if event is None:
            event = selectors.public_events().filter(pk=event_id, standings_published=True).first()
        if event is None:
            raise NotFound("No such event, or its standings are not published.")
        after = self.request.query_params.get("after_game", "")
        return standings_with_movement(event.pk, int(after) if after.isdigit() else None)
