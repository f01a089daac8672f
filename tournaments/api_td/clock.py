"""The TD API on the round clock (issue 28): read it, start, pause, resume, add minutes or
stop it, and record a game not finished in time as called at time."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import ServiceError

from ..api import ClockSerializer, ResultSerializer
from ..clock import clock_of
from ..error_codes import TournamentsError
from ..limits import MAX_ID, MAX_NUMBER, MAX_SCORE
from ..services import clock as clock_services
from .base import TD_ERRORS
from .games import GameAction

ACTIONS = ("start", "pause", "resume", "extend", "stop")


class ClockInput(serializers.Serializer):
    action = serializers.ChoiceField(choices=ACTIONS)
    minutes = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=-MAX_NUMBER,
        max_value=MAX_NUMBER,
        help_text="start: the minutes to run (the club's minutes per game if left out); "
        "extend: the minutes to add.",
    )


class CalledAtTimeInput(serializers.Serializer):
    table = serializers.IntegerField(
        min_value=1, max_value=MAX_NUMBER, help_text="Table number within the game."
    )
    winner = serializers.IntegerField(
        min_value=-MAX_ID, max_value=MAX_ID, help_text="Entry id of the winner by the rule."
    )
    loser_score = serializers.IntegerField(min_value=-MAX_SCORE, max_value=MAX_SCORE)


class GameClock(GameAction):
    @extend_schema(
        summary="Read a game's clock",
        description=TD_ERRORS,
        responses={200: ClockSerializer},
    )
    def get(self, request: Request, event_id: int, number: int) -> Response:
        return Response(ClockSerializer(clock_of(self.game(self.event()))).data)

    @extend_schema(
        summary="Start, pause, resume, add minutes to or stop a game's clock",
        description="Audited in the event's log. Refused (code `clock_running`, "
        "`clock_not_running`, `clock_not_paused`, `bad_minutes`) when the clock is not in a "
        "state the action applies to. " + TD_ERRORS,
        request=ClockInput,
        responses={200: ClockSerializer},
    )
    def post(self, request: Request, event_id: int, number: int) -> Response:
        round_ = self.game(self.event())
        values = self.valid(ClockInput, request.data)
        minutes, user = values.get("minutes"), request.user
        action = values["action"]
        if action == "start":
            round_ = clock_services.start_clock(round_, minutes=minutes, user=user)
        elif action == "pause":
            round_ = clock_services.pause_clock(round_, user=user)
        elif action == "resume":
            round_ = clock_services.resume_clock(round_, user=user)
        elif action == "extend":
            round_ = clock_services.extend_clock(round_, minutes or 0, user=user)
        else:
            round_ = clock_services.stop_clock(round_, user=user)
        return Response(ClockSerializer(clock_of(round_)).data)


class CalledAtTime(GameAction):
    @extend_schema(
        summary="Record a game not finished in time (called at time)",
        description="Once the game's clock has run out: the winner by the club's rule and the "
        "loser's score, recorded through the audited result path as `called_at_time`. "
        "Refused with `clock_not_up`, `table_finished` or `at_time_by_hand` (the club's rule "
        "gives no single winner). " + TD_ERRORS,
        request=CalledAtTimeInput,
        responses={201: ResultSerializer},
    )
    def post(self, request: Request, event_id: int, number: int) -> Response:
        event = self.event()
        round_ = self.game(event)
        values = self.valid(CalledAtTimeInput, request.data)
        table = round_.tables.filter(number=values["table"]).first()
        if table is None:
            raise ServiceError(
                TournamentsError.UNKNOWN_TABLE,
                _("There is no such table in this game."),
                field="table",
            )
        result = clock_services.call_at_time(
            event,
            table=table,
            winner=values["winner"],
            loser_score=values["loser_score"],
            user=request.user,
        )
        return Response(ResultSerializer(result).data, status=status.HTTP_201_CREATED)
