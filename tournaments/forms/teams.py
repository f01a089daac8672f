"""A team of two partners registered at the door (a kind played by teams of two)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from core.errors import ServiceError

from .. import services
from ..error_codes import TournamentsError
from ..models import Event
from .base import ServiceForm
from .entries import same_as_waiting_field


class TeamForm(ServiceForm):
    """Two names: each the club's player of that name (accents and case aside), else added;
    the two entered as one team, checked in. A name only like some of the club's players is
    refused with those names, so no duplicate is made by a typo, unless ``new`` is ticked."""

    name = forms.CharField(label=_("Player"), max_length=120)
    partner = forms.CharField(label=_("Partner"), max_length=120)
    new = forms.BooleanField(
        label=_("Add as new players, even where the club has a similar name"), required=False
    )
    same_as_waiting = same_as_waiting_field()

    def _register(self, event: Event):
        from .. import names, selectors

        data = self.cleaned_data
        if not data.get("new"):
            for field in ("name", "partner"):
                similar = selectors.find_club_players(event.club, data[field])
                folded = names.fold(data[field])
                if similar and not any(names.fold(p.name) == folded for p in similar):
                    raise ServiceError(
                        TournamentsError.SIMILAR_PLAYERS,
                        _(
                            "The club has players with a name like this: %(names)s. Write the "
                            "name as the club knows it, or tick “Add as new players, even where "
                            "the club has a similar name”."
                        )
                        % {"names": ", ".join(p.name for p in similar[:4])},
                        field=field,
                    )
        return services.register_team(
            event,
            name=data["name"],
            partner_name=data["partner"],
            same_as_waiting=data.get("same_as_waiting"),
        )

    def save(self, event: Event):
        """Enter the team; None with the refusal beside its field."""
        return self.run(lambda: self._register(event))
