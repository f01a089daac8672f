"""REST API of the crosstable: who played whom, a page of rows at a time (public)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .crosstable import PER_PAGE, CrossRow, crosstable
from .selectors import standings_event

MAX_PER_PAGE = 200


class OpponentSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    rank = serializers.IntegerField(allow_null=True, help_text="Their rank in the standings.")
    name = serializers.CharField()
    net = serializers.IntegerField(allow_null=True, help_text="Their chip net (Stoppa).")


class CellSerializer(serializers.Serializer):
    game = serializers.IntegerField(help_text="The game (round) number.")
    won = serializers.BooleanField(allow_null=True, help_text="Null until the table has a result.")
    score = serializers.IntegerField(
        allow_null=True, help_text="The player's score (the player's chip net, Stoppa)."
    )
    opponent_score = serializers.IntegerField(allow_null=True)
    game_points = serializers.IntegerField(allow_null=True)
    skunk = serializers.IntegerField(help_text="Skunk level: 0 none, 1 skunk, 2 double, 3 triple.")
    bye = serializers.BooleanField(help_text="A bye (a Stoppa session sat out).")
    forfeit = serializers.BooleanField()
    opponents = OpponentSerializer(many=True, help_text="Everyone else at the table.")


class RowSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    rank = serializers.IntegerField()
    tied = serializers.BooleanField()
    name = serializers.CharField()
    withdrawn = serializers.BooleanField()
    game_points = serializers.IntegerField()
    games_won = serializers.IntegerField()
    games_lost = serializers.IntegerField()
    spread = serializers.IntegerField()
    skunks_won = serializers.IntegerField()
    byes = serializers.IntegerField()
    chips = serializers.IntegerField(allow_null=True)
    cells = serializers.ListField(
        child=CellSerializer(allow_null=True), help_text="One per released game; null: not seated."
    )


class CrosstableSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    after_game = serializers.IntegerField(allow_null=True)
    games = serializers.ListField(child=serializers.IntegerField())
    count = serializers.IntegerField(help_text="Players in the standings.")
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    rows = RowSerializer(many=True)


def _cell(slot) -> dict | None:
    if slot is None:
        return None
    cell, opponents = slot
    return {
        "game": cell.number,
        "won": cell.won,
        "score": cell.own,
        "opponent_score": cell.other,
        "game_points": cell.points,
        "skunk": cell.skunk,
        "bye": cell.bye,
        "forfeit": cell.forfeit,
        "opponents": [
            {"entry": o.entry, "rank": o.rank, "name": o.name, "net": o.net} for o in opponents
        ],
    }


def _row(row: CrossRow) -> dict:
    fields = ("entry", "rank", "tied", "name", "withdrawn", "game_points", "games_won")
    more = ("games_lost", "spread", "skunks_won", "byes", "chips")
    return {f: getattr(row, f) for f in (*fields, *more)} | {
        "cells": [_cell(slot) for slot in row.cells]
    }


def _positive(request: Request, name: str, default: int, most: int) -> int:
    value = request.query_params.get(name, "")
    if value.isascii() and value.isdigit() and len(value) < 7 and int(value) > 0:
        return min(int(value), most)
    return default


class EventCrosstable(APIView):
    """The crosstable of an event: rows in standings order (the latest snapshot), one cell
    per released game (W/L, both scores, skunk level, who sat at the table and their rank),
    totals at the end. Public once the standings are published; the event's TD always."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("page", int, description="Page number, from 1 (default 1)."),
            OpenApiParameter(
                "page_size", int, description=f"Rows a page (default {PER_PAGE}, at most 200)."
            ),
        ],
        responses=CrosstableSerializer,
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = standings_event(request.user, event_id)
        if event is None:
            raise NotFound(_("No such event, or its standings are not published."))
        table = crosstable(
            event,
            page=_positive(request, "page", 1, 10**6),
            per_page=_positive(request, "page_size", PER_PAGE, MAX_PER_PAGE),
        )
        return Response(
            {
                "event": event.pk,
                "after_game": table.after_game,
                "games": table.rounds,
                "count": table.total,
                "page": table.page,
                "pages": table.pages,
                "rows": [_row(row) for row in table.rows],
            }
        )
