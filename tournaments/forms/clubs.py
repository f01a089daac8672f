"""The club's forms: its name and defaults, its TDs and scorekeepers, and its players
(renamed, or two records of one person merged)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .. import services
from ..models import Club, MatchPointFormat, Player
from ..services.clubs import usable_formats
from .base import ServiceForm, _style


class ClubForm(ServiceForm):
    """The club's name and city."""

    name = forms.CharField(label=_("Name"), max_length=120)
    city = forms.CharField(label=_("City"), max_length=120, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _style(self)

    def save(self, club: Club):
        return self.run(lambda: services.update_club(club, **self.cleaned_data))


class UserForm(ServiceForm):
    """An existing user, by username or email (a TD or a scorekeeper to add)."""

    who = forms.CharField(
        label=_("Username or email"),
        max_length=254,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _style(self)


class _FormatChoices(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        # The built-in formats' names carry their points already: "ACC tournament rules (2 / 3)".
        return obj.display_name


class ClubDefaultsForm(ServiceForm):
    """The match-point format the club's new events start from."""

    match_point_format = _FormatChoices(
        label=_("Match-point format"),
        queryset=MatchPointFormat.objects.none(),
        required=False,
        empty_label=_("The first built-in format"),
    )

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["match_point_format"].queryset = usable_formats(club)
        _style(self)

    def save(self, club: Club):
        return self.run(
            lambda: services.set_club_defaults(
                club, match_point_format=self.cleaned_data["match_point_format"]
            )
        )


class RenameForm(ServiceForm):
    """A player's name, spelled right."""

    name = forms.CharField(label=_("Name"), max_length=120)

    def save(self, club: Club, player: Player):
        return self.run(lambda: services.rename_player(club, player, self.cleaned_data["name"]))


class _PlayerChoices(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return f"{obj.name} ({obj.acc_number})" if obj.acc_number else obj.name


class MergeForm(ServiceForm):
    """Two records of one person: the one kept, and the one merged into it."""

    keep = _PlayerChoices(label=_("Keep"), queryset=Player.objects.none())
    merged = _PlayerChoices(label=_("Merge into it (then deleted)"), queryset=Player.objects.none())

    def __init__(self, *args, club: Club, **kwargs):
        from .. import selectors

        super().__init__(*args, **kwargs)
        players = selectors.club_managed_players(club)
        self.fields["keep"].queryset = players
        self.fields["merged"].queryset = players
        _style(self)

    def save(self, club: Club):
        return self.run(
            lambda: services.merge_players(
                club, keep=self.cleaned_data["keep"], merged=self.cleaned_data["merged"]
            )
        )
