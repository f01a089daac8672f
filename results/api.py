"""REST API of results from the table: players report with their key; TDs rule with a token."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from drf_standardized_errors.openapi_serializers import ErrorResponse403Serializer
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.drf import as_validation_error
from core.errors import ServiceError
from tournaments.api import ResultSerializer
from tournaments.api_td import TD_AUTHENTICATION
from tournaments.limits import MAX_ID, MAX_NUMBER, MAX_SCORE
from tournaments.models import GameResult, Table

from . import selectors, services
from .error_codes import ResultsError
from .lifecycle import ReportState


class KeyInput(serializers.Serializer):
    key = serializers.CharField(
        max_length=64, help_text="The player's private key (from the QR code)."
    )
    game = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER)
    table = serializers.IntegerField(
        min_value=1, max_value=MAX_NUMBER, help_text="Table number within the game."
    )


class ReportInput(KeyInput):
    winner = serializers.ChoiceField(choices=["me", "opponent"])
    loser_score = serializers.IntegerField(
        required=False, allow_null=True, min_value=-MAX_SCORE, max_value=MAX_SCORE
    )
    forfeit = serializers.BooleanField(default=False)
    record = serializers.JSONField(
        required=False, allow_null=True, help_text="A whole-game record (games/cribbage/README.md)."
    )


class ConfirmInput(KeyInput):
    """What the player confirms, named: a report changed since they saw it is refused."""

    submission = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        help_text="The opponent's version being confirmed (its id, as the report's answer "
        "gives it). Give this or the result below.",
    )
    winner = serializers.ChoiceField(
        choices=["me", "opponent"],
        required=False,
        help_text="The result being confirmed, from the confirming player's side.",
    )
    loser_score = serializers.IntegerField(
        required=False, allow_null=True, min_value=-MAX_SCORE, max_value=MAX_SCORE
    )
    forfeit = serializers.BooleanField(default=False)

    def validate(self, attrs: dict) -> dict:
        if "submission" not in attrs and "winner" not in attrs:
            raise serializers.ValidationError(
                {"submission": [_("Name what you confirm: the version or its result.")]},
                code="required",
            )
        return attrs


class DisputeInput(KeyInput):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class OutcomeOutput(serializers.Serializer):
    state = serializers.ChoiceField(choices=[state.value for state in ReportState])
    submission = serializers.IntegerField()
    winner = serializers.IntegerField()
    loser_score = serializers.IntegerField(allow_null=True)


class RulingInput(serializers.Serializer):
    game = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER)
    table = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER)
    submission = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        help_text="Rule this version, or give a result:",
    )
    winner = serializers.IntegerField(
        required=False, min_value=-MAX_ID, max_value=MAX_ID, help_text="Entry id of the winner."
    )
    loser_score = serializers.IntegerField(
        required=False, allow_null=True, min_value=-MAX_SCORE, max_value=MAX_SCORE
    )
    forfeit = serializers.BooleanField(default=False)
    note = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class RulingOutput(serializers.Serializer):
    table = serializers.IntegerField()
    winner = serializers.IntegerField()
    margin = serializers.IntegerField()
    winner_points = serializers.IntegerField()


def _table(event_id: int, game: int, number: int) -> Table:
    table = Table.objects.filter(
        round__event_id=event_id, round__number=game, number=number
    ).first()
    if table is None:
        raise as_validation_error(
            ServiceError(ResultsError.UNKNOWN_GAME, "No such game and table.", field="table")
        )
    return table


def _outcome(outcome) -> dict:
    sub = outcome.submission
    return {
        "state": outcome.state,
        "submission": sub.pk,
        "winner": sub.winner_id,
        "loser_score": sub.loser_score,
    }


class KeyView(APIView):
    authentication_classes: list = []  # the key is the credential
    permission_classes = [permissions.AllowAny]
    # Counted by this field's key, not by address (core/throttles.py): phones behind one NAT.
    private_key_field = "key"


class ReportView(KeyView):
    """A player reports their own game; both reports agreeing confirm it."""

    # A resent report is the same report: safe to run again after a lost database connection.
    db_retry_safe = staticmethod(lambda request: True)

    @extend_schema(request=ReportInput, responses={201: OutcomeOutput, 200: OutcomeOutput})
    def post(self, request: Request) -> Response:
        data = ReportInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        # The key, the game and the table are found in the service's one locked read.
        outcome = services.submit(
            v["key"],
            game=v["game"],
            table=v["table"],
            winner=v["winner"],
            loser_score=v.get("loser_score"),
            forfeit=v["forfeit"],
            record=v.get("record"),
        )
        code = (
            status.HTTP_200_OK
            if outcome.state == ReportState.DUPLICATE
            else status.HTTP_201_CREATED
        )
        return Response(_outcome(outcome), status=code)


class ConfirmView(KeyView):
    """A player confirms the opponent's report."""

    @extend_schema(
        summary="Confirm the opponent's report",
        description="The body names what is confirmed: the opponent's version (`submission`, "
        "the id the report's answer gives) or its result (`winner` as `me` or `opponent` from "
        "the confirming player's side, `loser_score`, `forfeit`); one of the two is required "
        "(a body with the table only, as older clients sent it, is a 400 `required` on "
        "`submission`). 400 "
        "`report_changed`: the opponent changed the report since (nothing is written; read "
        "it again and confirm the new one); 400 `nothing_to_confirm`: no report waits.",
        request=ConfirmInput,
        responses={201: OutcomeOutput},
    )
    def post(self, request: Request) -> Response:
        data = ConfirmInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        outcome = services.confirm_opponent(
            v["key"],
            game=v["game"],
            table=v["table"],
            version=v.get("submission"),
            winner=v.get("winner"),
            loser_score=v.get("loser_score"),
            forfeit=v["forfeit"],
        )
        return Response(_outcome(outcome), status=status.HTTP_201_CREATED)


class DisputeView(KeyView):
    """A player disputes the reported result: it goes to the TD's queue."""

    @extend_schema(request=DisputeInput, responses={201: None})
    def post(self, request: Request) -> Response:
        data = DisputeInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        services.dispute(v["key"], game=v["game"], table=v["table"], reason=v["reason"])
        return Response(status=status.HTTP_201_CREATED)


class RulingView(APIView):
    """The TD's (or scorekeeper's) ruling on a table: the TD API's one authentication policy
    (a token, HTTP Basic or a session, ``tournaments.api_td.TD_AUTHENTICATION``)."""

    authentication_classes = TD_AUTHENTICATION
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=RulingInput, responses={201: RulingOutput})
    def post(self, request: Request, event_id: int) -> Response:
        from django.http import Http404

        try:
            event, _role = selectors.results_role(request.user, event_id)
        except Http404:
            raise NotFound("No such event.") from None
        data = RulingInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        table = _table(event.pk, v["game"], v["table"])
        result = services.rule(
            event,
            table=table,
            user=request.user,
            submission=v.get("submission"),
            winner=v.get("winner"),
            loser_score=v.get("loser_score"),
            forfeit=v["forfeit"],
            note=v["note"],
        )
        body = {
            "table": table.number,
            "winner": result.winner_id,
            "margin": result.margin,
            "winner_points": result.winner_points,
        }
        return Response(body, status=status.HTTP_201_CREATED)


class CorrectionInput(serializers.Serializer):
    game = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER, help_text="Game number.")
    table = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER)
    winner = serializers.IntegerField(
        min_value=-MAX_ID, max_value=MAX_ID, help_text="Entry id of the winner."
    )
    loser_score = serializers.IntegerField(
        required=False, allow_null=True, min_value=-MAX_SCORE, max_value=MAX_SCORE
    )
    forfeit = serializers.BooleanField(default=False)
    reason = serializers.CharField(max_length=300, help_text="Why (kept in the audit log).")


class CorrectionView(APIView):
    """The TD's correction of a recorded result, with a reason (as at the results desk)."""

    # A token first: without credentials the answer is 401 (``WWW-Authenticate: Token``).
    authentication_classes = TD_AUTHENTICATION
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Correct a recorded result",
        description="The event's TD only (a scorekeeper checks and rules, but does not "
        "correct: 403). The old and the new result are audited with the reason. 400: "
        "refused, with the reason; 404: not the club's TD or scorekeeper.",
        request=CorrectionInput,
        responses={200: ResultSerializer, 403: ErrorResponse403Serializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        from django.http import Http404

        try:
            event, role = selectors.results_role(request.user, event_id)
        except Http404:
            raise NotFound("No such event.") from None
        if role != "td":
            raise PermissionDenied(_("Only the event's tournament director corrects a result."))
        data = CorrectionInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        table = _table(event.pk, v["game"], v["table"])
        result = services.correct(
            event,
            table=table,
            user=request.user,
            winner=v["winner"],
            loser_score=v.get("loser_score"),
            forfeit=v["forfeit"],
            reason=v["reason"],
        )
        result = GameResult.objects.select_related("table__round").get(pk=result.pk)
        return Response(ResultSerializer(result).data)


class CheckInput(serializers.Serializer):
    game = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER, help_text="Game number.")
    table = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER)


class CheckView(APIView):
    """The desk's check of two agreeing reports (events that check at the desk)."""

    authentication_classes = TD_AUTHENTICATION
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Check two agreeing reports and confirm the result",
        description="The event's TD or a scorekeeper of its club. 400: nothing to check, "
        "with the reason; 401: not signed in; 404: neither TD nor scorekeeper of the club.",
        request=CheckInput,
        responses={201: ResultSerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        from django.http import Http404

        try:
            event, _role = selectors.results_role(request.user, event_id)
        except Http404:
            raise NotFound("No such event.") from None
        data = CheckInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        table = _table(event.pk, v["game"], v["table"])
        result = services.check_agreed(event, table=table, user=request.user)
        result = GameResult.objects.select_related("table__round").get(pk=result.pk)
        return Response(ResultSerializer(result).data, status=status.HTTP_201_CREATED)
