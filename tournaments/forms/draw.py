"""How the games are drawn: the event's format on its page, a swap of two seats of a draft
game, and the cut (or the draw) to the playoff."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .. import services
from ..models import Bracket, Event, Round
from .base import ServiceForm


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
