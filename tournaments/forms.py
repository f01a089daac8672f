"""Forms of the TD pages. Validation of the rules is the services' job; forms only carry it."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from pegboard.errors import ServiceError

from . import services
from .models import Event, GameResult, Player, Table


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
