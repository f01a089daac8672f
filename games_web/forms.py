"""Forms of the cribbage checker page. The engine does the checking; forms carry its errors."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from core.engine_messages.cribbage import describe_error
from games.cribbage import (
    AdviceError,
    CardError,
    DiscardAdvice,
    HandScore,
    PlayScore,
    advise_discard,
    score_hand,
    score_play,
)


class HandForm(forms.Form):
    """A hand (or crib) of four cards and the starter."""

    hand = forms.CharField(
        label=_("Hand"),
        max_length=60,
        help_text=_("Four cards, e.g. 5H 5C 5S JD (10 or T for tens; ♠ ♥ ♦ ♣ work too)."),
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off"}),
    )
    starter = forms.CharField(
        label=_("Starter"),
        max_length=10,
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off"}),
    )
    crib = forms.BooleanField(label=_("This is the crib"), required=False)

    def score(self) -> HandScore | None:
        """The scored hand, or None with the engine's error, in the user's language, as a form
        error."""
        if not self.is_valid():
            return None
        try:
            return score_hand(
                self.cleaned_data["hand"],
                self.cleaned_data["starter"],
                crib=self.cleaned_data["crib"],
            )
        except CardError as exc:
            self.add_error(None, forms.ValidationError(describe_error(exc), code=exc.code))
            return None


class PlayForm(forms.Form):
    """The cards laid since the count was last reset, in order."""

    pile = forms.CharField(
        label=_("Cards played, in order"),
        max_length=120,
        help_text=_("e.g. 7H 8C 7D: scores the last card laid."),
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off"}),
    )
    last = forms.BooleanField(label=_("Last card of the play (or a go)"), required=False)

    def score(self) -> PlayScore | None:
        """The points of the last card, or None with the engine's error (in the user's
        language) as a form error."""
        if not self.is_valid():
            return None
        try:
            return score_play(self.cleaned_data["pile"], last=self.cleaned_data["last"])
        except CardError as exc:
            self.add_error(None, forms.ValidationError(describe_error(exc), code=exc.code))
            return None


# --------------------------------------------------------------------------- discard advisor

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = (
    ("S", "♠", _("Spades")),
    ("H", "♥", _("Hearts")),
    ("D", "♦", _("Diamonds")),
    ("C", "♣", _("Clubs")),
)
CARD_CHOICES = [("", "—")] + [
    (name, [(f"{rank}{letter}", f"{rank}{symbol}") for rank in RANKS])
    for letter, symbol, name in SUITS
]
"""The 52 cards grouped by suit: a plain select without JavaScript; static/js/record.js turns
each into a button opening the rank-and-suit picker sheet."""

DEALT_SLOTS = range(1, 7)


class DiscardForm(forms.Form):
    """The cards dealt (6 with two players, 5 with three or four), who deals, cards seen."""

    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(2, "2"), (3, "3"), (4, "4")],
        coerce=int,
        initial=2,
        widget=forms.Select(attrs={"class": "form-select"}),
    )
    dealer = forms.BooleanField(
        label=_("My crib (I deal; with 4 players, I or my partner)"), required=False
    )
    seen = forms.CharField(
        label=_("Cards seen elsewhere (optional)"),
        max_length=120,
        required=False,
        help_text=_("e.g. 2C 9S: cards you know cannot be the starter or in the crib."),
        widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in DEALT_SLOTS:
            self.fields[f"card_{i}"] = forms.CharField(
                label=_("Card %(n)s") % {"n": i},
                required=False,
                max_length=8,
                widget=forms.Select(
                    choices=CARD_CHOICES, attrs={"class": "form-select card-select"}
                ),
            )

    def card_fields(self) -> list[forms.BoundField]:
        """The six card pickers, for the template."""
        return [self[f"card_{i}"] for i in DEALT_SLOTS]

    def advise(self) -> DiscardAdvice | None:
        """The ranked discards, or None with the error in the user's language."""
        if not self.is_valid():
            return None
        dealt = [self.cleaned_data[f"card_{i}"].strip() for i in DEALT_SLOTS]
        try:
            return advise_discard(
                [card for card in dealt if card],
                dealer=self.cleaned_data["dealer"],
                players=self.cleaned_data["players"],
                seen=self.cleaned_data["seen"],
            )
        except AdviceError as exc:
            field = "seen" if exc.params.get("what") == "seen" else None
            self.add_error(field, forms.ValidationError(describe_error(exc), code=exc.code))
            return None
