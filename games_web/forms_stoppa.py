"""Forms of the Stoppa deal checker page. The engine does the checking (through
``games.stoppa.checker``, shared with the API); the forms carry its errors to the right field."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from core.engine_messages.stoppa import describe, describe_error
from games.stoppa import StoppaError
from games.stoppa.checker import DEFAULT_NAMES, compare_contest, run_stop

ROWS = range(1, 7)

REASONS = {
    "count": _("fewer cards of one suit"),
    "points": _("lower points"),
    "priority": _("later in priority"),
}
DECIDED_BY = {
    "count": _("most cards of one suit"),
    "points": _("more points"),
    "priority": _("priority: equal hands, earlier in the deal order"),
    "uncontested": _("the only player shown"),
}
SUITS = {
    "d": _("denari (coins)"),
    "c": _("coppe (cups)"),
    "s": _("spade (swords)"),
    "b": _("bastoni (clubs)"),
}
PLAY_KINDS = {
    "open": _("opens"),
    "follow": _("follows"),
    "all_of_rank": _("all of the rank at once"),
    "aces_on_ace": _("Aces on an Ace"),
    "three_aces_free": _("three Aces, out of sequence"),
}

_HAND_INDEX = re.compile(r"^hands\.(\d+)\.(cards|player)$")
_LOG_INDEX = re.compile(r"^log\.(\d+)$")
_TEXT = {
    "class": "form-control",
    "autocomplete": "off",
    "autocapitalize": "off",
    "spellcheck": "false",
}


class _HandsForm(forms.Form):
    """Up to six rows of (name, cards) in priority order: di mano first, the dealer last."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in ROWS:
            self.fields[f"name_{i}"] = forms.CharField(
                label=_("Player %(n)s") % {"n": i},
                max_length=40,
                required=False,
                widget=forms.TextInput(attrs={**_TEXT, "placeholder": DEFAULT_NAMES[i - 1]}),
            )
            self.fields[f"cards_{i}"] = forms.CharField(
                label=_("Cards of player %(n)s") % {"n": i},
                max_length=200,
                required=False,
                widget=forms.TextInput(attrs=_TEXT),
            )

    def rows(self) -> list[dict[str, Any]]:
        """The bound fields row by row, for the template."""
        return [{"n": i, "name": self[f"name_{i}"], "cards": self[f"cards_{i}"]} for i in ROWS]

    def hands(self) -> tuple[list[tuple[str, str]], list[int]]:
        """The filled rows as (name, cards), and the row number of each."""
        hands, rows = [], []
        for i in ROWS:
            cards = self.cleaned_data.get(f"cards_{i}", "").strip()
            if cards:
                name = self.cleaned_data.get(f"name_{i}", "").strip() or DEFAULT_NAMES[i - 1]
                hands.append((name, cards))
                rows.append(i)
        return hands, rows

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not any((data.get(f"cards_{i}") or "").strip() for i in ROWS):
            raise forms.ValidationError(_("Type the cards of at least one player."))
        return data

    def engine_error(self, exc: StoppaError, rows: list[int]) -> None:
        """Put the engine's error, in the user's language, on the field it names."""
        message = describe_error(exc)
        field = None
        match = _HAND_INDEX.match(exc.where or "")
        if match and int(match.group(1)) < len(rows):
            row = rows[int(match.group(1))]
            field = f"{'name' if match.group(2) == 'player' else 'cards'}_{row}"
        elif exc.where in self.fields:
            field = exc.where
        elif _LOG_INDEX.match(exc.where or "") and "log" in self.fields:
            line = int(_LOG_INDEX.match(exc.where).group(1)) + 1
            self.add_error("log", _("Play %(n)s: %(message)s") % {"n": line, "message": message})
            return
        self.add_error(field, forms.ValidationError(message, code=exc.code))


class ContestForm(_HandsForm):
    """A punto piccolo (the cards of one iteration) or the punto grosso (all cards received)."""

    table_size = forms.TypedChoiceField(
        label=_("Table"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", _("any")), (3, "3"), (4, "4"), (5, "5"), (6, "6")],
        widget=forms.Select(attrs={"class": "form-select"}),
        help_text=_("Checks the cards against the deck in use (no Kings at 6)."),
    )
    removed_king = forms.CharField(
        label=_("King removed (3 players)"),
        max_length=20,
        required=False,
        widget=forms.TextInput(attrs={**_TEXT, "placeholder": "Kd"}),
    )

    def check(self, phase: str) -> dict[str, Any] | None:
        """Who wins and why, or None with the engine's message on the field it names."""
        if not self.is_valid():
            return None
        hands, rows = self.hands()
        try:
            result = compare_contest(
                phase,
                hands,
                table_size=self.cleaned_data["table_size"],
                removed_king=self.cleaned_data["removed_king"] or None,
            )
        except StoppaError as exc:
            self.engine_error(exc, rows)
            return None
        result["decided_text"] = DECIDED_BY[result["decided_by"]]
        for standing in result["ranking"]:
            standing["why"] = REASONS.get(standing["reason_code"], "")
            standing["suit_name"] = SUITS[standing["eval"]["suit"]]
            standing["all_cards"] = result["hands"][standing["player"]]
        return result


class StopForm(_HandsForm):
    """The stop phase: every player's full hand, the plays in order, the payment unit."""

    log = forms.CharField(
        label=_("Plays, one per line"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={**_TEXT, "rows": 6, "placeholder": "A: Ad Ac\nB: 2d"}),
        help_text=_(
            "Player, a colon, the cards played at once, e.g. P2: Ad Ac As. "
            "Passes are not written. Leave empty to see the phase played out."
        ),
    )
    stop_unit = forms.IntegerField(
        label=_("Chips per payment"),
        min_value=1,
        initial=6,
        required=False,
        widget=forms.NumberInput(attrs={"class": "form-control", "inputmode": "numeric"}),
    )
    cards_per_payment = forms.TypedChoiceField(
        label=_("Cards per payment"),
        coerce=int,
        choices=[(2, "2"), (3, "3")],
        initial=2,
        widget=forms.Select(attrs={"class": "form-select"}),
        required=False,
        empty_value=2,
    )
    three_aces_free = forms.BooleanField(
        label=_("Three Aces without a King may be thrown out of sequence"),
        required=False,
        widget=forms.CheckboxInput(attrs={"class": "form-check-input"}),
    )

    def plays(self) -> list[str]:
        """The log lines that are not blank."""
        return [line.strip() for line in self.cleaned_data["log"].splitlines() if line.strip()]

    def check(self) -> dict[str, Any] | None:
        """The replayed (or played out) stop phase, or None with the engine's message."""
        if not self.is_valid():
            return None
        hands, rows = self.hands()
        plays = self.plays()
        for n, line in enumerate(plays, start=1):
            if ":" not in line:
                self.add_error(
                    "log",
                    _("Play %(n)s: write the player, a colon, then the cards (e.g. P2: Ad Ac)")
                    % {"n": n},
                )
                return None
        try:
            result = run_stop(
                hands,
                plays,
                unit=self.cleaned_data["stop_unit"] or 6,
                cards_per_payment=self.cleaned_data["cards_per_payment"] or 2,
                three_aces_free=self.cleaned_data["three_aces_free"],
            )
        except StoppaError as exc:
            self.engine_error(exc, rows)
            return None
        for play in result["plays"]:
            play["kind_text"] = PLAY_KINDS.get(play["kind"], play["kind"])
        for warning in result["warnings"]:
            warning["detail"] = describe(warning["code"], warning["params"], warning["message"])
        result["table"] = [
            {"player": p, "left": result["hands_left"][p], "pays": result["payments"].get(p, 0)}
            for p in result["order"]
        ]
        return result
