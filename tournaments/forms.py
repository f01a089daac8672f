"""Forms of the TD pages. Validation of the rules is the services' job; forms only carry it."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from pegboard.errors import ServiceError

from . import kinds, services
from .models import (
    Bracket,
    Club,
    Entry,
    Event,
    GameResult,
    MatchPointFormat,
    Player,
    Round,
    StoppaTable,
    Table,
)
from .services.clubs import usable_formats
from .services.entries import MAX_IMPORT_LINES
from .tiebreakers import REGISTRY as TIEBREAKERS


class ServiceForm(forms.Form):
    """A form whose ``save`` calls a service and turns a ServiceError into a form error."""

    def run(self, action):
        """Run ``action()`` if the form is valid; on ServiceError attach it and return None."""
        if not self.is_valid():
            return None
        try:
            return action()
        except ServiceError as exc:
            field = exc.field if exc.field in self.fields else None
            self.add_error(field, forms.ValidationError(exc.message, code=exc.code))
            return None


class ResultForm(ServiceForm):
    """One table's result: the winner and the loser's score (or a forfeit)."""

    table = forms.IntegerField(widget=forms.HiddenInput)
    winner = forms.IntegerField(
        label=_("Winner"), error_messages={"required": _("Choose the winner.")}
    )
    loser_score = forms.IntegerField(
        label=_("Loser's score"),
        required=False,
        widget=forms.NumberInput(
            attrs={"inputmode": "numeric", "class": "form-control", "size": 4}
        ),
    )
    forfeit = forms.BooleanField(label=_("Forfeit"), required=False)
    reason = forms.CharField(
        label=_("Reason for the change"),
        required=False,
        max_length=300,
        help_text=_("Needed to change a result already recorded."),
    )

    def __init__(self, *args, table: Table | None = None, **kwargs):
        if table is not None:
            # One form per table on a page: unique ids, same field names.
            kwargs.setdefault("auto_id", f"t{table.pk}-%s")
            initial = kwargs.setdefault("initial", {})
            initial["table"] = table.pk
            result: GameResult | None = getattr(table, "result", None)
            if result is not None:
                initial.update(
                    winner=result.winner_id,
                    loser_score=result.loser_score,
                    forfeit=result.kind == GameResult.Kind.FORFEIT,
                )
        super().__init__(*args, **kwargs)
        self.table = table

    def save(self, event: Event, *, game_number: int, user) -> GameResult | None:
        """Record the result through the service; None (with errors on the form) if refused."""
        return self.run(
            lambda: services.record_result(
                event,
                table=self.cleaned_data["table"],
                winner=self.cleaned_data["winner"],
                loser_score=self.cleaned_data["loser_score"],
                forfeit=self.cleaned_data["forfeit"],
                game_number=game_number,
                user=user,
                reason=self.cleaned_data["reason"],
            )
        )


class RegisterForm(ServiceForm):
    """Register a player at the door: a player picked from the search, a known player by ACC
    number or exact name, or (asked for explicitly) a new one.

    ``player`` is the id of a candidate the TD picked; ``new`` asks to create the player even
    though similar names exist. Without either, a name like one of the club's players is
    refused with those players as candidates (``self.candidates``), so no duplicate is made
    by accident.
    """

    name = forms.CharField(label=_("Name"), max_length=120, required=False)
    acc_number = forms.CharField(label=_("ACC number"), max_length=20, required=False)
    status = forms.ChoiceField(
        label=_("Status"), choices=Player.Status.choices, initial=Player.Status.MEMBER
    )
    player = forms.IntegerField(required=False, widget=forms.HiddenInput)
    new = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.candidates: list[Player] = []

    def clean(self):
        data = super().clean()
        if "name" in self.errors:  # too long: that error alone, not "needs a name" too
            return data
        if not data.get("player") and not " ".join(data.get("name", "").split()):
            self.add_error("name", forms.ValidationError(_("A player needs a name.")))
        return data

    def _register(self, event: Event):
        from . import names, selectors

        data = self.cleaned_data
        if data.get("player"):
            return services.enter_club_player(event, data["player"])
        if not data.get("new") and not data["acc_number"]:
            similar = selectors.find_club_players(event.club, data["name"])
            folded = names.fold(data["name"])
            same = [p for p in similar if names.fold(p.name) == folded]
            if len(same) == 1:  # the name as the club knows it: that player, not a copy
                return services.enter_club_player(event, same[0])
            if similar:
                self.candidates = similar
                raise ServiceError(
                    "similar_players",
                    _("The club has players with a name like this: pick one, or add a new player."),
                    field="name",
                )
        return services.register_player(
            event,
            name=data["name"],
            acc_number=data["acc_number"],
            status=data["status"],
        )

    def save(self, event: Event):
        """Enter the player (checked in)."""
        return self.run(lambda: self._register(event))


class FormatForm(ServiceForm):
    """The event's format: kind, pairing method, games per opponent, number of games."""

    kind = forms.ChoiceField(label=_("Kind of event"), choices=Event.Kind.choices)
    pairing = forms.ChoiceField(label=_("Pairing"), choices=Event.Pairing.choices)
    meetings_per_opponent = forms.TypedChoiceField(
        label=_("Games per opponent"), choices=[(1, "1"), (2, "2")], coerce=int
    )
    games_planned = forms.IntegerField(label=_("Number of games"), min_value=1, max_value=40)
    confirmation = forms.ChoiceField(
        label=_("Reports confirmed by"),
        choices=Event.Confirmation.choices,
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            select = isinstance(field.widget, forms.Select)
            field.widget.attrs["class"] = (
                "form-select form-select-sm" if select else ("form-control form-control-sm")
            )

    def save(self, event: Event):
        return self.run(lambda: services.set_event_format(event, **self.cleaned_data))


class _EntryChoices(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return obj.player.name


class ForbiddenPairForm(ServiceForm):
    """Two players of the event who must never be seated together."""

    entry_a = _EntryChoices(label=_("Player"), queryset=Entry.objects.none())
    entry_b = _EntryChoices(label=_("Never against"), queryset=Entry.objects.none())
    reason = forms.CharField(label=_("Reason"), max_length=120, required=False)

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        # Folded: "Łucja" among the L, not after Z (a choice field keeps a queryset).
        entries = event.entries.select_related("player").order_by(
            "player__name_folded", "player__name"
        )
        self.fields["entry_a"].queryset = entries
        self.fields["entry_b"].queryset = entries

    def save(self, event: Event):
        return self.run(
            lambda: services.add_forbidden_pair(
                event,
                self.cleaned_data["entry_a"],
                self.cleaned_data["entry_b"],
                reason=self.cleaned_data["reason"],
            )
        )


class SwapForm(ServiceForm):
    """Swap two seats of a draft game (checked: repeats, forbidden pairs, unfair byes)."""

    player_a = forms.IntegerField(label=_("Player"))
    player_b = forms.IntegerField(label=_("Swap with"))
    confirm = forms.BooleanField(label=_("Swap even if it breaks a rule"), required=False)

    def save(self, round_: Round):
        return self.run(
            lambda: services.swap_seats(
                round_,
                self.cleaned_data["player_a"],
                self.cleaned_data["player_b"],
                confirm=self.cleaned_data["confirm"],
            )
        )


def _best_of(value: str) -> list[int]:
    try:
        numbers = [int(n) for n in value.replace(",", " ").split()]
    except ValueError:
        raise forms.ValidationError(_("Give odd numbers, e.g. 3 or 3 3 5.")) from None
    if not numbers:
        raise forms.ValidationError(_("Give odd numbers, e.g. 3 or 3 3 5."))
    return numbers


class PlayoffForm(ServiceForm):
    """The cut (or the draw) to the playoff and the bracket's options."""

    source = forms.ChoiceField(label=_("Seeded by"), choices=Bracket.Source.choices)
    qualifiers = forms.IntegerField(
        label=_("Qualifiers"),
        min_value=2,
        required=False,
        help_text=_("Empty: one in four entrants (rounded up)."),
    )
    best_of = forms.CharField(
        label=_("Best of, per round"),
        initial="3",
        help_text=_("One number, or one per round (the last repeats): 3 3 5."),
    )
    side_best_of = forms.IntegerField(
        label=_("Best of (third place, consolation, losers' bracket)"),
        min_value=1,
        required=False,
    )
    third_place = forms.BooleanField(label=_("Third-place match"), required=False)
    consolation = forms.BooleanField(
        label=_("Consolation bracket for first-round losers"), required=False
    )
    double_elimination = forms.BooleanField(
        label=_("Double elimination (one-loss bracket)"), required=False
    )
    ranking_event = forms.ModelChoiceField(
        label=_("Byes by the ranking of"),
        queryset=Event.objects.none(),
        required=False,
        help_text=_(
            "Random draw only: the entrants highest in this event's standings get the byes."
        ),
    )
    confirm_lots = forms.BooleanField(
        label=_("Confirm the cut by the draw of lots"), required=False
    )
    by_rating = forms.BooleanField(
        label=_("Seed by club rating"),
        required=False,
        help_text=_("Random draw only: seed the bracket by the players' club ratings."),
    )

    def __init__(self, *args, event: Event, **kwargs):
        kwargs.setdefault(
            "initial",
            {
                "source": Bracket.Source.QUALIFYING
                if event.rounds.exists()
                else Bracket.Source.DRAW,
                "best_of": "3",
                "double_elimination": event.kind == Event.Kind.INTERNET,
                "by_rating": event.seed_by_rating,
                "qualifiers": event.qualifiers,
            },
        )
        super().__init__(*args, **kwargs)
        self.fields["ranking_event"].queryset = event.club.events.exclude(pk=event.pk)

    def clean_best_of(self):
        return _best_of(self.cleaned_data["best_of"])

    def save(self, event: Event):
        return self.run(lambda: services.create_playoff(event, **self.cleaned_data))


class PlayoffGameForm(ServiceForm):
    """One game of a playoff match: the winner and the loser's score, or a forfeit."""

    match = forms.CharField(widget=forms.HiddenInput)
    winner = forms.IntegerField(
        label=_("Winner"), error_messages={"required": _("Choose the winner.")}
    )
    loser_score = forms.IntegerField(label=_("Loser's score"), required=False)
    forfeit = forms.BooleanField(label=_("Forfeit (Rule 13.1)"), required=False)

    def save(self, event: Event, *, user):
        return self.run(
            lambda: services.record_playoff_game(
                event,
                match=self.cleaned_data["match"],
                winner=self.cleaned_data["winner"],
                loser_score=self.cleaned_data["loser_score"],
                forfeit=self.cleaned_data["forfeit"],
                user=user,
            )
        )


# --- Stoppa --------------------------------------------------------------------------------------


class StoppaNetsForm(ServiceForm):
    """One Stoppa table's session: every player's chip net (one row per table on the page).

    The fields are ``net_<entry id>``, one per seat; the service checks the sum is zero.
    """

    table = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args, table: StoppaTable | None = None, **kwargs):
        if table is not None:
            kwargs.setdefault("auto_id", f"s{table.pk}-%s")
            initial = kwargs.setdefault("initial", {})
            initial["table"] = table.pk
            for seat in table.seats.all():
                if seat.net is not None:
                    initial[f"net_{seat.entry_id}"] = seat.net
        super().__init__(*args, **kwargs)
        self.table = table
        self.seat_fields = []
        for seat in table.seats.all() if table is not None else []:
            name = f"net_{seat.entry_id}"
            self.fields[name] = forms.IntegerField(
                label=seat.entry.player.name,
                error_messages={
                    "required": _("Enter the net of %(name)s.") % {"name": seat.entry.player.name},
                    "invalid": _("A chip net is a whole number, e.g. 12 or -7."),
                },
                widget=forms.NumberInput(
                    attrs={"inputmode": "numeric", "class": "form-control net", "step": 1}
                ),
            )
            self.seat_fields.append((seat, self[name]))

    def nets(self) -> dict[int, int]:
        return {
            int(name[4:]): value
            for name, value in self.cleaned_data.items()
            if name.startswith("net_")
        }

    def save(self, event: Event, *, session: int, user):
        """Record the nets through the service; None (with the errors on the form) if refused."""
        from .services import stoppa as services_stoppa

        return self.run(
            lambda: services_stoppa.record_session_nets(
                event,
                table=self.cleaned_data["table"],
                nets=self.nets(),
                session=session,
                user=user,
            )
        )


class StoppaDealsForm(ServiceForm):
    """A Stoppa table's session from its deal records (JSON), each verified before summing."""

    table = forms.IntegerField(widget=forms.HiddenInput)
    deals = forms.CharField(
        label=_("Deal records (JSON list, one record per deal)"),
        widget=forms.Textarea(attrs={"rows": 4, "class": "form-control font-monospace"}),
    )

    def clean_deals(self):
        import json

        try:
            data = json.loads(self.cleaned_data["deals"])
        except ValueError as exc:
            raise forms.ValidationError(
                _("The deal records are not valid JSON: %(error)s") % {"error": exc}
            ) from None
        if isinstance(data, dict):
            data = data.get("deals", [data])
        if not isinstance(data, list):
            raise forms.ValidationError(_("Give a JSON list of deal records."))
        return data

    def save(self, event: Event, *, session: int, user):
        from .services import stoppa as services_stoppa

        return self.run(
            lambda: services_stoppa.record_session_deals(
                event,
                table=self.cleaned_data["table"],
                deals=self.cleaned_data["deals"],
                session=session,
                user=user,
            )
        )


class StoppaTableSizesForm(ServiceForm):
    """The largest and the smallest Stoppa table for the next draw."""

    SIZES = [(n, str(n)) for n in range(3, 7)]

    table_size = forms.TypedChoiceField(label=_("Players per table"), choices=SIZES, coerce=int)
    min_table_size = forms.TypedChoiceField(
        label=_("Fewest players per table"), choices=SIZES, coerce=int
    )

    def save(self, event: Event):
        from .services import stoppa as services_stoppa

        return self.run(lambda: services_stoppa.set_table_sizes(event, **self.cleaned_data))


# --- The club and its events ---------------------------------------------------------------------


def _style(form: forms.Form) -> None:
    """Bootstrap classes on every visible widget."""
    for field in form.fields.values():
        widget = field.widget
        if isinstance(widget, forms.HiddenInput | forms.MultipleHiddenInput):
            continue
        if isinstance(widget, forms.CheckboxInput):
            widget.attrs.setdefault("class", "form-check-input")
        elif isinstance(widget, forms.Select):
            widget.attrs.setdefault("class", "form-select")
        else:
            widget.attrs.setdefault("class", "form-control")


class ClubForm(ServiceForm):
    """The club's name and city."""

    name = forms.CharField(label=_("Name"), max_length=120)
    city = forms.CharField(label=_("City"), max_length=120, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _style(self)

    def save(self, club: Club):
        return self.run(lambda: services.update_club(club, **self.cleaned_data))


class UserForm(ServiceForm):
    """An existing user, by username or email (a TD or a scorekeeper to add)."""

    who = forms.CharField(
        label=_("Username or email"),
        max_length=254,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _style(self)


class _FormatChoices(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        # The built-in formats' names carry their points already: "ACC tournament rules (2 / 3)".
        return obj.display_name


class ClubDefaultsForm(ServiceForm):
    """The match-point format the club's new events start from."""

    match_point_format = _FormatChoices(
        label=_("Match-point format"),
        queryset=MatchPointFormat.objects.none(),
        required=False,
        empty_label=_("The first built-in format"),
    )

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["match_point_format"].queryset = usable_formats(club)
        _style(self)

    def save(self, club: Club):
        return self.run(
            lambda: services.set_club_defaults(
                club, match_point_format=self.cleaned_data["match_point_format"]
            )
        )


def chain_rows(game: str, keys: list[str]) -> dict:
    """What the ranking-chain editor shows: the chain's keys with their names (an unknown key
    is shown as typed, for the error to point at) and the tiebreakers that can be added."""
    allowed = kinds.get(game).tiebreakers if game in dict(kinds.choices()) else set()
    return {
        "chain": [(k, TIEBREAKERS[k].name if k in TIEBREAKERS else k) for k in keys],
        "addable": [(k, t.name) for k, t in TIEBREAKERS.items() if k in allowed and k not in keys],
    }


def edit_chain(keys: list[str], op: str, added: str = "") -> list[str]:
    """The chain after one button of the editor: ``up:i``, ``down:i``, ``remove:i``, ``add``
    (the key in ``added``). An index out of range changes nothing; the result is checked when
    saved."""
    keys = list(keys)
    action, _sep, index_text = op.partition(":")
    if action == "add":
        return [*keys, added] if added and added not in keys else keys
    try:
        i = int(index_text)
    except ValueError:
        return keys
    if not 0 <= i < len(keys):
        return keys
    if action == "remove":
        del keys[i]
    elif action == "up" and i > 0:
        keys[i - 1], keys[i] = keys[i], keys[i - 1]
    elif action == "down" and i < len(keys) - 1:
        keys[i + 1], keys[i] = keys[i], keys[i + 1]
    return keys


class _ChainField(forms.Field):
    """The ranking chain as the editor posts it: one hidden input per key, in order."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value):
        if not value:
            return []
        if isinstance(value, str):
            value = value.replace(",", " ").split()
        return [str(v).strip() for v in value if str(v).strip()]


# The settings of the qualifying games, which a playoff-only event does not play.
QUALIFYING_SETTINGS = frozenset({"pairing", "games_planned", "meetings_per_opponent"})


class EventForm(ServiceForm):
    """The new-event wizard and, bound to an event, its settings page.

    Settings that can no longer change (``services.settings_locks``) are disabled, each with
    its reason in ``self.locks``; Django then keeps their stored value whatever is posted.
    """

    name = forms.CharField(label=_("Name"), max_length=120)
    date = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    # The card game played (Italian "Gioco"), not one game of the event ("Partita").
    game = forms.ChoiceField(label=pgettext_lazy("card game", "Game"), choices=kinds.choices)
    kind = forms.ChoiceField(label=_("Kind of event"), choices=Event.Kind.choices)
    pairing = forms.ChoiceField(
        label=_("How games are seated"),
        choices=Event.Pairing.choices,
        help_text=_("Swiss seats players with equal scores together; round robin: everyone once."),
    )
    games_planned = forms.IntegerField(
        label=_("Number of games"), min_value=1, max_value=40, initial=9
    )
    meetings_per_opponent = forms.TypedChoiceField(
        label=_("Games per opponent"),
        choices=[(1, _("One game per opponent")), (2, _("Up to two games per opponent"))],
        coerce=int,
        initial=1,
    )
    target = forms.TypedChoiceField(
        label=_("Target"), choices=Event.Target.choices, coerce=int, initial=Event.Target.FULL
    )
    muggins = forms.BooleanField(label=_("Muggins"), required=False)
    match_point_format = _FormatChoices(
        label=_("Match-point format"), queryset=MatchPointFormat.objects.none()
    )
    confirmation = forms.ChoiceField(
        label=_("Reports confirmed by"), choices=Event.Confirmation.choices, required=False
    )
    entrants = forms.ChoiceField(
        label=_("Entrants"),
        choices=Event.Entrants.choices,
        required=False,
        help_text=_(
            "Who is ranked and counts for the cut; the others are listed apart as no-shows."
        ),
    )
    language = forms.ChoiceField(
        label=_("Language of the public pages and printables"),
        choices=[("", _("Each visitor's own")), *settings.LANGUAGES],
        required=False,
        help_text=_("The projector and the printed cards use it; visitors can still pick theirs."),
    )
    seed_by_rating = forms.BooleanField(
        label=_("Seed by club rating"),
        required=False,
        help_text=Event._meta.get_field("seed_by_rating").help_text,
    )
    qualifiers = forms.IntegerField(
        label=_("Qualifiers (cut size)"),
        min_value=2,
        required=False,
        help_text=_("Sanctioned: how many players the cut takes. Empty: one in four entrants."),
    )
    tiebreakers = _ChainField(label=_("Ranking chain"), required=False)
    chain_game = forms.CharField(required=False, widget=forms.HiddenInput)
    seed = forms.IntegerField(
        label=_("Seed"),
        min_value=0,
        required=False,
        help_text=_("Makes every draw reproducible. Empty: a new random seed."),
    )

    def __init__(self, *args, club: Club, event: Event | None = None, **kwargs):
        # A locked (disabled) field keeps its initial value: the event's own.
        kwargs.setdefault("initial", self.initial_for(club, event))
        super().__init__(*args, **kwargs)
        self.club, self.event = club, event
        self.fields["match_point_format"].queryset = usable_formats(club)
        self.locks = services.settings_locks(event) if event is not None else {}
        for name, why in self.locks.items():
            if name in self.fields:
                self.fields[name].disabled = True
                self.fields[name].help_text = why
        if event is not None:
            self.fields["seed"].required = True
        if not self.fields["game"].disabled:
            # With HTMX the chain follows a change of game at once (the page is posted as the
            # "use this game's chain" button would, and its form swapped in); the view adds
            # the URL to post to (hx-post).
            self.fields["game"].widget.attrs.update(
                {
                    "hx-trigger": "change",
                    "hx-vals": '{"chain_op": "game"}',
                    "hx-target": "#event-form",
                    "hx-select": "#event-form",
                    "hx-swap": "outerHTML",
                }
            )
        if not self.fields["kind"].disabled:
            # A change of kind re-renders the form as well: a playoff-only event is asked no
            # number of games (the chain is kept: "kind" is no move of the chain editor).
            self.fields["kind"].widget.attrs.update(
                {
                    "hx-trigger": "change",
                    "hx-vals": '{"chain_op": "kind"}',
                    "hx-target": "#event-form",
                    "hx-select": "#event-form",
                    "hx-swap": "outerHTML",
                }
            )
        if event is None or event.kind != Event.Kind.CONSOLATION:
            # A consolation is made from a playoff's cut ("Cut to the playoff"), not from here.
            self.fields["kind"].choices = [
                c for c in Event.Kind.choices if c[0] != Event.Kind.CONSOLATION
            ]
        _style(self)

    @staticmethod
    def initial_for(club: Club, event: Event | None = None) -> dict:
        """The form's starting values: the event's own, or the club's defaults."""
        if event is not None:
            return {
                "name": event.name,
                "date": event.date,
                "game": event.game,
                "kind": event.kind,
                "pairing": event.pairing,
                "games_planned": event.games_planned,
                "meetings_per_opponent": event.meetings_per_opponent,
                "target": event.target,
                "muggins": event.muggins,
                "match_point_format": event.match_point_format_id,
                "confirmation": event.confirmation,
                "entrants": event.entrants,
                "language": event.language,
                "seed_by_rating": event.seed_by_rating,
                "qualifiers": event.qualifiers,
                "tiebreakers": list(event.ranking_chain),
                "chain_game": event.game,
                "seed": event.seed,
            }
        from django.utils import timezone

        game = kinds.all_kinds()[0].key
        fmt = club.default_match_point_format or (
            usable_formats(club).filter(builtin=True).order_by("pk").first()
        )
        return {
            "date": timezone.localdate(),
            "game": game,
            "kind": Event.Kind.CLUB_NIGHT,
            "pairing": Event.Pairing.QUALIFYING,
            "games_planned": 9,
            "meetings_per_opponent": 1,
            "target": Event.Target.FULL,
            "match_point_format": fmt.pk if fmt else None,
            "confirmation": Event.Confirmation.OWN_KEYS,
            "entrants": Event.Entrants.PLAYED,
            "tiebreakers": list(club.default_chain(game)),
            "chain_game": game,
        }

    def value_of(self, name: str):
        """The value shown for ``name``: posted, else initial (a locked one: stored)."""
        field = self[name]
        if not self.is_bound or self.fields[name].disabled:
            return self.get_initial_for_field(self.fields[name], name)
        return field.data

    def unused(self) -> frozenset[str]:
        """The settings the game and kind of event shown do not use: posted as they are, not
        shown (a playoff-only event draws no qualifying games, so it is asked none)."""
        try:
            unused = kinds.get(str(self.value_of("game"))).unused_settings
        except KeyError:
            unused = frozenset()
        if self.value_of("kind") in Event.PLAYOFF_ONLY_KINDS:
            unused |= QUALIFYING_SETTINGS
        return unused

    def chain(self) -> list[str]:
        value = self.value_of("tiebreakers")
        return self.fields["tiebreakers"].to_python(value)

    def chain_editor(self) -> dict:
        """The ranking-chain editor's rows for the game shown."""
        return chain_rows(str(self.value_of("game")), self.chain())

    def _values(self) -> dict:
        data = dict(self.cleaned_data)
        data.pop("chain_game", None)
        data["confirmation"] = data.get("confirmation") or Event.Confirmation.OWN_KEYS
        data["entrants"] = data.get("entrants") or Event.Entrants.PLAYED
        data["language"] = data.get("language") or ""
        return data

    def create(self):
        """A new event of the club (``services.create_event``), or None with the errors."""
        return self.run(lambda: services.create_event(self.club, **self._values()))

    def update(self):
        """The event's new settings (``services.update_event_settings``), or None."""
        return self.run(lambda: services.update_event_settings(self.event, **self._values()))


def chain_needs_review(data, *, event: Event | None = None) -> bool:
    """Whether the posted chain was built for another game than the one posted (the game was
    changed without the page following): its tiebreakers may not exist in the new game."""
    if event is not None and "game" in services.settings_locks(event):
        return False
    return bool(data.get("game")) and data.get("game") != data.get("chain_game")


def rebound_event_form(data, *, club: Club, event: Event | None = None) -> EventForm:
    """The event form as posted, after one button of its ranking-chain editor (or a change of
    game, which starts the chain again from the club's chain for that game); unbound, so no
    error shows before the TD asks to save."""
    form = EventForm(data, club=club, event=event)
    initial = EventForm.initial_for(club, event)
    for name, field in form.fields.items():
        # An absent checkbox is off and an absent chain is empty (every key removed).
        absent_means_empty = isinstance(field, forms.BooleanField) or name == "tiebreakers"
        if field.disabled or (name not in data and not absent_means_empty):
            continue
        if isinstance(field, forms.BooleanField):
            initial[name] = data.get(name) in ("on", "true", "1", "True")
        elif name == "tiebreakers":
            initial[name] = field.to_python(data.getlist(name))
        else:
            initial[name] = data.get(name)
    op = data.get("chain_op", "")
    game = str(initial.get("game"))
    if op == "game" or initial.get("chain_game") != game:
        initial["tiebreakers"] = (
            list(club.default_chain(game)) if game in dict(kinds.choices()) else []
        )
        initial["chain_game"] = game
    else:
        initial["tiebreakers"] = edit_chain(initial["tiebreakers"], op, data.get("chain_add", ""))
    return EventForm(initial=initial, club=club, event=event)


class RenameForm(ServiceForm):
    """A player's name, spelled right."""

    name = forms.CharField(label=_("Name"), max_length=120)

    def save(self, club: Club, player: Player):
        return self.run(lambda: services.rename_player(club, player, self.cleaned_data["name"]))


class _PlayerChoices(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return f"{obj.name} ({obj.acc_number})" if obj.acc_number else obj.name


class MergeForm(ServiceForm):
    """Two records of one person: the one kept, and the one merged into it."""

    keep = _PlayerChoices(label=_("Keep"), queryset=Player.objects.none())
    merged = _PlayerChoices(label=_("Merge into it (then deleted)"), queryset=Player.objects.none())

    def __init__(self, *args, club: Club, **kwargs):
        from . import selectors

        super().__init__(*args, **kwargs)
        players = selectors.club_managed_players(club)
        self.fields["keep"].queryset = players
        self.fields["merged"].queryset = players
        _style(self)

    def save(self, club: Club):
        return self.run(
            lambda: services.merge_players(
                club, keep=self.cleaned_data["keep"], merged=self.cleaned_data["merged"]
            )
        )


MAX_ROSTER_BYTES = 1_000_000


class RosterImportForm(ServiceForm):
    """A list of players to enter: pasted, or a CSV/text file (one name a line, an optional
    ACC number after a comma or a tab)."""

    names = forms.CharField(
        label=_("Names, one a line"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "Ann Whitfield, 12345"}),
    )
    file = forms.FileField(label=_("or a CSV file"), required=False)
    checked_in = forms.BooleanField(label=_("Check them in"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _style(self)

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if upload is None:
            return ""
        if upload.size > MAX_ROSTER_BYTES:
            raise forms.ValidationError(_("The file is larger than 1 MB."))
        raw = upload.read()
        for encoding in ("utf-8-sig", "cp1252"):  # Excel on Windows saves CSV in cp1252
            try:
                return raw.decode(encoding)
            except UnicodeDecodeError:
                continue
        raise forms.ValidationError(_("The file is not text."))  # pragma: no cover

    def clean(self):
        data = super().clean()
        text = "\n".join(t for t in (data.get("names", ""), data.get("file", "")) if t)
        if not text.strip() and not self.errors:
            self.add_error("names", forms.ValidationError(_("Paste names or choose a file.")))
        elif text.count("\n") > MAX_IMPORT_LINES * 2:
            self.add_error("names", forms.ValidationError(_("The list is too long.")))
        data["text"] = text
        return data

    def save(self, event: Event):
        return self.run(
            lambda: services.import_roster(
                event, self.cleaned_data["text"], checked_in=self.cleaned_data["checked_in"]
            )
        )
