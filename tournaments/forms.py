"""Forms of the TD pages. Validation of the rules is the services' job; forms only carry it."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from pegboard.errors import ServiceError

from . import services
from .models import Bracket, Entry, Event, GameResult, Player, Round, StoppaTable, Table


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
    """Register a player at the door: a known player by ACC number or name, or a new one."""

    name = forms.CharField(label=_("Name"), max_length=120)
    acc_number = forms.CharField(label=_("ACC number"), max_length=20, required=False)
    status = forms.ChoiceField(
        label=_("Status"), choices=Player.Status.choices, initial=Player.Status.MEMBER
    )

    def save(self, event: Event):
        """Enter the player (checked in)."""
        return self.run(
            lambda: services.register_player(
                event,
                name=self.cleaned_data["name"],
                acc_number=self.cleaned_data["acc_number"],
                status=self.cleaned_data["status"],
            )
        )


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
        entries = event.entries.select_related("player").order_by("player__name")
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

    def __init__(self, *args, event: Event, **kwargs):
        kwargs.setdefault(
            "initial",
            {
                "source": Bracket.Source.QUALIFYING
                if event.rounds.exists()
                else Bracket.Source.DRAW,
                "best_of": "3",
                "double_elimination": event.kind == Event.Kind.INTERNET,
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
