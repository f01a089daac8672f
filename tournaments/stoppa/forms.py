"""Stoppa's forms: a table's session by chip nets or by deal records, and the table sizes."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms.base import ServiceForm
from tournaments.models import Event, StoppaTable


class StoppaNetsForm(ServiceForm):
    """One Stoppa table's session: every player's chip net (one row per table on the page).

    The fields are ``net_<entry id>``, one per seat; the service checks the sum is zero.
    """

    table = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Reason for the change"), required=False, max_length=300, strip=True
    )

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
        from . import services as services_stoppa

        return self.run(
            lambda: services_stoppa.record_session_nets(
                event,
                table=self.cleaned_data["table"],
                nets=self.nets(),
                session=session,
                user=user,
                reason=self.cleaned_data.get("reason") or "",
            )
        )


class StoppaDealsForm(ServiceForm):
    """A Stoppa table's session from its deal records (JSON), each verified before summing."""

    table = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Reason for the change"), required=False, max_length=300, strip=True
    )
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
        from . import services as services_stoppa

        return self.run(
            lambda: services_stoppa.record_session_deals(
                event,
                table=self.cleaned_data["table"],
                deals=self.cleaned_data["deals"],
                session=session,
                user=user,
                reason=self.cleaned_data.get("reason") or "",
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
        from . import services as services_stoppa

        return self.run(lambda: services_stoppa.set_table_sizes(event, **self.cleaned_data))
