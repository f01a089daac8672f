"""The TD API on a club's members (issue 27): the roll by season, and the guest rule at the
door of an event."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from .. import selectors
from ..limits import MAX_ID
from ..models import Club, Membership, Player
from ..selectors_members import club_memberships, door_statuses
from ..services import members as member_services
from .base import TD_ERRORS, TDView


class MembershipSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Membership
        fields = [
            "id",
            "player",
            "name",
            "acc_number",
            "season_start",
            "season_end",
            "dues_paid",
            "paid_on",
            "member_since",
        ]
        read_only_fields = fields


class MembershipInput(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="A club player.")
    acc_number = serializers.CharField(
        max_length=40,
        help_text="The ACC member number: digits, optionally after up to three letters and "
        "a dash (refused with code `bad_acc_number` otherwise).",
    )
    dues_paid = serializers.DecimalField(
        max_digits=8, decimal_places=2, min_value=0, required=False, default="0.00"
    )
    paid_on = serializers.DateField(required=False, allow_null=True, default=None)
    member_since = serializers.DateField(required=False, allow_null=True, default=None)
    season_start = serializers.DateField(
        required=False, allow_null=True, default=None, help_text="September 1 by default."
    )
    season_end = serializers.DateField(
        required=False, allow_null=True, default=None, help_text="May 31 by default."
    )


class DoorStatusSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    member = serializers.BooleanField()
    nights_played = serializers.IntegerField()
    nights_allowed = serializers.IntegerField()
    best_game_points = serializers.IntegerField()
    must_join = serializers.BooleanField()
    label = serializers.CharField(help_text='"Member", "Guest 3/4" or "Must join".')
    reason = serializers.CharField()


class _ClubView(TDView):
    def club(self) -> Club:
        return selectors.directed_club(self.request.user, self.kwargs["club_id"])

    def player(self, club: Club, player_id: int) -> Player:
        found = selectors.club_players(club).filter(pk=player_id).first()
        if found is None:
            raise Http404("No such player in the club.")
        return found


class ClubMembers(_ClubView):
    """A club's members by season (its TDs only), and a new membership."""

    @extend_schema(
        summary="List the club's memberships",
        description="Newest season first. " + TD_ERRORS,
        responses={200: MembershipSerializer(many=True)},
    )
    def get(self, request: Request, club_id: int) -> Response:
        rows = club_memberships(self.club())[:1000]
        return Response(MembershipSerializer(rows, many=True).data)

    @extend_schema(
        summary="Make a player a member for a season",
        description="The ACC number is checked (code `bad_acc_number`), and given to the "
        "player when they have none. " + TD_ERRORS,
        request=MembershipInput,
        responses={201: MembershipSerializer},
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = self.club()
        values = self.valid(MembershipInput, request.data)
        player = self.player(club, values.pop("player"))
        row = member_services.save_membership(club, player, **values)
        return Response(MembershipSerializer(row).data, status=status.HTTP_201_CREATED)


class ClubMember(_ClubView):
    """One membership of the club: read, change, remove."""

    def membership(self) -> Membership:
        row = Membership.objects.filter(pk=self.kwargs["membership_id"], club=self.club()).first()
        if row is None:
            raise Http404("No such membership.")
        return row

    @extend_schema(
        summary="Read a membership",
        description=TD_ERRORS,
        responses={200: MembershipSerializer},
    )
    def get(self, request: Request, club_id: int, membership_id: int) -> Response:
        return Response(MembershipSerializer(self.membership()).data)

    @extend_schema(
        summary="Change a membership",
        description="Every field again (as when it was made). " + TD_ERRORS,
        request=MembershipInput,
        responses={200: MembershipSerializer},
    )
    def put(self, request: Request, club_id: int, membership_id: int) -> Response:
        row = self.membership()
        values = self.valid(MembershipInput, request.data)
        player = self.player(row.club, values.pop("player"))
        row = member_services.save_membership(row.club, player, membership=row, **values)
        return Response(MembershipSerializer(row).data)

    @extend_schema(summary="Remove a membership", description=TD_ERRORS, responses={204: None})
    def delete(self, request: Request, club_id: int, membership_id: int) -> Response:
        member_services.delete_membership(self.membership())
        return Response(status=status.HTTP_204_NO_CONTENT)


class EventDoor(TDView):
    """The guest rule at the door: each entrant a member, or a guest with the nights played."""

    @extend_schema(
        summary="Members and guests of an event",
        description="Per entry, on the event's date: member or guest, the nights a guest has "
        "played this season of those allowed, their best night's game points, and whether "
        "they must join now. " + TD_ERRORS,
        responses={200: DoorStatusSerializer(many=True)},
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = self.event()
        found = door_statuses(event)
        rows = []
        for entry in event.entries.select_related("player").order_by("player__name_folded"):
            door = found[entry.pk]
            rows.append(
                {
                    "entry": entry.pk,
                    "player": entry.player_id,
                    "name": entry.name,
                    "member": door.is_member,
                    "nights_played": door.nights_played,
                    "nights_allowed": door.nights_allowed,
                    "best_game_points": door.best_game_points,
                    "must_join": door.must_join,
                    "label": door.label,
                    "reason": door.reason,
                }
            )
        return Response(DoorStatusSerializer(rows, many=True).data)
