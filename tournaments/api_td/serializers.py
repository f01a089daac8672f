"""The TD API's serializers: an event's settings, entries, games and playoff, in and out.

Inputs validate what a script sends (bounded numbers and lengths, the declared choices);
outputs are what the TD console sees. The views of the sibling modules use them.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments import kinds
from tournaments.limits import MAX_ID, MAX_NUMBER, MAX_SCORE

from .. import selectors, services
from ..api import ClubSerializer, ResultSerializer
from ..models import Bracket, Entry, Event, Player, Round, Table
from ..services.events import MAX_SEED


class NoInput(serializers.Serializer):
    """No input: the action needs none (a body, if any, is ignored)."""


# --- Events ---------------------------------------------------------------------------------------


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


class PublishInput(serializers.Serializer):
    published = serializers.BooleanField(help_text="Show the standings to the public.")


# --- Entries --------------------------------------------------------------------------------------


class TDEntrySerializer(serializers.ModelSerializer):
    name = serializers.CharField(help_text="The player's name; a team's: both partners'.")
    acc_number = serializers.CharField(source="player.acc_number")
    player = serializers.IntegerField(source="player_id", help_text="The club player's id.")
    partner = serializers.IntegerField(
        source="partner_id",
        allow_null=True,
        help_text="A team's second player (partners' cribbage): the club player's id; null "
        "for a player entered alone.",
    )

    class Meta:
        model = Entry
        fields = [
            "id",
            "player",
            "partner",
            "name",
            "acc_number",
            "checked_in",
            "checked_in_how",
            "withdrawn",
        ]


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
    partner = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        help_text="A game played in teams of two (partners' cribbage): the partner, one of "
        "the club's players by id; or give `partner_name`.",
    )
    partner_name = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=200,
        help_text="The partner found by exact name among the club's players, else a new one. "
        "Refused where the game is not played in teams (`not_team_game`).",
    )
    same_as_waiting = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="When the player waits on the online list (`waiting_registration`): true, "
        "the person entered is the one who registered (their link then holds this entry); "
        "false, someone else (the registration is set aside and its link holds nothing).",
    )


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


class WithdrawInput(serializers.Serializer):
    forfeit_open = serializers.BooleanField(
        default=False,
        help_text="Give the opponent the forfeit win at every released table the player "
        "sits at without a result (else those tables stay open for the TD).",
    )


# --- Games and results ----------------------------------------------------------------------------


class TDTableSerializer(serializers.ModelSerializer):
    seat_a_name = serializers.CharField(source="seat_a.name")
    seat_b_name = serializers.CharField(source="seat_b.name", allow_null=True, default=None)
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
            "seat_a__player",
            "seat_a__partner",
            "seat_b__player",
            "seat_b__partner",
            "result__table__round",
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


# --- Playoff --------------------------------------------------------------------------------------


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
