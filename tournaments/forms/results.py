"""The TD's record of a game: a qualifying table's result and one game of a playoff match."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .. import services
from ..models import Event, GameResult, Table
from .base import ServiceForm


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
