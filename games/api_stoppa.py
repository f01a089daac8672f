"""REST API of the Stoppa engine (``games.stoppa``): who wins a punto piccolo or the punto
grosso and why, a stop phase replayed, the deck of a table, a whole deal record verified.

Every engine problem is HTTP 400 with the engine's stable code (``bad_card``,
``duplicate_card``, ``wrong_iteration_size``, ...) and ``attr`` naming the input field
(``hands.1.cards``, ``log.3``); a whole deal record always gets a report, never an error.

``compare_contest`` and ``run_stop`` are shared with the checker page and ``manage.py stoppa``.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import CardsField, CribbageView, openapi_schema
from games.stoppa import (
    RECORD_SCHEMA,
    Card,
    Settings,
    StoppaError,
    deck_info,
    grosso_eval,
    parse_cards,
    piccolo_eval,
    pick_winner,
    rank_players,
    replay_stop,
    simulate_stop,
    stop_payments,
    verify_deal,
)

HandInput = tuple[str | None, Any]  # (player name or None, cards as text or a list)

DEFAULT_NAMES = ("A", "B", "C", "D", "E", "F")


# --------------------------------------------------------------------------- shared checks


def _cards_of(player: str, cards: Any, where: str) -> tuple[Card, ...]:
    try:
        parsed = parse_cards(cards)
    except StoppaError as exc:
        raise StoppaError(exc.code, f"{player}: {exc.message}", where) from None
    if not parsed:
        raise StoppaError("empty_hand", f"{player} has no cards", where)
    return parsed


def _hands(
    hands: Sequence[HandInput], *, table_size: int | None = None, removed_king: str | None = None
) -> tuple[dict[str, tuple[Card, ...]], Any]:
    """Names and parsed cards in priority order, and the deck in use (None without
    ``table_size``); duplicate cards and cards out of that deck are refused."""
    deck = None
    if table_size is not None:
        try:
            deck = deck_info(table_size, removed_king or None)
        except StoppaError as exc:
            field = "table_size" if exc.code == "unsupported_player_count" else "removed_king"
            raise StoppaError(exc.code, exc.message, field) from None
        if len(hands) > table_size:
            raise StoppaError(
                "unsupported_player_count",
                f"{len(hands)} hands for a table of {table_size}",
                "hands",
            )
    out: dict[str, tuple[Card, ...]] = {}
    seen: dict[Card, str] = {}
    for i, (name, cards) in enumerate(hands):
        player = (name or "").strip() or DEFAULT_NAMES[i]
        if player in out:
            raise StoppaError("duplicate_player", f"{player} is listed twice", f"hands.{i}.player")
        where = f"hands.{i}.cards"
        parsed = _cards_of(player, cards, where)
        for card in parsed:
            if deck is not None:
                deck.check_card(card, where)
            if card in seen:
                raise StoppaError(
                    "duplicate_card", f"card {card} is held by {seen[card]} and {player}", where
                )
            seen[card] = player
        out[player] = parsed
    return out, deck


def compare_contest(
    phase: str,
    hands: Sequence[HandInput],
    *,
    table_size: int | None = None,
    removed_king: str | None = None,
) -> dict[str, Any]:
    """Who wins a punto piccolo (``phase="piccolo"``: each player's cards of one iteration) or
    the punto grosso (``"grosso"``: every card each received), among ``hands`` listed in
    priority order (di mano first). Returns the winner, ``decided_by`` (``count``, ``points``,
    ``priority``, or ``uncontested`` for one hand) and the ranking with the reason each player
    lost. Raises ``StoppaError`` with ``where`` naming the input (``hands.1.cards``).
    """
    if phase not in ("piccolo", "grosso"):
        raise ValueError(f"unknown phase {phase!r}")
    if not 1 <= len(hands) <= 6:
        raise StoppaError(
            "unsupported_player_count", f"compare 1 to 6 players, not {len(hands)}", "hands"
        )
    parsed, deck = _hands(hands, table_size=table_size, removed_king=removed_king)
    if phase == "piccolo":
        allowed = sorted(set(deck.schedule)) if deck is not None else [1, 2, 3]
        first = next(iter(parsed))
        size = len(parsed[first])
        for i, (player, cards) in enumerate(parsed.items()):
            if len(cards) not in allowed:
                raise StoppaError(
                    "wrong_iteration_size",
                    f"an iteration deals {' or '.join(map(str, allowed))} card(s) to each "
                    f"player; {player} has {len(cards)}",
                    f"hands.{i}.cards",
                )
            if len(cards) != size:
                raise StoppaError(
                    "wrong_iteration_size",
                    f"an iteration deals the same number of cards to each player: {first} has "
                    f"{size}, {player} has {len(cards)}",
                    f"hands.{i}.cards",
                )
        evaluate = piccolo_eval
    else:
        if deck is not None:
            for i, (player, cards) in enumerate(parsed.items()):
                if len(cards) != deck.per_player:
                    raise StoppaError(
                        "wrong_iteration_size",
                        f"at {deck.players} players each receives {deck.per_player} cards; "
                        f"{player} has {len(cards)}",
                        f"hands.{i}.cards",
                    )
        evaluate = grosso_eval
    order = list(parsed)
    evals = {p: evaluate(cards) for p, cards in parsed.items()}
    winner, decided_by = pick_winner(order, evals)
    if len(order) == 1:
        decided_by = "uncontested"
    return {
        "phase": phase,
        "order": order,
        "hands": {p: [c.text for c in cards] for p, cards in parsed.items()},
        "winner": winner,
        "decided_by": decided_by,
        "ranking": [s.to_dict() for s in rank_players(order, evals)],
    }


_WHERE_INDEX = re.compile(r"\[(\d+)\]")


def _attr(where: str) -> str | None:
    """An engine ``where`` (``stop.log[3]``) as an API attr (``log.3``)."""
    if not where:
        return None
    where = where.removeprefix("stop.")
    return _WHERE_INDEX.sub(r".\1", where)


def run_stop(
    hands: Sequence[HandInput],
    log: Sequence[Any] | None,
    *,
    unit: int = 6,
    cards_per_payment: int = 2,
    three_aces_free: bool = False,
) -> dict[str, Any]:
    """Replay a stop phase (``log``: plays in order, ``{"player", "cards"}`` or ``"P: cards"``)
    from the full hands in priority order, or play it out when ``log`` is None or empty.
    Returns the closer, the plays, the cards left, warnings and each player's payment.
    """
    if not 2 <= len(hands) <= 6:
        raise StoppaError(
            "unsupported_player_count",
            f"a stop phase needs 2 to 6 players, not {len(hands)}",
            "hands",
        )
    parsed, _ = _hands(hands)
    order = list(parsed)
    simulated = not log
    try:
        if simulated:
            played, result = simulate_stop(order, parsed)
        else:
            played = list(log)
            result = replay_stop(order, parsed, played, three_aces_free=three_aces_free)
        payments = stop_payments(result.closer, result.remaining, unit, cards_per_payment)
    except StoppaError as exc:
        where = exc.where or ("hands" if exc.code in {"duplicate_card", "empty_hand"} else "")
        raise StoppaError(exc.code, exc.message, _attr(where) or "") from None
    data = result.to_dict()
    data.update(
        {
            "order": order,
            "simulated": simulated,
            "payments": payments,
            "unit": unit,
            "cards_per_payment": cards_per_payment,
        }
    )
    return data


def stoppa_error(exc: StoppaError, default_attr: str | None = None) -> ValidationError:
    """A 400 with the engine's code, its message, and ``attr`` naming the input field."""
    detail = ErrorDetail(exc.message, code=exc.code)
    attr = _attr(exc.where) or default_attr
    return ValidationError({attr: [detail]} if attr else [detail])


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
    message = serializers.CharField()
    where = serializers.CharField()


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
        "message": {"type": "string"},
        "where": {"type": "string"},
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
        return Response(verify_deal(request.data).to_dict())
