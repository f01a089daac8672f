"""A team of two partners registered at the door (a kind played by teams of two)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .. import services
from ..models import Event
from .base import ServiceForm


class TeamForm(ServiceForm):
    """Two names: each found among the club's players (accents and case aside), else added;
    the two entered as one team, checked in."""

    name = forms.CharField(label=_("Player"), max_length=120)
    partner = forms.CharField(label=_("Partner"), max_length=120)

    def save(self, event: Event):
        """Enter the team; None with the refusal beside its field."""
        return self.run(
            lambda: services.register_team(
                event, name=self.cleaned_data["name"], partner_name=self.cleaned_data["partner"]
            )
        )
