"""The TD API on events: a club's events, an event's settings, finishing and re-opening it,
publishing its standings."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from .. import api, selectors, services
from .base import (
    TD_AUTHENTICATION,
    TD_ERRORS,
    TDView,
    settings_response,
    td_event,
    td_on_writes,
)
from .serializers import (
    EventCreateInput,
    EventPatchInput,
    EventSettingsSerializer,
    NoInput,
    PublishInput,
)


def _settings_values(values: dict) -> dict:
    return {k: v for k, v in values.items() if v is not None or k == "seed"}


class ClubEvents(TDView):
    """The events of a club its TD runs (drafts included), and a new one."""

    def club(self):
        return selectors.directed_club(self.request.user, self.kwargs["club_id"])

    @extend_schema(
        summary="List the club's events (TD)",
        description="Every event of the club, drafts included, newest first. " + TD_ERRORS,
        responses={200: EventSettingsSerializer(many=True)},
    )
    def get(self, request: Request, club_id: int) -> Response:
        events = self.club().events.select_related("club", "match_point_format")
        rows = events.order_by("-date", "-pk")[:200]
        return Response(EventSettingsSerializer(rows, many=True).data)

    @extend_schema(
        summary="Create an event in the club",
        description="A draft event, ready for entries. Omitted settings take the club's "
        "defaults. " + TD_ERRORS,
        request=EventCreateInput,
        responses={201: EventSettingsSerializer},
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = self.club()
        values = _settings_values(self.valid(EventCreateInput, request.data))
        event = services.create_event(club, **values)
        return self.settings_response(event, status.HTTP_201_CREATED)


class EventSettings(TDView):
    """The event's settings as its TD sees them (drafts included), with what is locked."""

    @extend_schema(
        summary="Read an event's settings (TD)",
        description=TD_ERRORS,
        responses={200: EventSettingsSerializer},
    )
    def get(self, request: Request, event_id: int) -> Response:
        return self.settings_response(self.event())


class EventDetailTD(api.EventDetail):
    """One public event (GET, anyone); its settings changed (PATCH, the club's TD)."""

    authentication_classes = TD_AUTHENTICATION

    def get_permissions(self) -> list[permissions.BasePermission]:
        return td_on_writes(self)

    @extend_schema(
        summary="Change an event's settings",
        description="Any subset of the settings. One that can no longer change (see `locks`) "
        "is refused with the reason. " + TD_ERRORS,
        request=EventPatchInput,
        responses={200: EventSettingsSerializer},
    )
    def patch(self, request: Request, event_id: int) -> Response:
        event = td_event(request, event_id)
        data = EventPatchInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values = _settings_values(dict(data.validated_data))
        event = services.update_event_settings(event, **values)
        return settings_response(event)


class FinishEvent(TDView):
    """Finish the event."""

    @extend_schema(
        summary="Finish the event",
        description="Once every drawn game is complete. " + TD_ERRORS,
        request=NoInput,
        responses={200: EventSettingsSerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        return self.settings_response(services.finish_event(event))


class ReopenEvent(TDView):
    """Re-open a finished event."""

    @extend_schema(
        summary="Re-open a finished event",
        description="Back to running, for a late correction or another game. " + TD_ERRORS,
        request=NoInput,
        responses={200: EventSettingsSerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        return self.settings_response(services.reopen_event(event))


class PublishStandings(TDView):
    """Publish or hide the standings."""

    @extend_schema(
        summary="Publish or hide the standings",
        description=TD_ERRORS,
        request=PublishInput,
        responses={200: EventSettingsSerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        published = self.valid(PublishInput, request.data)["published"]
        event = services.set_standings_published(event, published)
        return self.settings_response(event)


class CloneInput(serializers.Serializer):
    """The new night: its name and date, and whether the same players are registered."""

    name = serializers.CharField(max_length=120)
    date = serializers.DateField()
    with_players = serializers.BooleanField(default=False)


class CloneEvent(TDView):
    """Set up another night played like this event."""

    @extend_schema(
        summary="Clone the event for another night",
        description="A new draft event of the club with this one's format, games, target, "
        "match points, ranking chain, confirmation and language (and the money desk's fees "
        "and side pools); with_players registers the same players, not checked in. " + TD_ERRORS,
        request=CloneInput,
        responses={201: EventSettingsSerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        data = self.valid(CloneInput, request.data)
        copy = services.clone_event(
            event, name=data["name"], date=data["date"], with_players=data["with_players"]
        )
        return self.settings_response(copy, status.HTTP_201_CREATED)
