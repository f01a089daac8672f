"""The TD API of a night that runs itself at the door (issue 28): online registration and its
cap, the waiting list, the door's self check-in (close, re-open, new QR token, who checked in
how), and the club's event templates."""

from __future__ import annotations

from django.http import Http404
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from .. import selectors
from ..limits import MAX_ID
from ..models import Club, Event, EventTemplate
from ..services import door, registration, templates
from .base import TD_ERRORS, TDView
from .serializers import EventSettingsSerializer

# --- Registration and the waiting list -----------------------------------------------------------


class WaitingPlaceSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField(
        source="registration.name", help_text="The player, or both partners for a team."
    )
    partner = serializers.CharField(source="registration.partner.name", allow_null=True)
    email = serializers.CharField(source="registration.email")
    phone = serializers.CharField(source="registration.phone")
    created_at = serializers.DateTimeField()


class RegistrationRowSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The player, or both partners for a team.")
    partner = serializers.CharField(source="partner.name", allow_null=True)
    email = serializers.CharField()
    phone = serializers.CharField()
    entry = serializers.IntegerField(source="entry_id", allow_null=True)
    created_at = serializers.DateTimeField()
    moved_up_at = serializers.DateTimeField(allow_null=True)


class RegistrationSerializer(serializers.Serializer):
    registration_open = serializers.BooleanField()
    cap = serializers.IntegerField(allow_null=True)
    entrants = serializers.IntegerField(help_text="Entries that have not withdrawn.")
    register_url = serializers.CharField(help_text="The public registration page.")
    waiting_list = WaitingPlaceSerializer(many=True)
    registrations = RegistrationRowSerializer(many=True)


class RegistrationInput(serializers.Serializer):
    registration_open = serializers.BooleanField()
    cap = serializers.IntegerField(
        allow_null=True,
        min_value=0,
        max_value=5000,
        help_text="Most entrants (null: no limit); never below the entrants already in "
        "(code `cap_below_entrants`).",
    )


def _registration(request: Request, event: Event) -> Response:
    return Response(
        RegistrationSerializer(
            {
                "registration_open": event.registration_open,
                "cap": event.cap,
                "entrants": registration.entrants_count(event),
                "register_url": request.build_absolute_uri(
                    reverse("event-register", args=[event.pk])
                ),
                "waiting_list": event.waiting_list.select_related(
                    "registration__player", "registration__partner"
                ).order_by("position"),
                "registrations": event.registrations.select_related("player", "partner").order_by(
                    "created_at", "pk"
                ),
            }
        ).data
    )


class EventRegistration(TDView):
    """Online registration of an event: open or closed, the cap, the waiting list."""

    @extend_schema(
        summary="Online registration and the waiting list",
        description=TD_ERRORS,
        responses={200: RegistrationSerializer},
    )
    def get(self, request: Request, event_id: int) -> Response:
        return _registration(request, self.event())

    @extend_schema(
        summary="Open or close online registration, set the cap",
        description="Raising the cap (or lifting it) moves the waiting list up before the "
        "first draw. " + TD_ERRORS,
        request=RegistrationInput,
        responses={200: RegistrationSerializer},
    )
    def put(self, request: Request, event_id: int) -> Response:
        data = self.valid(RegistrationInput, request.data)
        event = registration.set_registration(
            self.event(),
            registration_open=data["registration_open"],
            cap=data["cap"],
            user=request.user,
        )
        return _registration(request, event)


# --- The door's self check-in --------------------------------------------------------------------


class CheckInRowSerializer(serializers.Serializer):
    player = serializers.CharField()
    how = serializers.ChoiceField(choices=["link", "door"])
    by = serializers.CharField(
        allow_blank=True, help_text="The player this phone checked in first, when another."
    )
    device = serializers.CharField(
        allow_blank=True, help_text="The phone's label (a hash of its device cookie)."
    )
    at = serializers.DateTimeField()


class SelfCheckInSerializer(serializers.Serializer):
    open = serializers.BooleanField(help_text="Whether players can check themselves in now.")
    refusal = serializers.CharField(allow_blank=True, help_text="Why not, when closed.")
    door_closed = serializers.BooleanField(help_text="Closed by the TD.")
    door_url = serializers.CharField(help_text="The door QR's link (it carries the token).")
    check_ins = CheckInRowSerializer(many=True)


class SelfCheckInInput(serializers.Serializer):
    closed = serializers.BooleanField(required=False, help_text="Close or re-open the door.")
    rotate = serializers.BooleanField(
        default=False, help_text="A new door token: the old QR code stops working."
    )


def _self_check_in(request: Request, event: Event) -> Response:
    refusal = door.door_refusal(event)
    url = reverse("event-door", args=[event.pk, event.door_token])
    return Response(
        SelfCheckInSerializer(
            {
                "open": not refusal,
                "refusal": refusal,
                "door_closed": event.door_closed,
                "door_url": request.build_absolute_uri(url),
                "check_ins": [
                    {
                        "player": (row.new or {}).get("player", ""),
                        "how": (row.new or {}).get("how", "door"),
                        "by": (row.new or {}).get("by", ""),
                        "device": (row.new or {}).get("device", ""),
                        "at": row.at,
                    }
                    for row in door.self_check_ins(event)
                ],
            }
        ).data
    )


class EventSelfCheckIn(TDView):
    """Players' self check-in: the door QR's link, open or closed, who checked in how."""

    @extend_schema(
        summary="Self check-in at the door",
        description=TD_ERRORS,
        responses={200: SelfCheckInSerializer},
    )
    def get(self, request: Request, event_id: int) -> Response:
        return _self_check_in(request, self.event())

    @extend_schema(
        summary="Close or re-open the door, or give the door QR a new token",
        description=TD_ERRORS,
        request=SelfCheckInInput,
        responses={200: SelfCheckInSerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        data = self.valid(SelfCheckInInput, request.data)
        event = door.set_door(
            self.event(), closed=data.get("closed"), rotate=data["rotate"], user=request.user
        )
        return _self_check_in(request, event)


# --- Event templates ------------------------------------------------------------------------------


class EventTemplateSerializer(serializers.ModelSerializer):
    class Meta:
        model = EventTemplate
        fields = ["id", "name", "settings", "extras", "created_at"]
        read_only_fields = fields


class TemplateInput(serializers.Serializer):
    event = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="The event to save (the club's)."
    )
    name = serializers.CharField(max_length=120)
    replace = serializers.BooleanField(default=False)


class FromTemplateInput(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    date = serializers.DateField()


class _ClubTemplates(TDView):
    def club(self) -> Club:
        return selectors.directed_club(self.request.user, self.kwargs["club_id"])

    def template(self) -> EventTemplate:
        found = EventTemplate.objects.filter(
            club=self.club(), pk=self.kwargs["template_id"]
        ).first()
        if found is None:
            raise Http404("No such template.")
        return found


class ClubTemplates(_ClubTemplates):
    """A club's event templates, and saving an event as one."""

    @extend_schema(
        summary="List the club's event templates",
        description=TD_ERRORS,
        responses={200: EventTemplateSerializer(many=True)},
    )
    def get(self, request: Request, club_id: int) -> Response:
        rows = EventTemplate.objects.filter(club=self.club()).order_by("name", "pk")
        return Response(EventTemplateSerializer(rows, many=True).data)

    @extend_schema(
        summary="Save an event as a template",
        description="The settings a clone keeps, the cap and the money desk's fees and pools; "
        "a name the club has already is refused (code `template_name_taken`) unless "
        "replace. " + TD_ERRORS,
        request=TemplateInput,
        responses={201: EventTemplateSerializer},
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = self.club()
        data = self.valid(TemplateInput, request.data)
        event = selectors.directed_event(request.user, data["event"])
        if event.club_id != club.pk:
            raise Http404("No such event in the club.")
        made = templates.save_template(event, name=data["name"], replace=data["replace"])
        return Response(EventTemplateSerializer(made).data, status=status.HTTP_201_CREATED)


class ClubTemplate(_ClubTemplates):
    """One template of the club."""

    @extend_schema(summary="Delete an event template", description=TD_ERRORS, responses={204: None})
    def delete(self, request: Request, club_id: int, template_id: int) -> Response:
        templates.delete_template(self.club(), self.template().pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EventFromTemplate(_ClubTemplates):
    """A new event from one of the club's templates."""

    @extend_schema(
        summary="New event from a template",
        description="A draft event of the club played as the template says, with its fees. "
        + TD_ERRORS,
        request=FromTemplateInput,
        responses={201: EventSettingsSerializer},
    )
    def post(self, request: Request, club_id: int, template_id: int) -> Response:
        data = self.valid(FromTemplateInput, request.data)
        made = templates.event_from_template(self.template(), name=data["name"], date=data["date"])
        return self.settings_response(made, status.HTTP_201_CREATED)
