"""The TD's REST API: everything the TD console does, for a club's own scripts and boards.

Every route is for a signed-in TD of the event's club (a session, a token from
``manage.py api_token <username>``, or HTTP basic): anyone else gets 401 when not signed in
and 404 for another club's event, as the pages do. Each action calls the service the TD page
calls; a refused one answers 400 with the service's message and code on its field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import permissions, serializers, status
from rest_framework.authentication import (
    BasicAuthentication,
    SessionAuthentication,
    TokenAuthentication,
)
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pegboard.drf import as_validation_error
from pegboard.errors import ServiceError
from tournaments import kinds
from tournaments.limits import MAX_ID, MAX_NUMBER, MAX_SCORE

from . import api, selectors, services
from .api import BracketSerializer, ClubSerializer, PlayoffMatchSerializer, ResultSerializer
from .models import Bracket, Entry, Event, Player, PlayoffMatch, Round, Table
from .services.events import MAX_SEED

T = TypeVar("T")


# A token first: a script without credentials is answered 401 with ``WWW-Authenticate:
# Token`` (with the session first, DRF answers 403 and no hint of how to sign in).
TD_AUTHENTICATION = [TokenAuthentication, BasicAuthentication, SessionAuthentication]


TD_ERRORS = "400: refused, with the reason; 401: not signed in; 404: not a TD of the club."


# --- Serializers --------------------------------------------------------------------------------


class EventSettingsSerializer(serializers.ModelSerializer):
    """An event as its TD sees it: every setting, the status, and what can no longer change."""

    club = ClubSerializer(read_only=True)
    match_point_format = serializers.IntegerField(source="match_point_format_id")
    match_point_format_code = serializers.CharField(source="match_point_format.code")
    tiebreakers = serializers.ListField(
        child=serializers.CharField(),
        source="ranking_chain",
        help_text="The ranking chain in use, in order.",
    )
    locks = serializers.SerializerMethodField(
        help_text="The settings that can no longer change, each with the reason."
    )

    class Meta:
        model = Event
        fields = [
            "id",
            "club",
            "name",
            "date",
            "game",
            "kind",
            "pairing",
            "meetings_per_opponent",
            "games_planned",
            "target",
            "muggins",
            "match_point_format",
            "match_point_format_code",
            "tiebreakers",
            "seed",
            "confirmation",
            "status",
            "standings_published",
            "locks",
        ]

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_locks(self, obj: Event) -> dict[str, str]:
        return services.settings_locks(obj)


class EventInput(serializers.Serializer):
    """The settings of an event (all but ``name`` and ``date`` optional when creating; any
    subset when editing)."""

    name = serializers.CharField(max_length=200, allow_blank=True)  # the service says why
    date = serializers.DateField()
    game = serializers.ChoiceField(choices=[], required=False)  # the kinds, filled in at init
    kind = serializers.ChoiceField(choices=Event.Kind.choices, required=False)
    pairing = serializers.ChoiceField(choices=Event.Pairing.choices, required=False)
    meetings_per_opponent = serializers.IntegerField(min_value=1, max_value=2, required=False)
    games_planned = serializers.IntegerField(min_value=1, max_value=40, required=False)
    target = serializers.ChoiceField(choices=Event.Target.choices, required=False)
    muggins = serializers.BooleanField(required=False)
    match_point_format = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text="Match-point format id."
    )
    tiebreakers = serializers.ListField(
        child=serializers.CharField(max_length=40),
        max_length=30,
        required=False,
        help_text="The ranking chain, in order (keys of the game's tiebreakers).",
    )
    seed = serializers.IntegerField(min_value=0, max_value=MAX_SEED, required=False)
    confirmation = serializers.ChoiceField(choices=Event.Confirmation.choices, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(k, str(label)) for k, label in kinds.choices()]


class EventCreateInput(EventInput):
    pass


class EventPatchInput(EventInput):
    name = serializers.CharField(max_length=200, allow_blank=True, required=False)
    date = serializers.DateField(required=False)


class TDEntrySerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="player.name")
    acc_number = serializers.CharField(source="player.acc_number")
    player = serializers.IntegerField(source="player_id", help_text="The club player's id.")

    class Meta:
        model = Entry
        fields = ["id", "player", "name", "acc_number", "checked_in", "withdrawn"]


class RegisterInput(serializers.Serializer):
    player = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        help_text="Enter one of the club's players by id; or give a name:",
    )
    name = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=200,
        help_text="Found by ACC number, else by exact name among the club's players, "
        "else a new player.",
    )
    acc_number = serializers.CharField(required=False, allow_blank=True, max_length=20)
    status = serializers.ChoiceField(
        choices=Player.Status.choices, default=Player.Status.MEMBER, required=False
    )
    checked_in = serializers.BooleanField(default=True)


class ImportInput(serializers.Serializer):
    text = serializers.CharField(
        max_length=200_000,
        help_text="One player a line; an ACC number after a tab or the last comma.",
    )
    checked_in = serializers.BooleanField(default=False)


class RosterLineSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    name = serializers.CharField()
    acc_number = serializers.CharField()
    outcome = serializers.ChoiceField(choices=["added", "matched", "skipped"])
    reason = serializers.CharField()


class ImportOutput(serializers.Serializer):
    added = serializers.IntegerField()
    matched = serializers.IntegerField()
    skipped = serializers.IntegerField()
    lines = RosterLineSerializer(many=True)


class CheckInAllOutput(serializers.Serializer):
    checked_in = serializers.IntegerField(help_text="Entries checked in now.")


class TDTableSerializer(serializers.ModelSerializer):
    seat_a_name = serializers.CharField(source="seat_a.player.name")
    seat_b_name = serializers.CharField(source="seat_b.player.name", allow_null=True, default=None)
    result = ResultSerializer(read_only=True, allow_null=True, default=None)

    class Meta:
        model = Table
        fields = ["number", "seat_a", "seat_a_name", "seat_b", "seat_b_name", "note", "result"]


class GameDetailSerializer(serializers.ModelSerializer):
    """A game (drafts included) with its tables, by number, byes last."""

    tables = serializers.SerializerMethodField()
    problems = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="What a confirmed swap breaks (swap only).",
    )

    class Meta:
        model = Round
        fields = ["number", "status", "seed", "method", "notes", "tables", "problems"]

    @extend_schema_field(TDTableSerializer(many=True))
    def get_tables(self, obj: Round) -> list[dict]:
        tables = selectors.game_tables(obj).select_related(
            "seat_a__player", "seat_b__player", "result__table__round"
        )
        return list(TDTableSerializer(tables, many=True).data)


class DrawInput(serializers.Serializer):
    draft = serializers.BooleanField(
        default=False, help_text="Keep the game a draft (release it later)."
    )


class SwapInput(serializers.Serializer):
    player_a = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="Entry id.")
    player_b = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="Entry id.")
    confirm = serializers.BooleanField(
        default=False, help_text="Swap even if it seats a repeat, a forbidden pair or a bad bye."
    )


class CorrectInput(serializers.Serializer):
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


class UndoInput(serializers.Serializer):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class UndoneSerializer(serializers.Serializer):
    winner = serializers.CharField()
    loser = serializers.CharField()
    loser_score = serializers.IntegerField(allow_null=True)
    forfeit = serializers.BooleanField()


class UndoOutput(serializers.Serializer):
    game = serializers.IntegerField()
    table = serializers.IntegerField(help_text="The table, open again.")
    undone = UndoneSerializer(help_text="The result taken back.")
    draft_removed = serializers.IntegerField(
        allow_null=True, help_text="The draft game thrown away with it (drawn on the result)."
    )


class PlayoffInput(serializers.Serializer):
    source = serializers.ChoiceField(
        choices=Bracket.Source.choices,
        required=False,
        help_text="Default: the qualifying standings once games were played, else a draw.",
    )
    qualifiers = serializers.IntegerField(min_value=2, max_value=MAX_NUMBER, required=False)
    best_of = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=99),
        min_length=1,
        max_length=20,
        default=[3],
        help_text="Best of, per round (the last repeats).",
    )
    side_best_of = serializers.IntegerField(
        min_value=1, max_value=99, required=False, allow_null=True
    )
    third_place = serializers.BooleanField(default=False)
    consolation = serializers.BooleanField(default=False)
    double_elimination = serializers.BooleanField(default=False)
    confirm_lots = serializers.BooleanField(
        default=False,
        help_text="Confirm a cut whose last places were settled by the draw of lots "
        "(refused as `cut_tie`, naming the tied players, until confirmed).",
    )
    ranking_event = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        allow_null=True,
        help_text="Draw only: byes by the standings of this event of the club.",
    )


class PlayoffGameInput(serializers.Serializer):
    match = serializers.CharField(max_length=20, help_text="Match code, as in the bracket.")
    winner = serializers.IntegerField(min_value=-MAX_ID, max_value=MAX_ID, help_text="Entry id.")
    loser_score = serializers.IntegerField(
        required=False, allow_null=True, min_value=-MAX_SCORE, max_value=MAX_SCORE
    )
    forfeit = serializers.BooleanField(default=False)


class PlayoffUndoInput(serializers.Serializer):
    match = serializers.CharField(max_length=20)


class NoInput(serializers.Serializer):
    """No input: the action needs none (a body, if any, is ignored)."""


class PublishInput(serializers.Serializer):
    published = serializers.BooleanField(help_text="Show the standings to the public.")


# --- Views --------------------------------------------------------------------------------------


def run(action: Callable[[], T]) -> T:
    """Call a service; its refusal is a 400 with the message and code."""
    try:
        return action()
    except ServiceError as exc:
        raise as_validation_error(exc) from None


def valid(serializer_class: type[serializers.Serializer], data: Any) -> dict:
    """The validated input, or a 400 naming the bad fields."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def settings_response(event: Event, code: int = status.HTTP_200_OK) -> Response:
    """The event's settings, read afresh after a change."""
    event = Event.objects.select_related("club", "match_point_format").get(pk=event.pk)
    return Response(EventSettingsSerializer(event).data, status=code)


def td_event(request: Request, event_id: int) -> Event:
    """The event if the user directs its club, else 404."""
    return selectors.directed_event(request.user, event_id)


class TDView(APIView):
    """A TD action on one event of their club: 404 for anyone else's."""

    authentication_classes = TD_AUTHENTICATION
    permission_classes = [permissions.IsAuthenticated]
    run = staticmethod(run)
    valid = staticmethod(valid)
    settings_response = staticmethod(settings_response)

    def event(self) -> Event:
        return td_event(self.request, self.kwargs["event_id"])

    def handle_exception(self, exc):
        # A TD of another club learns nothing: 404, as for a missing event (or entry, game).
        if isinstance(exc, Http404):
            exc = NotFound(str(exc) or "Not found.")
        return super().handle_exception(exc)


def _settings_values(values: dict) -> dict:
    return {k: v for k, v in values.items() if v is not None or k == "seed"}


class ClubEvents(TDView):
    """The events of a club its TD runs (drafts included), and a new one."""

    def club(self):
        return selectors.directed_club(self.request.user, self.kwargs["club_id"])

    @extend_schema(
        summary="List the club's events (TD)",
        description="Every event of the club, drafts included, newest first. " + TD_ERRORS,
        responses={200: EventSettingsSerializer(many=True)},
    )
    def get(self, request: Request, club_id: int) -> Response:
        events = self.club().events.select_related("club", "match_point_format")
        rows = events.order_by("-date", "-pk")[:200]
        return Response(EventSettingsSerializer(rows, many=True).data)

    @extend_schema(
        summary="Create an event in the club",
        description="A draft event, ready for entries. Omitted settings take the club's "
        "defaults. " + TD_ERRORS,
        request=EventCreateInput,
        responses={201: EventSettingsSerializer},
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = self.club()
        values = _settings_values(self.valid(EventCreateInput, request.data))
        event = self.run(lambda: services.create_event(club, **values))
        return self.settings_response(event, status.HTTP_201_CREATED)


class EventSettings(TDView):
    """The event's settings as its TD sees them (drafts included), with what is locked."""

    @extend_schema(
        summary="Read an event's settings (TD)",
        description=TD_ERRORS,
        responses={200: EventSettingsSerializer},
    )
    def get(self, request: Request, event_id: int) -> Response:
        return self.settings_response(self.event())


def _td_on_writes(view: APIView) -> list[permissions.BasePermission]:
    # Per method, so that the schema documents each one's errors as they really are.
    request = getattr(view, "request", None)
    if request is not None and request.method not in permissions.SAFE_METHODS:
        return [permissions.IsAuthenticated()]
    return [permissions.AllowAny()]


class EventDetailTD(api.EventDetail):
    """One public event (GET, anyone); its settings changed (PATCH, the club's TD)."""

    authentication_classes = TD_AUTHENTICATION

    def get_permissions(self) -> list[permissions.BasePermission]:
        return _td_on_writes(self)

    @extend_schema(
        summary="Change an event's settings",
        description="Any subset of the settings. One that can no longer change (see `locks`) "
        "is refused with the reason. " + TD_ERRORS,
        request=EventPatchInput,
        responses={200: EventSettingsSerializer},
    )
    def patch(self, request: Request, event_id: int) -> Response:
        event = td_event(request, event_id)
        data = EventPatchInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values = _settings_values(dict(data.validated_data))
        event = run(lambda: services.update_event_settings(event, **values))
        return settings_response(event)


class FinishEvent(TDView):
    """Finish the event."""

    @extend_schema(
        summary="Finish the event",
        description="Once every drawn game is complete. " + TD_ERRORS,
        request=NoInput,
        responses={200: EventSettingsSerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        return self.settings_response(self.run(lambda: services.finish_event(event)))


class ReopenEvent(TDView):
    """Re-open a finished event."""

    @extend_schema(
        summary="Re-open a finished event",
        description="Back to running, for a late correction or another game. " + TD_ERRORS,
        request=NoInput,
        responses={200: EventSettingsSerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        return self.settings_response(self.run(lambda: services.reopen_event(event)))


class PublishStandings(TDView):
    """Publish or hide the standings."""

    @extend_schema(
        summary="Publish or hide the standings",
        description=TD_ERRORS,
        request=PublishInput,
        responses={200: EventSettingsSerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        published = self.valid(PublishInput, request.data)["published"]
        event = self.run(lambda: services.set_standings_published(event, published))
        return self.settings_response(event)


class CheckInAll(TDView):
    """Check in every entry that has not withdrawn."""

    @extend_schema(
        summary="Check in every entry that has not withdrawn",
        description=TD_ERRORS,
        request=NoInput,
        responses={200: CheckInAllOutput},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        return Response({"checked_in": self.run(lambda: services.check_in_all(event))})


class EventEntriesTD(api.EventEntries):
    """The entries of an event (GET: anyone for a public event, its TD for a draft too);
    register one (POST, the club's TD)."""

    authentication_classes = TD_AUTHENTICATION

    def get_permissions(self) -> list[permissions.BasePermission]:
        return _td_on_writes(self)

    @extend_schema(
        summary="Register a player",
        description="A club player by `player` id, or by `name` (and `acc_number`): found by "
        "ACC number, else by exact name among the club's players, else added as a new one. "
        + TD_ERRORS,
        request=RegisterInput,
        responses={201: TDEntrySerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        return register_entry(td_event(request, event_id), request)


def register_entry(event: Event, request: Request) -> Response:
    """Enter a club player by id, or a player by name (and ACC number)."""
    values = valid(RegisterInput, request.data)
    if values.get("player"):
        entry = run(
            lambda: services.enter_club_player(
                event, values["player"], checked_in=values["checked_in"]
            )
        )
    else:
        entry = run(
            lambda: services.register_player(
                event,
                name=values.get("name", ""),
                acc_number=values.get("acc_number", ""),
                status=values["status"],
                checked_in=values["checked_in"],
            )
        )
    entry = Entry.objects.select_related("player").get(pk=entry.pk)
    return Response(TDEntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class ImportEntries(TDView):
    @extend_schema(
        summary="Import a roster (a pasted list of players)",
        description="Each line is matched by ACC number, else by name among the club's "
        "players, else a new member is added; skipped lines say why. " + TD_ERRORS,
        request=ImportInput,
        responses={201: ImportOutput},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        values = self.valid(ImportInput, request.data)
        report = self.run(
            lambda: services.import_roster(event, values["text"], checked_in=values["checked_in"])
        )
        body = {
            "added": len(report.added),
            "matched": len(report.matched),
            "skipped": len(report.skipped),
            "lines": [
                {
                    "line": line.line,
                    "name": line.name,
                    "acc_number": line.acc_number,
                    "outcome": line.outcome,
                    "reason": line.reason,
                }
                for line in report.lines
            ],
        }
        return Response(body, status=status.HTTP_201_CREATED)


class EntryAction(TDView):
    """Check an entry in or out, withdraw or reinstate it."""

    action = ""

    def post(self, request: Request, event_id: int, entry_id: int) -> Response:
        event = self.event()
        entry = get_object_or_404(event.entries.select_related("player"), pk=entry_id)
        act: dict[str, Callable[[], Entry]] = {
            "check_in": lambda: services.set_checked_in(entry, True),
            "check_out": lambda: services.set_checked_in(entry, False),
            "withdraw": lambda: services.withdraw_entry(entry),
            "reinstate": lambda: services.reinstate_entry(entry),
        }
        done = self.run(act[self.action])
        done = Entry.objects.select_related("player").get(pk=done.pk)
        return Response(TDEntrySerializer(done).data)


def _entry_action(name: str, summary: str, description: str) -> type[EntryAction]:
    @extend_schema(
        summary=summary,
        description=description + " " + TD_ERRORS,
        request=NoInput,
        responses={200: TDEntrySerializer},
    )
    def post(self, request: Request, event_id: int, entry_id: int) -> Response:
        return EntryAction.post(self, request, event_id, entry_id)

    return type(f"Entry_{name}", (EntryAction,), {"action": name, "post": post})


CheckInEntry = _entry_action("check_in", "Check an entry in", "Present for the next draw.")
CheckOutEntry = _entry_action("check_out", "Check an entry out", "Left out of the next draw.")


class WithdrawInput(serializers.Serializer):
    forfeit_open = serializers.BooleanField(
        default=False,
        help_text="Give the opponent the forfeit win at every released table the player "
        "sits at without a result (else those tables stay open for the TD).",
    )


class WithdrawEntry(EntryAction):
    action = "withdraw"

    @extend_schema(
        summary="Withdraw an entry",
        description="From later games; games played stand; a draft seating them is drawn "
        "again; in a playoff their matches are walked over. A released table they sit at "
        "without a result stays open unless `forfeit_open`. " + TD_ERRORS,
        request=WithdrawInput,
        responses={200: TDEntrySerializer},
    )
    def post(self, request: Request, event_id: int, entry_id: int) -> Response:
        data = WithdrawInput(data=request.data)
        data.is_valid(raise_exception=True)
        event = self.event()
        entry = get_object_or_404(event.entries.select_related("player"), pk=entry_id)
        done = self.run(
            lambda: services.withdraw_entry(
                entry, forfeit_open=data.validated_data["forfeit_open"], user=request.user
            )
        )
        done = Entry.objects.select_related("player").get(pk=done.pk)
        return Response(TDEntrySerializer(done).data)


ReinstateEntry = _entry_action(
    "reinstate",
    "Reinstate a withdrawn entry",
    "Back for the games still to be drawn, checked in; refused once they are in the "
    "playoff bracket.",
)


class EventGamesTD(api.EventGames):
    """The released games of an event (GET); draw the next one (POST, the club's TD)."""

    authentication_classes = TD_AUTHENTICATION

    def get_permissions(self) -> list[permissions.BasePermission]:
        return _td_on_writes(self)

    @extend_schema(
        summary="Draw the next game",
        description="For the checked-in players, once the previous game is released and "
        "complete; released at once unless `draft`. " + TD_ERRORS,
        request=DrawInput,
        responses={201: GameDetailSerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = td_event(request, event_id)
        draft = valid(DrawInput, request.data)["draft"]
        round_ = run(lambda: services.draw_next_game(event, draft=draft))
        return Response(GameDetailSerializer(round_).data, status=status.HTTP_201_CREATED)


class GameAction(TDView):
    """Redraw, release or swap seats of one game."""

    def game(self, event: Event) -> Round:
        round_ = event.rounds.filter(number=self.kwargs["number"]).first()
        if round_ is None:
            raise Http404("No such game.")
        return round_


class GameDetail(GameAction):
    @extend_schema(
        summary="Read a game with its tables (TD; drafts included)",
        description=TD_ERRORS,
        responses={200: GameDetailSerializer},
    )
    def get(self, request: Request, event_id: int, number: int) -> Response:
        return Response(GameDetailSerializer(self.game(self.event())).data)


class RedrawGame(GameAction):
    @extend_schema(
        summary="Draw the latest game again",
        description=(
            "Draws from a new seed, recorded on the game. Refused once it has a played "
            "result, and with code `same_draw` (the reason in the message; the game is left "
            "as it was) when the seating cannot change: a later Swiss game follows the "
            "standings, a later qualifying game the table movement, a round robin its "
            "schedule. " + TD_ERRORS
        ),
        request=NoInput,
        responses={200: GameDetailSerializer},
    )
    def post(self, request: Request, event_id: int, number: int) -> Response:
        event = self.event()
        round_ = self.game(event)
        round_ = self.run(lambda: services.redraw_game(round_))
        return Response(GameDetailSerializer(round_).data)


class ReleaseGame(GameAction):
    @extend_schema(
        summary="Release a draft game to the players",
        description=TD_ERRORS,
        request=NoInput,
        responses={200: GameDetailSerializer},
    )
    def post(self, request: Request, event_id: int, number: int) -> Response:
        event = self.event()
        round_ = self.game(event)
        round_ = self.run(lambda: services.release_game(round_))
        return Response(GameDetailSerializer(round_).data)


class SwapSeats(GameAction):
    @extend_schema(
        summary="Swap two players' seats in a draft game",
        description="A swap that breaks a rule (a repeat, a forbidden pair, an unfair bye) "
        "is refused with the problems unless `confirm`. " + TD_ERRORS,
        request=SwapInput,
        responses={200: GameDetailSerializer},
    )
    def post(self, request: Request, event_id: int, number: int) -> Response:
        event = self.event()
        round_ = self.game(event)
        values = self.valid(SwapInput, request.data)
        round_, problems = self.run(
            lambda: services.swap_seats(
                round_, values["player_a"], values["player_b"], confirm=values["confirm"]
            )
        )
        body = dict(GameDetailSerializer(round_).data)
        body["problems"] = list(problems)
        return Response(body)


class UndoLastResult(TDView):
    @extend_schema(
        summary="Undo the last result recorded",
        description="The latest game's last result is taken back (audited, with the reason) "
        "and its table is open again; refused once a later game is released, after the "
        "cut to the playoff, or while the event is finished. " + TD_ERRORS,
        request=UndoInput,
        responses={200: UndoOutput},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        reason = self.valid(UndoInput, request.data)["reason"]
        undone = self.run(
            lambda: services.undo_last_result(event, user=request.user, reason=reason)
        )
        body = {
            "game": undone.table.round.number,
            "table": undone.table.number,
            "undone": undone.old,
            "draft_removed": undone.draft_removed,
        }
        return Response(body)


def _bracket(event: Event) -> Bracket:
    bracket = selectors.event_bracket(event)
    if bracket is None:
        raise Http404("No playoff yet.")
    return bracket


class CreatePlayoff(TDView):
    @extend_schema(
        summary="Cut to a playoff (or draw the bracket)",
        description="From the qualifying standings (seeded by rank) or a random draw of the "
        "checked-in field. " + TD_ERRORS,
        request=PlayoffInput,
        responses={201: BracketSerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        values = self.valid(PlayoffInput, request.data)
        ranking_id = values.pop("ranking_event", None)
        if ranking_id is not None:
            found = selectors.events_directed_by(request.user).filter(pk=ranking_id).first()
            if found is None or found.club_id != event.club_id:
                raise as_validation_error(
                    ServiceError(
                        "unknown_ranking",
                        _("Choose a ranking of this club."),
                        field="ranking_event",
                    )
                )
            values["ranking_event"] = found
        self.run(lambda: services.create_playoff(event, **values))
        return Response(BracketSerializer(_bracket(event)).data, status=status.HTTP_201_CREATED)


class PlayoffGames(TDView):
    @extend_schema(
        summary="Record a playoff game",
        description="One game of a match; a decided match sends its players on. " + TD_ERRORS,
        request=PlayoffGameInput,
        responses={201: PlayoffMatchSerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        values = self.valid(PlayoffGameInput, request.data)
        self.run(
            lambda: services.record_playoff_game(
                event,
                match=values["match"],
                winner=values["winner"],
                loser_score=values.get("loser_score"),
                forfeit=values["forfeit"],
                user=request.user,
            )
        )
        return Response(self.match(event, values["match"]), status=status.HTTP_201_CREATED)

    @staticmethod
    def match(event: Event, code: str) -> dict:
        row = (
            PlayoffMatch.objects.filter(bracket__event=event, code=code)
            .select_related("seat_a__player", "seat_b__player")
            .prefetch_related("games")
            .get()
        )
        return dict(PlayoffMatchSerializer(row).data)


class UndoPlayoffGame(TDView):
    @extend_schema(
        summary="Undo a playoff match's last game",
        description="While the players have not played on. " + TD_ERRORS,
        request=PlayoffUndoInput,
        responses={200: PlayoffMatchSerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        code = self.valid(PlayoffUndoInput, request.data)["match"]
        self.run(lambda: services.undo_playoff_game(event, match=code, user=request.user))
        return Response(PlayoffGames.match(event, code))
