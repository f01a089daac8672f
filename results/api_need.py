"""The player's "what I need" through the API: what it takes to make the cut (issue 28)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.cut_line import Need
from scoring.cut_needs import describe_need, need_of

from . import services
from .api import KeyView


class NeedInput(serializers.Serializer):
    key = serializers.CharField(
        max_length=64, help_text="The player's private key (from the QR code)."
    )


class NeedOutput(serializers.Serializer):
    entry = serializers.IntegerField()
    event = serializers.IntegerField()
    need = serializers.ChoiceField(
        choices=[n.value for n in Need],
        allow_null=True,
        help_text="in: in whatever happens; wins: `wins` wins put them in; skunks: `wins` wins "
        "at skunk level `skunk_level` do; tiebreak: `wins` wins do unless they finish level "
        "with `level_with`, then `tiebreak` decides; open: possible, the other tables decide; "
        "out: out of reach. Null: the event has no cut ahead.",
    )
    text = serializers.CharField(help_text="The same in words, in the request's language.")
    games_left = serializers.IntegerField(allow_null=True)
    wins = serializers.IntegerField(allow_null=True)
    skunk_level = serializers.IntegerField(allow_null=True)
    level_with = serializers.ListField(child=serializers.CharField())
    tiebreak = serializers.CharField(help_text="The ranking chain's key after the exact ones.")


class NeedView(KeyView):
    """What the player needs to make the cut before their next qualifying game, from the
    current standings and the games left (the private page shows the same words)."""

    @extend_schema(request=NeedInput, responses={200: NeedOutput})
    def post(self, request: Request) -> Response:
        data = NeedInput(data=request.data)
        data.is_valid(raise_exception=True)
        entry = services.entry_for_key(data.validated_data["key"])
        verdict = need_of(entry.event, entry.pk)
        return Response(
            {
                "entry": entry.pk,
                "event": entry.event_id,
                "need": verdict.need.value if verdict else None,
                "text": describe_need(verdict) if verdict else "",
                "games_left": verdict.games_left if verdict else None,
                "wins": verdict.wins if verdict else None,
                "skunk_level": verdict.skunk_level if verdict else None,
                "level_with": list(verdict.level_with) if verdict else [],
                "tiebreak": verdict.tiebreak if verdict else "",
            }
        )
