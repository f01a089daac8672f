"""The TD API on the playoff: cut to it (or draw the bracket), record a game of a match,
undo a match's last game."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import ServiceError

from .. import selectors, services
from ..api import BracketSerializer, PlayoffMatchSerializer
from ..error_codes import TournamentsError
from ..models import Bracket, Event, PlayoffMatch
from .base import TD_ERRORS, TDView
from .serializers import PlayoffGameInput, PlayoffInput, PlayoffUndoInput


def _bracket(event: Event) -> Bracket:
    bracket = selectors.event_bracket(event)
    if bracket is None:
        raise Http404("No playoff yet.")
    return bracket


class CreatePlayoff(TDView):
    @extend_schema(
        summary="Cut to a playoff (or draw the bracket)",
        description="From the qualifying standings (seeded by rank) or a random draw of the "
        "checked-in field. " + TD_ERRORS,
        request=PlayoffInput,
        responses={201: BracketSerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        values = self.valid(PlayoffInput, request.data)
        ranking_id = values.pop("ranking_event", None)
        if ranking_id is not None:
            found = selectors.events_directed_by(request.user).filter(pk=ranking_id).first()
            if found is None or found.club_id != event.club_id:
                raise ServiceError(
                    TournamentsError.UNKNOWN_RANKING,
                    _("Choose a ranking of this club."),
                    field="ranking_event",
                )
            values["ranking_event"] = found
        services.create_playoff(event, **values)
        return Response(BracketSerializer(_bracket(event)).data, status=status.HTTP_201_CREATED)


class PlayoffGames(TDView):
    @extend_schema(
        summary="Record a playoff game",
        description="One game of a match; a decided match sends its players on. " + TD_ERRORS,
        request=PlayoffGameInput,
        responses={201: PlayoffMatchSerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        values = self.valid(PlayoffGameInput, request.data)
        services.record_playoff_game(
            event,
            match=values["match"],
            winner=values["winner"],
            loser_score=values.get("loser_score"),
            forfeit=values["forfeit"],
            user=request.user,
        )
        return Response(self.match(event, values["match"]), status=status.HTTP_201_CREATED)

    @staticmethod
    def match(event: Event, code: str) -> dict:
        row = (
            PlayoffMatch.objects.filter(bracket__event=event, code=code)
            .select_related(
                "seat_a__player", "seat_a__partner", "seat_b__player", "seat_b__partner"
            )
            .prefetch_related("games")
            .get()
        )
        return dict(PlayoffMatchSerializer(row).data)


class UndoPlayoffGame(TDView):
    @extend_schema(
        summary="Undo a playoff match's last game",
        description="While the players have not played on. " + TD_ERRORS,
        request=PlayoffUndoInput,
        responses={200: PlayoffMatchSerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        code = self.valid(PlayoffUndoInput, request.data)["match"]
        services.undo_playoff_game(event, match=code, user=request.user)
        return Response(PlayoffGames.match(event, code))
