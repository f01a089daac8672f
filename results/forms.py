"""Forms of the result pages; the rules live in results.services."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms import ServiceForm
from tournaments.models import Entry, Table


class PlayerReportForm(ServiceForm):
    """A player's report of their own game: who won, the loser's score, optional record."""

    table = forms.IntegerField(widget=forms.HiddenInput)
    winner = forms.ChoiceField(
        label=_("Who won?"), choices=[("me", _("I won")), ("opponent", _("My opponent won"))]
    )
    loser_score = forms.IntegerField(label=_("Loser's score"), required=False)
    forfeit = forms.BooleanField(label=_("Forfeit"), required=False)
    record = forms.CharField(
        label=_("Hand-by-hand record (JSON, optional)"), required=False, widget=forms.Textarea
    )

    def clean_record(self):
        text = self.cleaned_data["record"].strip()
        if not text:
            return None
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(
                _("The record is not valid JSON: %(e)s") % {"e": exc}
            ) from None

    def winner_id(self, entry: Entry, table: Table | None) -> int | None:
        """The winner's entry id from "me" or "opponent", seen from ``entry``'s seat."""
        choice = self.cleaned_data.get("winner")
        if not choice:
            return None
        if choice == "me" or table is None:
            return entry.pk
        seats = {table.seat_a_id, table.seat_b_id} - {None}
        return next(iter(seats - {entry.pk}), None)


class DisputeForm(PlayerReportForm):
    """A player disputes the opponent's version: a short reason, and optionally their own
    version of the result (the TD sees both side by side)."""

    winner = forms.ChoiceField(
        label=_("Who won?"),
        choices=[("me", _("I won")), ("opponent", _("My opponent won"))],
        required=False,
    )
    reason = forms.CharField(
        label=_("What is wrong?"),
        max_length=300,
        error_messages={"required": _("Say in a few words what is wrong.")},
    )


class RulingForm(ServiceForm):
    """The TD's own result for a table (when neither version is right), or a correction."""

    table = forms.IntegerField(widget=forms.HiddenInput)
    winner = forms.IntegerField(label=_("Winner"))
    loser_score = forms.IntegerField(label=_("Loser's score"), required=False)
    forfeit = forms.BooleanField(label=_("Forfeit"), required=False)
    reason = forms.CharField(label=_("Reason"), max_length=300, required=False)


class ImportForm(ServiceForm):
    """Both players' lines of each game, as CSV (UTF-8, Excel's BOM welcome)."""

    file = forms.FileField(label=_("CSV file: game, table, player, result, spread"))
