"""Forms of the cribbage checker page. The engine does the checking; forms carry its errors."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.cribbage import CardError, HandScore, PlayScore, score_hand, score_play
from pegboard.engine_messages.cribbage import describe_error


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
