"""The TD API's plumbing: who may call it, and how a view reads input and answers.

Every route is for a signed-in TD of the event's club. A view lets a refused service call
through: the exception handler (``core.drf_handler``) answers 400 with its message and
code. Another club's event (entry, game) is a 404, as for a missing one.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from rest_framework import permissions, serializers, status
from rest_framework.authentication import (
    BasicAuthentication,
    SessionAuthentication,
    TokenAuthentication,
)
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import selectors
from ..models import Event
from .serializers import EventSettingsSerializer

# A token first: a script without credentials is answered 401 with ``WWW-Authenticate:
# Token`` (with the session first, DRF answers 403 and no hint of how to sign in).
TD_AUTHENTICATION = [TokenAuthentication, BasicAuthentication, SessionAuthentication]


TD_ERRORS = "400: refused, with the reason; 401: not signed in; 404: not a TD of the club."


def valid(serializer_class: type[serializers.Serializer], data: Any) -> dict:
    """The validated input, or a 400 naming the bad fields."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def settings_response(event: Event, code: int = status.HTTP_200_OK) -> Response:
    """The event's settings, read afresh after a change."""
    event = Event.objects.select_related("club", "match_point_format").get(pk=event.pk)
    return Response(EventSettingsSerializer(event).data, status=code)


def td_event(request: Request, event_id: int) -> Event:
    """The event if the user directs its club, else 404."""
    return selectors.directed_event(request.user, event_id)


class TDView(APIView):
    """A TD action on one event of their club: 404 for anyone else's."""

    authentication_classes = TD_AUTHENTICATION
    permission_classes = [permissions.IsAuthenticated]
    valid = staticmethod(valid)
    settings_response = staticmethod(settings_response)

    def event(self) -> Event:
        return td_event(self.request, self.kwargs["event_id"])

    def handle_exception(self, exc):
        # A TD of another club learns nothing: 404, as for a missing event (or entry, game).
        if isinstance(exc, Http404):
            exc = NotFound(str(exc) or "Not found.")
        return super().handle_exception(exc)


def td_on_writes(view: APIView) -> list[permissions.BasePermission]:
    """Reads open to anyone, writes to a signed-in user (the view then checks the club)."""
    # Per method, so that the schema documents each one's errors as they really are.
    request = getattr(view, "request", None)
    if request is not None and request.method not in permissions.SAFE_METHODS:
        return [permissions.IsAuthenticated()]
    return [permissions.AllowAny()]
