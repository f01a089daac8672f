"""The round clock's forms: the club's clock rule and a game called at time (issue 28)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import Club, Event, Table
from ..services import clock as clock_services
from .base import ServiceForm, _style


class ClockRuleForm(ServiceForm):
    """The club's minutes per game and what it does with a game not finished in time."""

    game_minutes = forms.IntegerField(label=_("Minutes per game"), min_value=1, max_value=180)
    at_time = forms.ChoiceField(label=_("A game not finished in time"), choices=Club.AtTime)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _style(self)

    def save(self, club: Club):
        return self.run(
            lambda: clock_services.set_clock_rule(
                club,
                minutes=self.cleaned_data["game_minutes"],
                at_time=self.cleaned_data["at_time"],
            )
        )


class CalledAtTimeForm(ServiceForm):
    """A game not finished in time: the winner by the club's rule and the loser's score."""

    table = forms.IntegerField(widget=forms.HiddenInput)
    winner = forms.IntegerField(
        label=_("Winner"), error_messages={"required": _("Choose the winner.")}
    )
    loser_score = forms.IntegerField(
        label=_("Loser's score"), error_messages={"required": _("Enter the loser's score.")}
    )

    def __init__(self, *args, table: Table | None = None, **kwargs):
        if table is not None:
            kwargs.setdefault("auto_id", f"at{table.pk}-%s")
            kwargs.setdefault("initial", {})["table"] = table.pk
        super().__init__(*args, **kwargs)

    def save(self, event: Event, *, user):
        return self.run(
            lambda: clock_services.call_at_time(
                event,
                table=self.cleaned_data["table"],
                winner=self.cleaned_data["winner"],
                loser_score=self.cleaned_data["loser_score"],
                user=user,
            )
        )
