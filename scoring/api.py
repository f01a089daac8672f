"""REST API of standings."""

from __future__ import annotations

from rest_framework import generics, permissions, serializers
from rest_framework.exceptions import NotFound

from tournaments import selectors

from .models import Standing
from .outcome import format_spread
from .selectors import standings_for_event


class StandingSerializer(serializers.ModelSerializer):
    entry = serializers.IntegerField(source="entry_id")
    name = serializers.CharField(source="entry.player.name")
    acc_number = serializers.CharField(source="entry.player.acc_number")
    withdrawn = serializers.BooleanField(source="entry.withdrawn")
    display = serializers.SerializerMethodField(
        help_text="ACC style: game points/games won spread."
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
            "computed_at",
            "display",
        ]

    def get_display(self, obj: Standing) -> str:
        return f"{obj.game_points}/{obj.games_won} {format_spread(obj.spread)}"


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
        return standings_for_event(event.pk)
