"""The event's entries: a player registered at the door, a pasted or uploaded roster, and the
pairs of players never to be seated together."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from core.errors import ServiceError

from .. import services
from ..error_codes import TournamentsError
from ..models import Entry, Event, Player
from ..services.entries import MAX_IMPORT_LINES
from .base import ServiceForm, _style


def same_as_waiting_field() -> forms.TypedChoiceField:
    """The TD's answer when the player waits on the online list: the same person who
    registered ("yes": their link holds the entry), someone else ("no"), or not said yet."""
    return forms.TypedChoiceField(
        label=_("Is this the person who registered online?"),
        choices=[("", ""), ("yes", _("Yes, the same person")), ("no", _("No, someone else"))],
        coerce=lambda value: {"yes": True, "no": False}.get(value),
        empty_value=None,
        required=False,
        widget=forms.HiddenInput,  # asked, with two buttons, only when the refusal says so
    )


class RegisterForm(ServiceForm):
    """Register a player at the door: a player picked from the search, a known player by ACC
    number or exact name, or (asked for explicitly) a new one.

    ``player`` is the id of a candidate the TD picked; ``new`` asks to create the player even
    though similar names exist. Without either, a name like one of the club's players is
    refused with those players as candidates (``self.candidates``), so no duplicate is made
    by accident.
    """

    name = forms.CharField(label=_("Name"), max_length=120, required=False)
    acc_number = forms.CharField(label=_("ACC number"), max_length=20, required=False)
    status = forms.ChoiceField(
        label=_("Status"), choices=Player.Status.choices, initial=Player.Status.MEMBER
    )
    player = forms.IntegerField(required=False, widget=forms.HiddenInput)
    new = forms.BooleanField(required=False, widget=forms.HiddenInput)
    same_as_waiting = same_as_waiting_field()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.candidates: list[Player] = []

    def clean(self):
        data = super().clean()
        if "name" in self.errors:  # too long: that error alone, not "needs a name" too
            return data
        if not data.get("player") and not " ".join(data.get("name", "").split()):
            self.add_error("name", forms.ValidationError(_("A player needs a name.")))
        return data

    def _register(self, event: Event):
        from .. import names, selectors

        data = self.cleaned_data
        same = data.get("same_as_waiting")
        if data.get("player"):
            return services.enter_club_player(event, data["player"], same_as_waiting=same)
        if not data.get("new") and not data["acc_number"]:
            similar = selectors.find_club_players(event.club, data["name"])
            folded = names.fold(data["name"])
            same = [p for p in similar if names.fold(p.name) == folded]
            if len(same) == 1:  # the name as the club knows it: that player, not a copy
                return services.enter_club_player(
                    event, same[0], same_as_waiting=data.get("same_as_waiting")
                )
            if similar:
                self.candidates = similar
                raise ServiceError(
                    TournamentsError.SIMILAR_PLAYERS,
                    _("The club has players with a name like this: pick one, or add a new player."),
                    field="name",
                )
        return services.register_player(
            event,
            name=data["name"],
            acc_number=data["acc_number"],
            status=data["status"],
            same_as_waiting=data.get("same_as_waiting"),
        )

    def save(self, event: Event):
        """Enter the player (checked in)."""
        return self.run(lambda: self._register(event))


class _EntryChoices(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return obj.name


class ForbiddenPairForm(ServiceForm):
    """Two players of the event who must never be seated together."""

    entry_a = _EntryChoices(label=_("Player"), queryset=Entry.objects.none())
    entry_b = _EntryChoices(label=_("Never against"), queryset=Entry.objects.none())
    reason = forms.CharField(label=_("Reason"), max_length=120, required=False)

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        # Folded: "Łucja" among the L, not after Z (a choice field keeps a queryset).
        entries = event.entries.select_related("player").order_by(
            "player__name_folded", "player__name"
        )
        self.fields["entry_a"].queryset = entries
        self.fields["entry_b"].queryset = entries

    def save(self, event: Event):
        return self.run(
            lambda: services.add_forbidden_pair(
                event,
                self.cleaned_data["entry_a"],
                self.cleaned_data["entry_b"],
                reason=self.cleaned_data["reason"],
            )
        )


MAX_ROSTER_BYTES = 1_000_000


class RosterImportForm(ServiceForm):
    """A list of players to enter: pasted, or a CSV/text file (one name a line, an optional
    ACC number after a comma or a tab)."""

    names = forms.CharField(
        label=_("Names, one a line"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "Ann Whitfield, 12345"}),
    )
    file = forms.FileField(label=_("or a CSV file"), required=False)
    checked_in = forms.BooleanField(label=_("Check them in"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _style(self)

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if upload is None:
            return ""
        if upload.size > MAX_ROSTER_BYTES:
            raise forms.ValidationError(_("The file is larger than 1 MB."))
        raw = upload.read()
        for encoding in ("utf-8-sig", "cp1252"):  # Excel on Windows saves CSV in cp1252
            try:
                return raw.decode(encoding)
            except UnicodeDecodeError:
                continue
        raise forms.ValidationError(_("The file is not text."))  # pragma: no cover

    def clean(self):
        data = super().clean()
        text = "\n".join(t for t in (data.get("names", ""), data.get("file", "")) if t)
        if not text.strip() and not self.errors:
            self.add_error("names", forms.ValidationError(_("Paste names or choose a file.")))
        elif text.count("\n") > MAX_IMPORT_LINES * 2:
            self.add_error("names", forms.ValidationError(_("The list is too long.")))
        data["text"] = text
        return data

    def save(self, event: Event):
        return self.run(
            lambda: services.import_roster(
                event, self.cleaned_data["text"], checked_in=self.cleaned_data["checked_in"]
            )
        )
