"""REST API of the cribbage engine: score a hand, a pegging pile, a claim, a whole game.

Bad cards are HTTP 400 with the engine's stable code (``bad_card``, ``duplicate_card``,
``wrong_count``, ``pile_over_31``...) and its message in the user's language (it names the bad
token); a whole-game record always gets a report (problems are in it, not an error).
"""

from __future__ import annotations

import copy
from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import permissions, serializers
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.engine_messages.cribbage import describe_error, problem_text
from core.throttles import AnonRateThrottle
from games.cribbage import (
    CLAIM_KINDS,
    GAME_RECORD_SCHEMA,
    AdviceError,
    CardError,
    CribbageError,
    advise_discard,
    check_claim,
    parse_card,
    parse_cards,
    score_hand,
    score_play,
    verify_game,
)

CARDS_SCHEMA = {
    "oneOf": [
        {"type": "string", "example": "5H 5C 5S JD"},
        {"type": "array", "items": {"type": "string"}, "example": ["5H", "5C", "5S", "JD"]},
    ]
}


@extend_schema_field(CARDS_SCHEMA)
class CardsField(serializers.Field):
    """Cards as one string ("5H 5C 5S JD") or a list of card strings."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) or (
            isinstance(data, list) and all(isinstance(c, str) for c in data)
        ):
            return data
        raise ValidationError("Give the cards as a string or a list of strings.")

    def to_representation(self, value: Any) -> Any:
        return value


def card_error(field: str | None, exc: CribbageError) -> ValidationError:
    """A 400 for a bad card, on ``field``: the engine's code, its message in the user's language
    (it names the bad token)."""
    detail = ErrorDetail(describe_error(exc), code=exc.code)
    return ValidationError({field: [detail]} if field else [detail])


def parse_field(field: str, parse, value):
    """Parse one input field, attributing a bad card to it."""
    try:
        return parse(value)
    except CardError as exc:
        raise card_error(field, exc) from None


class ScoreItemOut(serializers.Serializer):
    kind = serializers.CharField()
    label = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    points = serializers.IntegerField()
    text = serializers.CharField(help_text='As a player says it: "15 for 2: 5H JD".')


class HandIn(serializers.Serializer):
    hand = CardsField(help_text="Four cards.")
    starter = serializers.CharField(max_length=8)
    crib = serializers.BooleanField(default=False)


class HandOut(serializers.Serializer):
    hand = serializers.ListField(child=serializers.CharField())
    starter = serializers.CharField()
    crib = serializers.BooleanField()
    total = serializers.IntegerField()
    fifteens = serializers.IntegerField()
    pairs = serializers.IntegerField()
    runs = serializers.IntegerField()
    flush = serializers.IntegerField()
    nobs = serializers.IntegerField()
    items = ScoreItemOut(many=True)


class PlayIn(serializers.Serializer):
    pile = CardsField(help_text="Cards laid since the count was last reset, in order.")
    last = serializers.BooleanField(default=False, help_text="Score the go / last card too.")


class PlayOut(serializers.Serializer):
    pile = serializers.ListField(child=serializers.CharField())
    count = serializers.IntegerField()
    total = serializers.IntegerField()
    items = ScoreItemOut(many=True)


class ClaimIn(serializers.Serializer):
    kind = serializers.ChoiceField(choices=sorted(CLAIM_KINDS))
    cards = CardsField(help_text="The hand or crib (4 cards), or the pegging pile.")
    starter = serializers.CharField(max_length=8, required=False, allow_null=True, default=None)
    claimed = serializers.IntegerField(min_value=0, max_value=29)
    crib = serializers.BooleanField(default=False)
    last = serializers.BooleanField(default=False)


class ClaimOut(serializers.Serializer):
    kind = serializers.CharField()
    claimed = serializers.IntegerField()
    true = serializers.IntegerField()
    difference = serializers.IntegerField(help_text="claimed - true: negative when under-claimed.")
    correct = serializers.BooleanField()
    overlooked_points = serializers.IntegerField()
    overclaimed_points = serializers.IntegerField()
    overlooked = ScoreItemOut(many=True)


def openapi_schema(json_schema: dict) -> dict:
    """The engine's JSON Schema (draft 2020-12) in the OpenAPI 3.0 dialect."""
    schema = copy.deepcopy(json_schema)

    def fix(node):
        if isinstance(node, dict):
            node.pop("$schema", None)
            kind = node.get("type")
            if isinstance(kind, list):  # 3.0 has one type and "nullable" instead of a list
                others = [t for t in kind if t != "null"]
                if "null" in kind:
                    node["nullable"] = True
                if len(others) == 1:
                    node["type"] = others[0]
                else:
                    node.pop("type")
                    node["anyOf"] = [{"type": t} for t in others]
            if "examples" in node and isinstance(node["examples"], list):
                examples = node.pop("examples")
                if examples:
                    node["example"] = examples[0]
            for value in node.values():
                fix(value)
        elif isinstance(node, list):
            for value in node:
                fix(value)

    fix(schema)
    return schema


class CheckerThrottle(AnonRateThrottle):
    """Per-address allowance of the open checkers (``CHECKER_RATE``, 120 a minute)."""

    scope = "checker"


class CribbageView(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [CheckerThrottle]


class HandScoreView(CribbageView):
    """Score a hand or crib with its starter, every combination listed."""

    @extend_schema(
        request=HandIn,
        responses={200: HandOut},
        examples=[OpenApiExample("29 hand", value={"hand": "5H 5C 5S JD", "starter": "5D"})],
    )
    def post(self, request: Request) -> Response:
        data = HandIn(data=request.data)
        data.is_valid(raise_exception=True)
        hand = parse_field("hand", parse_cards, data.validated_data["hand"])
        starter = parse_field("starter", parse_card, data.validated_data["starter"])
        try:
            score = score_hand(hand, starter, crib=data.validated_data["crib"])
        except CardError as exc:
            raise card_error(None, exc) from None
        return Response(score.to_dict())


class PlayScoreView(CribbageView):
    """Points for the last card laid in the play, with the count."""

    @extend_schema(request=PlayIn, responses={200: PlayOut})
    def post(self, request: Request) -> Response:
        data = PlayIn(data=request.data)
        data.is_valid(raise_exception=True)
        pile = parse_field("pile", parse_cards, data.validated_data["pile"])
        try:
            score = score_play(pile, last=data.validated_data["last"])
        except CardError as exc:
            raise card_error("pile", exc) from None
        return Response(score.to_dict())


class ClaimCheckView(CribbageView):
    """Check a claimed count against the true score; lists what was overlooked (muggins)."""

    @extend_schema(request=ClaimIn, responses={200: ClaimOut})
    def post(self, request: Request) -> Response:
        data = ClaimIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        cards = parse_field("cards", parse_cards, values["cards"])
        starter = values["starter"]
        if starter is not None:
            starter = parse_field("starter", parse_card, starter)
        try:
            check = check_claim(
                values["kind"],
                cards,
                starter,
                values["claimed"],
                crib=values["crib"],
                last=values["last"],
            )
        except CribbageError as exc:
            raise card_error(None, exc) from None
        return Response(check.to_dict())


class GameVerifyView(CribbageView):
    """Replay a whole game record, hand by hand, and report every difference and problem.

    Two players, three (each for themself, one card from the deck in the crib) or four
    partners (seats 0 and 2 against 1 and 3): `scores` and `losers` are per side."""

    @extend_schema(
        request={"application/json": openapi_schema(GAME_RECORD_SCHEMA)},
        responses={
            200: {
                "type": "object",
                "description": "The game report (see games/cribbage/README.md).",
            }
        },
    )
    def post(self, request: Request) -> Response:
        report = verify_game(request.data).to_dict()
        for problem in report["problems"]:
            # the engine's message stays (English, for logs); detail is the user's language
            problem["detail"] = problem_text(problem)
        return Response(report)


class DiscardIn(serializers.Serializer):
    dealt = CardsField(
        help_text="The cards dealt to you: 6 with two players, 5 with three or four."
    )
    dealer = serializers.BooleanField(
        help_text="The crib is yours (you deal; with 4 players, you or your partner)."
    )
    players = serializers.ChoiceField(choices=[2, 3, 4], default=2)
    seen = CardsField(
        required=False,
        default="",
        help_text="Other cards known to be out of play (not the starter, not in the crib).",
    )


class HandDistributionOut(serializers.Serializer):
    mean = serializers.FloatField()
    min = serializers.IntegerField()
    max = serializers.IntegerField()
    chance_12_plus = serializers.FloatField(help_text="Chance (0..1) of 12 points or more.")
    counts = serializers.ListField(
        child=serializers.IntegerField(), help_text="Starters giving 0, 1, ..., 29 points."
    )
    starters = serializers.IntegerField()


class CribOut(serializers.Serializer):
    mean = serializers.FloatField()
    yours = serializers.BooleanField()
    points = serializers.IntegerField(help_text="Exact sum of the crib's points over all cases.")
    cases = serializers.IntegerField(help_text="The others' crib cards x starters.")


class DiscardOptionOut(serializers.Serializer):
    keep = serializers.ListField(child=serializers.CharField())
    discard = serializers.ListField(child=serializers.CharField())
    net = serializers.FloatField(help_text="Expected hand + crib (yours) or - crib (theirs).")
    hand = HandDistributionOut()
    crib = CribOut()


class DiscardOut(serializers.Serializer):
    dealt = serializers.ListField(child=serializers.CharField())
    seen = serializers.ListField(child=serializers.CharField())
    players = serializers.IntegerField()
    dealer = serializers.BooleanField()
    unseen = serializers.IntegerField()
    model = serializers.CharField(help_text='"uniform over unseen cards".')
    options = DiscardOptionOut(many=True, help_text="Best first.")


class DiscardAdviceView(CribbageView):
    """Rank every discard by expected points, exactly, uniform over the unseen cards.

    Errors are HTTP 400 with the engine's stable code and the message in the user's language:
    ``bad_card``, ``wrong_count`` (not 6 or 5 cards dealt), ``duplicate_card``,
    ``too_many_seen`` (on ``seen``); ``players`` other than 2-4 fails the input check.
    """

    @extend_schema(
        request=DiscardIn,
        responses={200: DiscardOut},
        examples=[
            OpenApiExample("dealer", value={"dealt": "5H 5D JS 6C 4H KD", "dealer": True}),
        ],
    )
    def post(self, request: Request) -> Response:
        data = DiscardIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        try:
            advice = advise_discard(
                values["dealt"],
                dealer=values["dealer"],
                players=values["players"],
                seen=values["seen"],
            )
        except AdviceError as exc:
            where = exc.params.get("what")
            field = "seen" if exc.code == "too_many_seen" or where == "seen" else "dealt"
            raise card_error(field, exc) from None
        return Response(advice.to_dict())
