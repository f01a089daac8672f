"""Forms of the door (issue 28): a player's own registration, the TD's registration
settings, and the club's event templates. The rules are the services'."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .base import ServiceForm, _style


class PublicRegistrationForm(ServiceForm):
    """A player registers themselves (no account): a name, their partner's where the kind
    is played by teams of two, an optional email or phone."""

    name = forms.CharField(
        label=_("Your name"),
        max_length=120,
        widget=forms.TextInput(attrs={"autocomplete": "name"}),
    )
    partner = forms.CharField(
        label=_("Your partner's name"),
        max_length=120,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    email = forms.CharField(
        label=_("Email (optional)"),
        max_length=254,
        required=False,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    phone = forms.CharField(
        label=_("Phone (optional)"),
        max_length=30,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "tel", "inputmode": "tel"}),
    )

    def __init__(self, *args, teams: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if not teams:  # players play alone: no partner to name
            del self.fields["partner"]
        _style(self)


class RegistrationSettingsForm(ServiceForm):
    """The TD opens online registration and sets the cap."""

    registration_open = forms.BooleanField(label=_("Online registration open"), required=False)
    cap = forms.IntegerField(
        label=_("Most entrants"),
        required=False,
        min_value=0,
        help_text=_("Registrations beyond it join the waiting list. Empty: no limit."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _style(self)


class TemplateForm(ServiceForm):
    """Save the event as a named template of the club."""

    name = forms.CharField(label=_("Template name"), max_length=120)
    replace = forms.BooleanField(label=_("Replace a template of this name"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _style(self)


class FromTemplateForm(ServiceForm):
    """A new event from one of the club's templates."""

    template = forms.TypedChoiceField(label=_("Template"), coerce=int)
    name = forms.CharField(label=_("Name"), max_length=120)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, templates=(), **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["template"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(t.pk, t.name) for t in templates]
        _style(self)
