"""An event's settings: the new-event wizard and the settings page (``EventForm``), and the
form as re-rendered after a button of its ranking-chain editor or a change of game."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .. import kinds, services
from ..models import Club, Event, MatchPointFormat
from ..services.clubs import usable_formats
from .base import ServiceForm, _style
from .chain import _ChainField, chain_rows, edit_chain
from .clubs import _FormatChoices

# The settings of the qualifying games, which a playoff-only event does not play.
QUALIFYING_SETTINGS = frozenset({"pairing", "games_planned", "meetings_per_opponent"})


class EventForm(ServiceForm):
    """The new-event wizard and, bound to an event, its settings page.

    Settings that can no longer change (``services.settings_locks``) are disabled, each with
    its reason in ``self.locks``; Django then keeps their stored value whatever is posted.
    """

    name = forms.CharField(label=_("Name"), max_length=120)
    date = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    # The card game played (Italian "Gioco"), not one game of the event ("Partita").
    game = forms.ChoiceField(label=pgettext_lazy("card game", "Game"), choices=kinds.choices)
    kind = forms.ChoiceField(label=_("Kind of event"), choices=Event.Kind.choices)
    pairing = forms.ChoiceField(
        label=_("How games are seated"),
        choices=Event.Pairing.choices,
        help_text=_("Swiss seats players with equal scores together; round robin: everyone once."),
    )
    games_planned = forms.IntegerField(
        label=_("Number of games"), min_value=1, max_value=40, initial=9
    )
    meetings_per_opponent = forms.TypedChoiceField(
        label=_("Games per opponent"),
        choices=[(1, _("One game per opponent")), (2, _("Up to two games per opponent"))],
        coerce=int,
        initial=1,
    )
    target = forms.TypedChoiceField(
        label=_("Target"), choices=Event.Target.choices, coerce=int, initial=Event.Target.FULL
    )
    muggins = forms.BooleanField(label=_("Muggins"), required=False)
    match_point_format = _FormatChoices(
        label=_("Match-point format"), queryset=MatchPointFormat.objects.none()
    )
    confirmation = forms.ChoiceField(
        label=_("Reports confirmed by"), choices=Event.Confirmation.choices, required=False
    )
    entrants = forms.ChoiceField(
        label=_("Entrants"),
        choices=Event.Entrants.choices,
        required=False,
        help_text=_(
            "Who is ranked and counts for the cut; the others are listed apart as no-shows."
        ),
    )
    language = forms.ChoiceField(
        label=_("Language of the public pages and printables"),
        choices=[("", _("Each visitor's own")), *settings.LANGUAGES],
        required=False,
        help_text=_("The projector and the printed cards use it; visitors can still pick theirs."),
    )
    seed_by_rating = forms.BooleanField(
        label=_("Seed by club rating"),
        required=False,
        help_text=Event._meta.get_field("seed_by_rating").help_text,
    )
    qualifiers = forms.IntegerField(
        label=_("Qualifiers (cut size)"),
        min_value=2,
        required=False,
        help_text=_("Sanctioned: how many players the cut takes. Empty: one in four entrants."),
    )
    tiebreakers = _ChainField(label=_("Ranking chain"), required=False)
    chain_game = forms.CharField(required=False, widget=forms.HiddenInput)
    seed = forms.IntegerField(
        label=_("Seed"),
        min_value=0,
        required=False,
        help_text=_("Makes every draw reproducible. Empty: a new random seed."),
    )

    def __init__(self, *args, club: Club, event: Event | None = None, **kwargs):
        # A locked (disabled) field keeps its initial value: the event's own.
        kwargs.setdefault("initial", self.initial_for(club, event))
        super().__init__(*args, **kwargs)
        self.club, self.event = club, event
        self.fields["match_point_format"].queryset = usable_formats(club)
        self.locks = services.settings_locks(event) if event is not None else {}
        for name, why in self.locks.items():
            if name in self.fields:
                self.fields[name].disabled = True
                self.fields[name].help_text = why
        if event is not None:
            self.fields["seed"].required = True
        if not self.fields["game"].disabled:
            # With HTMX the chain follows a change of game at once (the page is posted as the
            # "use this game's chain" button would, and its form swapped in); the view adds
            # the URL to post to (hx-post).
            self.fields["game"].widget.attrs.update(
                {
                    "hx-trigger": "change",
                    "hx-vals": '{"chain_op": "game"}',
                    "hx-target": "#event-form",
                    "hx-select": "#event-form",
                    "hx-swap": "outerHTML",
                }
            )
        if not self.fields["kind"].disabled:
            # A change of kind re-renders the form as well: a playoff-only event is asked no
            # number of games (the chain is kept: "kind" is no move of the chain editor).
            self.fields["kind"].widget.attrs.update(
                {
                    "hx-trigger": "change",
                    "hx-vals": '{"chain_op": "kind"}',
                    "hx-target": "#event-form",
                    "hx-select": "#event-form",
                    "hx-swap": "outerHTML",
                }
            )
        if event is None or event.kind != Event.Kind.CONSOLATION:
            # A consolation is made from a playoff's cut ("Cut to the playoff"), not from here.
            self.fields["kind"].choices = [
                c for c in Event.Kind.choices if c[0] != Event.Kind.CONSOLATION
            ]
        _style(self)

    @staticmethod
    def initial_for(club: Club, event: Event | None = None) -> dict:
        """The form's starting values: the event's own, or the club's defaults."""
        if event is not None:
            return {
                "name": event.name,
                "date": event.date,
                "game": event.game,
                "kind": event.kind,
                "pairing": event.pairing,
                "games_planned": event.games_planned,
                "meetings_per_opponent": event.meetings_per_opponent,
                "target": event.target,
                "muggins": event.muggins,
                "match_point_format": event.match_point_format_id,
                "confirmation": event.confirmation,
                "entrants": event.entrants,
                "language": event.language,
                "seed_by_rating": event.seed_by_rating,
                "qualifiers": event.qualifiers,
                "tiebreakers": list(event.ranking_chain),
                "chain_game": event.game,
                "seed": event.seed,
            }
        from django.utils import timezone

        game = kinds.all_kinds()[0].key
        fmt = club.default_match_point_format or (
            usable_formats(club).filter(builtin=True).order_by("pk").first()
        )
        return {
            "date": timezone.localdate(),
            "game": game,
            "kind": Event.Kind.CLUB_NIGHT,
            "pairing": Event.Pairing.QUALIFYING,
            "games_planned": 9,
            "meetings_per_opponent": 1,
            "target": Event.Target.FULL,
            "match_point_format": fmt.pk if fmt else None,
            "confirmation": Event.Confirmation.OWN_KEYS,
            "entrants": Event.Entrants.PLAYED,
            "tiebreakers": list(club.default_chain(game)),
            "chain_game": game,
        }

    def value_of(self, name: str):
        """The value shown for ``name``: posted, else initial (a locked one: stored)."""
        field = self[name]
        if not self.is_bound or self.fields[name].disabled:
            return self.get_initial_for_field(self.fields[name], name)
        return field.data

    def unused(self) -> frozenset[str]:
        """The settings the game and kind of event shown do not use: posted as they are, not
        shown (a playoff-only event draws no qualifying games, so it is asked none)."""
        try:
            unused = kinds.get(str(self.value_of("game"))).unused_settings
        except KeyError:
            unused = frozenset()
        if self.value_of("kind") in Event.PLAYOFF_ONLY_KINDS:
            unused |= QUALIFYING_SETTINGS
        return unused

    def chain(self) -> list[str]:
        value = self.value_of("tiebreakers")
        return self.fields["tiebreakers"].to_python(value)

    def chain_editor(self) -> dict:
        """The ranking-chain editor's rows for the game shown."""
        return chain_rows(str(self.value_of("game")), self.chain())

    def _values(self) -> dict:
        data = dict(self.cleaned_data)
        data.pop("chain_game", None)
        data["confirmation"] = data.get("confirmation") or Event.Confirmation.OWN_KEYS
        data["entrants"] = data.get("entrants") or Event.Entrants.PLAYED
        data["language"] = data.get("language") or ""
        return data

    def create(self):
        """A new event of the club (``services.create_event``), or None with the errors."""
        return self.run(lambda: services.create_event(self.club, **self._values()))

    def update(self):
        """The event's new settings (``services.update_event_settings``), or None."""
        return self.run(lambda: services.update_event_settings(self.event, **self._values()))


def chain_needs_review(data, *, event: Event | None = None) -> bool:
    """Whether the posted chain was built for another game than the one posted (the game was
    changed without the page following): its tiebreakers may not exist in the new game."""
    if event is not None and "game" in services.settings_locks(event):
        return False
    return bool(data.get("game")) and data.get("game") != data.get("chain_game")


def rebound_event_form(data, *, club: Club, event: Event | None = None) -> EventForm:
    """The event form as posted, after one button of its ranking-chain editor (or a change of
    game, which starts the chain again from the club's chain for that game); unbound, so no
    error shows before the TD asks to save."""
    form = EventForm(data, club=club, event=event)
    initial = EventForm.initial_for(club, event)
    for name, field in form.fields.items():
        # An absent checkbox is off and an absent chain is empty (every key removed).
        absent_means_empty = isinstance(field, forms.BooleanField) or name == "tiebreakers"
        if field.disabled or (name not in data and not absent_means_empty):
            continue
        if isinstance(field, forms.BooleanField):
            initial[name] = data.get(name) in ("on", "true", "1", "True")
        elif name == "tiebreakers":
            initial[name] = field.to_python(data.getlist(name))
        else:
            initial[name] = data.get(name)
    op = data.get("chain_op", "")
    game = str(initial.get("game"))
    if op == "game" or initial.get("chain_game") != game:
        initial["tiebreakers"] = (
            list(club.default_chain(game)) if game in dict(kinds.choices()) else []
        )
        initial["chain_game"] = game
    else:
        initial["tiebreakers"] = edit_chain(initial["tiebreakers"], op, data.get("chain_add", ""))
    return EventForm(initial=initial, club=club, event=event)
