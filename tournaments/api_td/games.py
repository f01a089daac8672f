"""The TD API on games: draw the next game, read, redraw or release one, swap two players'
seats, and undo the last result recorded."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response

from .. import api, services
from ..models import Event, Round
from .base import TD_AUTHENTICATION, TD_ERRORS, TDView, td_event, td_on_writes, valid
from .serializers import DrawInput, GameDetailSerializer, NoInput, SwapInput, UndoInput, UndoOutput


class EventGamesTD(api.EventGames):
    """The released games of an event (GET); draw the next one (POST, the club's TD)."""

    authentication_classes = TD_AUTHENTICATION

    def get_permissions(self) -> list[permissions.BasePermission]:
        return td_on_writes(self)

    @extend_schema(
        summary="Draw the next game",
        description="For the checked-in players, once the previous game is released and "
        "complete; released at once unless `draft`. " + TD_ERRORS,
        request=DrawInput,
        responses={201: GameDetailSerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = td_event(request, event_id)
        draft = valid(DrawInput, request.data)["draft"]
        round_ = services.draw_next_game(event, draft=draft)
        return Response(GameDetailSerializer(round_).data, status=status.HTTP_201_CREATED)


class GameAction(TDView):
    """Redraw, release or swap seats of one game."""

    def game(self, event: Event) -> Round:
        round_ = event.rounds.filter(number=self.kwargs["number"]).first()
        if round_ is None:
            raise Http404("No such game.")
        return round_


class GameDetail(GameAction):
    @extend_schema(
        summary="Read a game with its tables (TD; drafts included)",
        description=TD_ERRORS,
        responses={200: GameDetailSerializer},
    )
    def get(self, request: Request, event_id: int, number: int) -> Response:
        return Response(GameDetailSerializer(self.game(self.event())).data)


class RedrawGame(GameAction):
    @extend_schema(
        summary="Draw the latest game again",
        description=(
            "Draws from a new seed, recorded on the game. Refused once it has a played "
            "result, and with code `same_draw` (the reason in the message; the game is left "
            "as it was) when the seating cannot change: a later Swiss game follows the "
            "standings, a later qualifying game the table movement, a round robin its "
            "schedule. " + TD_ERRORS
        ),
        request=NoInput,
        responses={200: GameDetailSerializer},
    )
    def post(self, request: Request, event_id: int, number: int) -> Response:
        event = self.event()
        round_ = self.game(event)
        round_ = services.redraw_game(round_)
        return Response(GameDetailSerializer(round_).data)


class ReleaseGame(GameAction):
    @extend_schema(
        summary="Release a draft game to the players",
        description=TD_ERRORS,
        request=NoInput,
        responses={200: GameDetailSerializer},
    )
    def post(self, request: Request, event_id: int, number: int) -> Response:
        event = self.event()
        round_ = self.game(event)
        round_ = services.release_game(round_)
        return Response(GameDetailSerializer(round_).data)


class SwapSeats(GameAction):
    @extend_schema(
        summary="Swap two players' seats in a draft game",
        description="A swap that breaks a rule (a repeat, a forbidden pair, an unfair bye) "
        "is refused with the problems unless `confirm`. " + TD_ERRORS,
        request=SwapInput,
        responses={200: GameDetailSerializer},
    )
    def post(self, request: Request, event_id: int, number: int) -> Response:
        event = self.event()
        round_ = self.game(event)
        values = self.valid(SwapInput, request.data)
        round_, problems = services.swap_seats(
            round_, values["player_a"], values["player_b"], confirm=values["confirm"]
        )
        body = dict(GameDetailSerializer(round_).data)
        body["problems"] = list(problems)
        return Response(body)


class UndoLastResult(TDView):
    @extend_schema(
        summary="Undo the last result recorded",
        description="The latest game's last result is taken back (audited, with the reason) "
        "and its table is open again; refused once a later game is released, after the "
        "cut to the playoff, or while the event is finished. " + TD_ERRORS,
        request=UndoInput,
        responses={200: UndoOutput},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        reason = self.valid(UndoInput, request.data)["reason"]
        undone = services.undo_last_result(event, user=request.user, reason=reason)
        body = {
            "game": undone.table.round.number,
            "table": undone.table.number,
            "undone": undone.old,
            "draft_removed": undone.draft_removed,
        }
        return Response(body)
