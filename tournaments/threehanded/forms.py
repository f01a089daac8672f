"""Three-handed cribbage's forms: a table's final scores (one row per table on the TD's game
page) and the event's points for each place."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms.base import ServiceForm, _style
from tournaments.models import Event, StoppaTable

from .services import MAX_PLACE_POINTS


class TableScoresForm(ServiceForm):
    """One table's final scores: ``score_<entry id>`` per seat; the kind checks them (one at
    the target, the others below) through the service."""

    table = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Reason for the change"), required=False, max_length=300, strip=True
    )

    def __init__(self, *args, table: StoppaTable | None = None, **kwargs):
        if table is not None:
            kwargs.setdefault("auto_id", f"t{table.pk}-%s")
            initial = kwargs.setdefault("initial", {})
            initial["table"] = table.pk
            for seat in table.seats.all():
                if seat.net is not None:
                    initial.setdefault(f"score_{seat.entry_id}", seat.net)
        super().__init__(*args, **kwargs)
        self.seat_fields = []
        for seat in table.seats.all() if table is not None else []:
            name = f"score_{seat.entry_id}"
            self.fields[name] = forms.IntegerField(
                label=seat.entry.player.name,
                required=False,  # a missing score is named by the kind's check, with the rest
                error_messages={"invalid": _("A score is a whole number, e.g. 121 or 95.")},
                widget=forms.NumberInput(
                    attrs={"inputmode": "numeric", "class": "form-control score", "min": 0}
                ),
            )
            self.seat_fields.append((seat, self[name]))

    def scores(self) -> dict[int, int | None]:
        return {
            int(name[6:]): value
            for name, value in self.cleaned_data.items()
            if name.startswith("score_")
        }

    def save(self, event: Event, *, game: int, user):
        """Record the scores through the service; None (with the errors on the form) if
        refused."""
        from . import services

        return self.run(
            lambda: services.record_table_scores(
                event,
                table=self.cleaned_data["table"],
                scores=self.scores(),
                game=game,
                user=user,
                reason=self.cleaned_data.get("reason") or "",
            )
        )


class PlacePointsForm(ServiceForm):
    """The event's match points for first, second and last place at a table."""

    points_first = forms.IntegerField(label=_("First"), min_value=0, max_value=MAX_PLACE_POINTS)
    points_second = forms.IntegerField(
        label=_("Second"),
        min_value=0,
        max_value=MAX_PLACE_POINTS,
        help_text=Event._meta.get_field("points_second").help_text,
    )
    points_third = forms.IntegerField(
        label=_("Last"),
        min_value=0,
        max_value=MAX_PLACE_POINTS,
        help_text=Event._meta.get_field("points_third").help_text,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _style(self)

    def save(self, event: Event):
        from . import services

        data = self.cleaned_data if self.is_valid() else {}
        return self.run(
            lambda: services.set_place_points(
                event,
                first=data["points_first"],
                second=data["points_second"],
                third=data["points_third"],
            )
        )
