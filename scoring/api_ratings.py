"""A club's ratings in the API (issue 28): the rated players by conservative rating, a page at
a time, and one player's rating with its line after each event. Public, like the club's
ratings page (``/clubs/<id>/ratings/``)."""

from __future__ import annotations

from typing import Any

from django.db.models import ExpressionWrapper, F, FloatField, QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import Club

from .models import PlayerRating, RatingHistory
from .ratings import is_provisional


class RatingLineSerializer(serializers.Serializer):
    """A rated player of the club."""

    rank = serializers.IntegerField(help_text="Place by conservative rating, 1 = best.")
    player = serializers.IntegerField()
    name = serializers.CharField()
    mu = serializers.FloatField(help_text="Rating (the mean of the estimate).")
    sigma = serializers.FloatField(help_text="Uncertainty of the estimate.")
    ordinal = serializers.FloatField(help_text="Conservative rating: mu - 3 sigma.")
    games = serializers.IntegerField(help_text="Rated games.")
    provisional = serializers.BooleanField()


class HistoryLineSerializer(serializers.Serializer):
    """A player's rating after one event."""

    event = serializers.IntegerField()
    event_name = serializers.CharField()
    date = serializers.DateField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    games = serializers.IntegerField()


class PlayerRatingSerializer(serializers.Serializer):
    """A player's rating in a club, with its history (oldest event first)."""

    player = serializers.IntegerField()
    name = serializers.CharField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()
    history = HistoryLineSerializer(many=True)


def _club(club_id: int) -> Club:
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise NotFound(_("No such club."))
    return club


def _line(rating: Any) -> dict[str, Any]:
    return {
        "player": rating.player_id,
        "name": rating.player.name,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "ordinal": rating.mu - 3 * rating.sigma,
        "games": rating.games,
        "provisional": is_provisional(rating.games, rating.sigma),
    }


class ClubRatings(generics.ListAPIView):
    """The club's rated players, best conservative rating (mu - 3 sigma) first: the order of
    the club's ratings page; ties by name, then player id."""

    serializer_class = RatingLineSerializer
    permission_classes = [permissions.AllowAny]
    filter_backends: list = []
    queryset = PlayerRating.objects.none()  # for the schema; requests use get_queryset

    def get_queryset(self) -> QuerySet[PlayerRating]:
        if getattr(self, "swagger_fake_view", False):
            return PlayerRating.objects.none()
        club = _club(self.kwargs["club_id"])
        ordinal = ExpressionWrapper(F("mu") - 3 * F("sigma"), output_field=FloatField())
        return (
            PlayerRating.objects.filter(club=club)
            .annotate(ordinal=ordinal)
            .select_related("player")
            .order_by("-ordinal", "player__name_folded", "player_id")
        )

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        queryset = self.get_queryset()
        page = self.paginate_queryset(queryset)
        assert page is not None  # the default pagination (limit / offset) is always on
        first = self.paginator.offset + 1
        lines = [{"rank": first + i, **_line(rating)} for i, rating in enumerate(page)]
        return self.get_paginated_response(RatingLineSerializer(lines, many=True).data)


class ClubPlayerRating(APIView):
    """One player's rating in the club and the line after each event they were rated in."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=PlayerRatingSerializer)
    def get(self, request: Request, club_id: int, player_id: int) -> Response:
        club = _club(club_id)
        rating = (
            PlayerRating.objects.filter(club=club, player_id=player_id)
            .select_related("player")
            .first()
        )
        if rating is None:
            raise NotFound(_("This player has no rating in this club."))
        lines = (
            RatingHistory.objects.filter(club=club, player_id=player_id)
            .select_related("event")
            .order_by("event__date", "event_id")
        )
        data = _line(rating)
        data["history"] = [
            {
                "event": line.event_id,
                "event_name": line.event.name,
                "date": line.event.date,
                "mu": line.mu,
                "sigma": line.sigma,
                "ordinal": line.mu - 3 * line.sigma,
                "games": line.games,
            }
            for line in lines
        ]
        return Response(PlayerRatingSerializer(data).data)
