"""REST API of the Stoppa engine (``games.stoppa``): who wins a punto piccolo or the punto
grosso and why, a stop phase replayed, the deck of a table, a whole deal record verified.

Every engine problem is HTTP 400 with the engine's stable code (``bad_card``,
``duplicate_card``, ``wrong_iteration_size``, ...) and ``attr`` naming the input field
(``hands.1.cards``, ``log.3``); a whole deal record always gets a report, never an error.

The checks themselves are the engine's (``games.stoppa.checker``), shared with the checker page
and ``manage.py stoppa``; this module is their HTTP face.
"""

from __future__ import annotations

import copy

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from core.engine_messages.stoppa import describe, describe_error
from games.stoppa import (
    RECORD_SCHEMA,
    Settings,
    StoppaError,
    deck_info,
    stop_payments,
    verify_deal,
)
from games.stoppa.checker import compare_contest, engine_attr, run_stop
from games_web.api import CardsField, CribbageView, openapi_schema


def stoppa_error(exc: StoppaError, default_attr: str | None = None) -> ValidationError:
    """A 400 with the engine's code, its message in the user's language, and ``attr`` naming
    the input field."""
    detail = ErrorDetail(describe_error(exc), code=exc.code)
    attr = engine_attr(exc.where) or default_attr
    return ValidationError({attr: [detail]} if attr else [detail])


def with_details(issues: list[dict]) -> list[dict]:
    """Report items (``Issue.to_dict()``) with ``detail``: the message in the user's language
    (``message`` stays the engine's English, for logs)."""
    for issue in issues:
        issue["detail"] = describe(issue["code"], issue.get("params"), issue["message"])
    return issues


# --------------------------------------------------------------------------- serializers


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "example": "Kc Jc 3c"},
            {"type": "array", "items": {"type": "string"}, "example": ["Kc", "Jc", "3c"]},
        ],
        "description": "Cards as one string or a list: rank A 2-7 J N K (or F C R 1) then suit "
        "d c s b, e.g. 7d; Italian names work too ('sette di denari').",
    }
)
class StoppaCardsField(CardsField):
    """Stoppa cards as one string ("Kc Jc 3c") or a list of card strings."""


class StoppaHandIn(serializers.Serializer):
    player = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=40,
        help_text="A name; A, B, C ... by position when left out.",
    )
    cards = StoppaCardsField()


class StoppaContestIn(serializers.Serializer):
    hands = StoppaHandIn(
        many=True,
        help_text="The players at the showdown, in priority order "
        "(di mano first, the dealer last).",
    )
    table_size = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Optional: the table (3 to 6) to check cards and counts against its deck.",
    )
    removed_king = serializers.CharField(
        required=False,
        allow_null=True,
        default=None,
        max_length=20,
        help_text="3 players: the King out of play (Kd or d).",
    )


class StoppaEvalOut(serializers.Serializer):
    count = serializers.IntegerField(help_text="Cards of the best suit (capped at 3 in grosso).")
    points = serializers.IntegerField()
    suit = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())


class StoppaStandingOut(serializers.Serializer):
    player = serializers.CharField()
    place = serializers.IntegerField()
    eval = StoppaEvalOut()
    reason_code = serializers.CharField(help_text="count, points or priority; empty for the winner")
    reason = serializers.CharField(help_text='Why he lost, e.g. "fewer cards of one suit".')


class StoppaContestOut(serializers.Serializer):
    phase = serializers.ChoiceField(choices=["piccolo", "grosso"])
    order = serializers.ListField(child=serializers.CharField())
    hands = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    winner = serializers.CharField()
    decided_by = serializers.ChoiceField(choices=["count", "points", "priority", "uncontested"])
    ranking = StoppaStandingOut(many=True)


class StoppaPlayIn(serializers.Serializer):
    player = serializers.CharField(max_length=40)
    cards = StoppaCardsField()


class StoppaStopIn(serializers.Serializer):
    hands = StoppaHandIn(
        many=True, help_text="Every player's full hand, in priority order (di mano leads)."
    )
    log = StoppaPlayIn(
        many=True,
        required=False,
        default=list,
        help_text="The plays in order (passes are not logged); empty: the phase "
        "is played out with a fixed strategy.",
    )
    stop_unit = serializers.IntegerField(min_value=1, default=6)
    cards_per_payment = serializers.ChoiceField(choices=[2, 3], default=2)
    three_aces_free = serializers.BooleanField(default=False)


class StoppaPlayOut(serializers.Serializer):
    step = serializers.IntegerField()
    player = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    kind = serializers.CharField(
        help_text="open, follow, all_of_rank, aces_on_ace or three_aces_free"
    )
    need_after = serializers.CharField(allow_null=True)
    closes = serializers.BooleanField()


class StoppaIssueOut(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField(help_text="The engine's message, in English.")
    where = serializers.CharField()
    params = serializers.DictField(help_text="The values the message names (card, player...).")
    detail = serializers.CharField(help_text="The message in the user's language.")


class StoppaStopOut(serializers.Serializer):
    closer = serializers.CharField()
    order = serializers.ListField(child=serializers.CharField())
    remaining = serializers.DictField(child=serializers.IntegerField())
    hands_left = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    plays = StoppaPlayOut(many=True)
    warnings = StoppaIssueOut(many=True)
    simulated = serializers.BooleanField()
    payments = serializers.DictField(
        child=serializers.IntegerField(), help_text="Each player's net; the closer positive, sum 0."
    )
    unit = serializers.IntegerField()
    cards_per_payment = serializers.IntegerField()


class StoppaDeckIn(serializers.Serializer):
    players = serializers.IntegerField(help_text="3 to 6.")
    removed_king = serializers.CharField(
        required=False,
        allow_null=True,
        default=None,
        max_length=20,
        help_text="3 players only: Kd or d.",
    )
    ante = serializers.IntegerField(min_value=1, default=6)
    piccolo_value = serializers.IntegerField(min_value=1, default=1)


class StoppaDeckOut(serializers.Serializer):
    players = serializers.IntegerField()
    cards = serializers.ListField(child=serializers.CharField())
    deck_size = serializers.IntegerField()
    per_player = serializers.IntegerField()
    schedule = serializers.ListField(child=serializers.IntegerField())
    iterations = serializers.IntegerField()
    top_rank = serializers.CharField()
    removed = serializers.ListField(child=serializers.CharField())
    pot = serializers.IntegerField()
    piccolo_value = serializers.IntegerField()
    grosso_value = serializers.IntegerField()


class StoppaPaymentsIn(serializers.Serializer):
    closer = serializers.CharField(max_length=40)
    cards_left = serializers.DictField(
        child=serializers.IntegerField(), help_text="Cards each other player still holds."
    )
    stop_unit = serializers.IntegerField(min_value=1, default=6)
    cards_per_payment = serializers.ChoiceField(choices=[2, 3], default=2)


def record_openapi_schema(json_schema: dict) -> dict:
    """``RECORD_SCHEMA`` in the OpenAPI 3.0 dialect: ``openapi_schema`` plus what 3.0 lacks
    (``const``, ``$id``, a ``{"type": "null"}`` branch of ``oneOf``)."""
    schema = copy.deepcopy(json_schema)

    def fix(node):
        if isinstance(node, dict):
            node.pop("$id", None)
            if "const" in node:
                node["enum"] = [node.pop("const")]
            for key in ("oneOf", "anyOf"):
                branches = node.get(key)
                if isinstance(branches, list) and {"type": "null"} in branches:
                    node[key] = [b for b in branches if b != {"type": "null"}]
                    node["nullable"] = True
            for value in node.values():
                fix(value)
        elif isinstance(node, list):
            for value in node:
                fix(value)

    fix(schema)
    return openapi_schema(schema)


_ISSUE = {
    "type": "object",
    "properties": {
        "code": {"type": "string"},
        "message": {"type": "string", "description": "The engine's message, in English."},
        "where": {"type": "string"},
        "params": {"type": "object", "description": "The values the message names."},
        "detail": {"type": "string", "description": "The message in the user's language."},
    },
}
DEAL_REPORT_SCHEMA = {
    "type": "object",
    "description": "The deal report (see games/stoppa/README.md): ok when no error.",
    "properties": {
        "ok": {"type": "boolean"},
        "errors": {"type": "array", "items": _ISSUE},
        "warnings": {"type": "array", "items": _ISSUE},
        "checks": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "item": {"type": "string"},
                    "claimed": {},
                    "actual": {},
                    "ok": {"type": "boolean"},
                },
            },
        },
        "settlement": {
            "type": "object",
            "nullable": True,
            "description": "The recomputed deal: contests, stop phase, nets.",
        },
    },
}


# --------------------------------------------------------------------------- views

PICCOLO_EXAMPLE = {
    "hands": [{"player": "A", "cards": "Kc Jc 3c"}, {"player": "B", "cards": "As 7b 5b"}]
}
GROSSO_EXAMPLE = {
    "hands": [
        {"player": "A", "cards": "6d 7s Ab 5d 4d 7c Ac Kc"},
        {"player": "B", "cards": "7d 5b Jb 3d 6c 2c Ad 4c"},
    ],
    "table_size": 5,
}


class StoppaView(CribbageView):
    """Open to everyone, throttled like the cribbage checker."""


class _ContestView(StoppaView):
    phase = "piccolo"

    def post(self, request: Request) -> Response:
        data = StoppaContestIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        hands = [(h.get("player"), h["cards"]) for h in values["hands"]]
        try:
            result = compare_contest(
                self.phase,
                hands,
                table_size=values["table_size"],
                removed_king=values["removed_king"],
            )
        except StoppaError as exc:
            raise stoppa_error(exc) from None
        return Response(result)


class PiccoloView(_ContestView):
    """Who wins a punto piccolo: each betting player's cards of that iteration, in priority
    order; most cards of one suit, then points, then priority."""

    phase = "piccolo"

    @extend_schema(
        request=StoppaContestIn,
        responses={200: StoppaContestOut},
        examples=[OpenApiExample("A wins by count", value=PICCOLO_EXAMPLE, request_only=True)],
    )
    def post(self, request: Request) -> Response:
        return super().post(request)


class GrossoView(_ContestView):
    """Who wins the punto grosso: every card each player received; the best same-suit trio."""

    phase = "grosso"

    @extend_schema(
        request=StoppaContestIn,
        responses={200: StoppaContestOut},
        examples=[OpenApiExample("B wins 50 to 47", value=GROSSO_EXAMPLE, request_only=True)],
    )
    def post(self, request: Request) -> Response:
        return super().post(request)


class StopView(StoppaView):
    """Replay a stop phase (or play it out): the closer, every play, the cards left, payments."""

    @extend_schema(request=StoppaStopIn, responses={200: StoppaStopOut})
    def post(self, request: Request) -> Response:
        data = StoppaStopIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        hands = [(h.get("player"), h["cards"]) for h in values["hands"]]
        log = [{"player": p["player"], "cards": p["cards"]} for p in values["log"]]
        try:
            result = run_stop(
                hands,
                log,
                unit=values["stop_unit"],
                cards_per_payment=int(values["cards_per_payment"]),
                three_aces_free=values["three_aces_free"],
            )
        except StoppaError as exc:
            raise stoppa_error(exc) from None
        with_details(result["warnings"])
        return Response(result)


class DeckView(StoppaView):
    """The deck of a table: cards in play, cards each, the iterations, the pot split."""

    @extend_schema(
        request=StoppaDeckIn,
        responses={200: StoppaDeckOut},
        examples=[
            OpenApiExample(
                "3 players", value={"players": 3, "removed_king": "Kd"}, request_only=True
            )
        ],
    )
    def post(self, request: Request) -> Response:
        data = StoppaDeckIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        try:
            info = deck_info(values["players"], values["removed_king"])
            settings = Settings(ante=values["ante"], piccolo_value=values["piccolo_value"])
            settings.validate(info.players, info.iterations)
        except StoppaError as exc:
            attr = {"unsupported_player_count": "players", "bad_stakes": "piccolo_value"}.get(
                exc.code, "removed_king"
            )
            raise stoppa_error(exc, attr) from None
        out = info.to_dict()
        out.update(
            {
                "pot": settings.pot(info.players),
                "piccolo_value": settings.piccolo_value,
                "grosso_value": settings.grosso_value(info.players, info.iterations),
            }
        )
        return Response(out)


class PaymentsView(StoppaView):
    """What each player pays the closer: the unit per 2 (or 3) cards left, the odd card free."""

    @extend_schema(
        request=StoppaPaymentsIn,
        responses={
            200: {
                "type": "object",
                "additionalProperties": {"type": "integer"},
                "description": "Each player's net; the closer positive, sum 0.",
            }
        },
        examples=[
            OpenApiExample(
                "spec 9",
                value={"closer": "P2", "cards_left": {"P3": 4, "P4": 7, "P1": 1}},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        data = StoppaPaymentsIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        try:
            nets = stop_payments(
                values["closer"],
                values["cards_left"],
                values["stop_unit"],
                int(values["cards_per_payment"]),
            )
        except StoppaError as exc:
            raise stoppa_error(exc, "cards_left") from None
        return Response(nets)


class DealVerifyView(StoppaView):
    """Replay a whole deal record and check every claim: winners, closer, payments, nets.

    A bad record is a report with ``ok: false`` naming the problem (HTTP 200), never an error.
    """

    @extend_schema(
        request={"application/json": record_openapi_schema(RECORD_SCHEMA)},
        responses={200: DEAL_REPORT_SCHEMA},
    )
    def post(self, request: Request) -> Response:
        report = verify_deal(request.data).to_dict()
        with_details(report["errors"])
        with_details(report["warnings"])
        return Response(report)
