"""The club's members page: a membership for a season, and the club's guest rule."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import Club, Player
from ..services import members as member_services
from .base import ServiceForm, _style


class _PlayerChoices(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return f"{obj.name} ({obj.acc_number})" if obj.acc_number else obj.name


class MembershipForm(ServiceForm):
    """A player made a member for the season (September to May unless dates are given)."""

    player = _PlayerChoices(label=_("Player"), queryset=Player.objects.none())
    acc_number = forms.CharField(label=_("ACC number"), max_length=40)
    dues_paid = forms.DecimalField(
        label=_("Dues paid"), max_digits=8, decimal_places=2, min_value=0, initial=Decimal("0")
    )
    paid_on = forms.DateField(
        label=_("Paid on"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    member_since = forms.DateField(
        label=_("Member since"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    season_start = forms.DateField(
        label=_("Season starts"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    season_end = forms.DateField(
        label=_("Season ends"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args, club: Club, **kwargs):
        from .. import selectors

        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = selectors.club_players(club)
        _style(self)

    def save(self, club: Club):
        def action():
            data = self.cleaned_data  # there once the form is valid
            return member_services.save_membership(
                club,
                data["player"],
                acc_number=data["acc_number"],
                dues_paid=data["dues_paid"],
                paid_on=data["paid_on"],
                member_since=data["member_since"],
                season_start=data["season_start"],
                season_end=data["season_end"],
            )

        return self.run(action)


class GuestRuleForm(ServiceForm):
    """The nights a guest may play and the game points of a qualifying card."""

    guest_nights_allowed = forms.IntegerField(label=_("Nights a guest may play"), min_value=1)
    qualifying_card_points = forms.IntegerField(
        label=_("Game points of a qualifying card"), min_value=1
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _style(self)

    def save(self, club: Club):
        return self.run(
            lambda: member_services.set_guest_rule(
                club,
                nights=self.cleaned_data["guest_nights_allowed"],
                card_points=self.cleaned_data["qualifying_card_points"],
            )
        )
