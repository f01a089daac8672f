"""Forms of the result pages; the rules live in results.services."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from core.engine_messages.cribbage import describe_problem
from games.cribbage import CardError, parse_card
from tournaments.forms import ServiceForm
from tournaments.models import Entry, Table


class PlayerReportForm(ServiceForm):
    """A player's report of their own game: who won, the loser's score, optional record."""

    table = forms.IntegerField(widget=forms.HiddenInput)
    winner = forms.ChoiceField(
        label=_("Who won?"), choices=[("me", _("I won")), ("opponent", _("My opponent won"))]
    )
    loser_score = forms.IntegerField(label=_("Loser's score"), required=False)
    forfeit = forms.BooleanField(label=_("Forfeit"), required=False)
    record = forms.CharField(
        label=_("Hand-by-hand record (JSON, optional)"), required=False, widget=forms.Textarea
    )

    def clean_record(self):
        text = self.cleaned_data["record"].strip()
        if not text:
            return None
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(
                _("The record is not valid JSON: %(e)s") % {"e": exc}
            ) from None

    def winner_id(self, entry: Entry, table: Table | None) -> int | None:
        """The winner's entry id from "me" or "opponent", seen from ``entry``'s seat."""
        choice = self.cleaned_data.get("winner")
        if not choice:
            return None
        if choice == "me" or table is None:
            return entry.pk
        seats = {table.seat_a_id, table.seat_b_id} - {None}
        return next(iter(seats - {entry.pk}), None)


class DisputeForm(PlayerReportForm):
    """A player disputes the opponent's version: a short reason, and optionally their own
    version of the result (the TD sees both side by side)."""

    winner = forms.ChoiceField(
        label=_("Who won?"),
        choices=[("me", _("I won")), ("opponent", _("My opponent won"))],
        required=False,
    )
    reason = forms.CharField(
        label=_("What is wrong?"),
        max_length=300,
        error_messages={"required": _("Say in a few words what is wrong.")},
    )


class RulingForm(ServiceForm):
    """The TD's own result for a table (when neither version is right), or a correction."""

    table = forms.IntegerField(widget=forms.HiddenInput)
    winner = forms.IntegerField(label=_("Winner"))
    loser_score = forms.IntegerField(label=_("Loser's score"), required=False)
    forfeit = forms.BooleanField(label=_("Forfeit"), required=False)
    reason = forms.CharField(label=_("Reason"), max_length=300, required=False)


class ImportForm(ServiceForm):
    """Both players' lines of each game, as CSV (UTF-8, Excel's BOM welcome)."""

    file = forms.FileField(label=_("CSV file: game, table, player, result, spread"))


# --- The hand-by-hand record, deal by deal ------------------------------------------------------
#
# The player's page asks for each deal's cards with one labelled select per card (it works
# without JavaScript; static/js/record.js turns them into a rank-and-suit picker). The form
# only reshapes the fields into the record games.cribbage.verify_game reads: the checking is
# results.services.reports._check_record's, and its problems come back here to be shown
# beside the deal and the card they concern.

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = (
    ("S", "♠", _("Spades")),
    ("H", "♥", _("Hearts")),
    ("D", "♦", _("Diamonds")),
    ("C", "♣", _("Clubs")),
)
CARD_CHOICES = [("", "—")] + [
    (name, [(f"{rank}{letter}", f"{rank}{symbol}") for rank in RANKS])
    for letter, symbol, name in SUITS
]
HAND_SIZE = 4
DISCARDS = 2  # each of the two players throws two cards to the crib
PLAY_SIZE = 8  # two players lay their four cards each
SEATS = {"me": 0, "opponent": 1}


def card_field(label) -> forms.CharField:
    """One card: a select of the 52 cards (canonical notation); blank when not filled in.

    A plain CharField, not a ChoiceField: whatever comes in goes to the engine, which names
    a bad card in its own words (``bad_card``)."""
    return forms.CharField(
        label=label,
        required=False,
        max_length=8,
        widget=forms.Select(choices=CARD_CHOICES, attrs={"class": "form-select card-select"}),
    )


def points_field(label, most: int) -> forms.IntegerField:
    """Points claimed (optional: left out, the engine pegs the true points)."""
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=0,
        max_value=most,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "form-control"}),
    )


class DealForm(forms.Form):
    """One deal of a two-player game, seen from the reporting player's seat."""

    dealer = forms.ChoiceField(
        label=_("Dealer"),
        required=False,
        choices=[("me", _("Me")), ("opponent", _("My opponent"))],
        widget=forms.RadioSelect(attrs={"class": "btn-check"}),
    )
    starter = card_field(_("Starter card"))
    hand_points = points_field(_("Points you claimed for your hand"), 29)
    their_points = points_field(_("Points your opponent claimed for their hand"), 29)
    crib_points = points_field(_("Points claimed for the crib"), 29)

    GROUPS = {"mine": HAND_SIZE, "theirs": HAND_SIZE, "crib": HAND_SIZE}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        labels = {
            "mine": _("Your hand, card %(n)s"),
            "theirs": _("Your opponent's hand, card %(n)s"),
        }
        for group in ("mine", "theirs"):
            for i in range(HAND_SIZE):
                self.fields[f"{group}_{i}"] = card_field(labels[group] % {"n": i + 1})
        # The crib's cards say who threw them: with each hand they are the six cards dealt,
        # which the discard review needs (a crib of four anonymous cards reviewed nothing).
        for i in range(DISCARDS):
            self.fields[f"crib_{i}"] = card_field(_("Crib, your discard %(n)s") % {"n": i + 1})
            self.fields[f"crib_{DISCARDS + i}"] = card_field(
                _("Crib, your opponent's discard %(n)s") % {"n": i + 1}
            )
        for i in range(PLAY_SIZE):
            self.fields[f"play_{i}"] = card_field(_("Pegging, card %(n)s laid") % {"n": i + 1})
            self.fields[f"peg_{i}"] = points_field(
                _("Points pegged with card %(n)s") % {"n": i + 1}, 31
            )
        # Errors from the engine, keyed by where they belong: "deal", "starter", "mine",
        # "theirs", "crib", "play" (the whole pegging), "play_3", "show".
        self.record_errors: dict[str, list[str]] = {}

    def group(self, name: str) -> list:
        """The bound fields of a group of cards (``mine``, ``theirs``, ``crib``, ``play``)."""
        size = PLAY_SIZE if name == "play" else self.GROUPS[name]
        return [self[f"{name}_{i}"] for i in range(size)]

    @property
    def mine_fields(self) -> list:
        """The reporting player's four cards."""
        return self.group("mine")

    @property
    def theirs_fields(self) -> list:
        """The opponent's four cards."""
        return self.group("theirs")

    @property
    def crib_fields(self) -> list:
        """The crib's four cards."""
        return self.group("crib")

    @property
    def card_groups(self) -> list[tuple]:
        """(fields, title, engine errors) of the two hands and the crib, for the template."""
        titles = {
            "mine": _("Your hand"),
            "theirs": _("Your opponent's hand"),
            "crib": _("Crib: your two discards, then your opponent's two"),
        }
        return [
            (self.group(name), titles[name], self.record_errors.get(name, []))
            for name in self.GROUPS
        ]

    @property
    def show_fields(self) -> list[tuple]:
        """(bound field, short title) of the three counts of the show."""
        return [
            (self["hand_points"], _("Your hand")),
            (self["their_points"], _("Their hand")),
            (self["crib_points"], _("Crib")),
        ]

    def pegging(self) -> list[tuple]:
        """(card field, points field, its errors) for each card laid, in order."""
        return [
            (self[f"play_{i}"], self[f"peg_{i}"], self.record_errors.get(f"play_{i}", []))
            for i in range(PLAY_SIZE)
        ]

    def cards(self, group: str) -> list[str]:
        """The cards filled in for a group, blanks left out."""
        data = self.cleaned_data
        size = PLAY_SIZE if group == "play" else self.GROUPS[group]
        return [data[f"{group}_{i}"].strip() for i in range(size) if data[f"{group}_{i}"].strip()]

    def is_blank(self) -> bool:
        """No card and no points filled in: the deal is left out of the record (a dealer
        alone does not count: the page fills it in for every deal it adds)."""
        return not any(
            value not in (None, "") for name, value in self.cleaned_data.items() if name != "dealer"
        )

    def add_record_error(self, where: str, message: str) -> None:
        """Show an engine's problem at ``where`` (see ``record_errors``)."""
        self.record_errors.setdefault(where, []).append(message)

    def to_deal(self) -> tuple[dict, list[int]]:
        """This deal in the record's format, and the pegging slot of each play event
        (the engine numbers the cards laid; blanks between them are skipped)."""
        data = self.cleaned_data
        mine, theirs = self.cards("mine"), self.cards("theirs")
        dealer = SEATS.get(data["dealer"])
        deal: dict = {
            "dealer": dealer,
            "hands": [mine, theirs],
            "crib": self.cards("crib"),
            "starter": data["starter"].strip(),
        }
        dealt = [self._dealt(mine, 0), self._dealt(theirs, DISCARDS)]
        if dealt != [None, None]:
            deal["dealt"] = dealt
        plays: list[dict] = []
        slots: list[int] = []
        for i in range(PLAY_SIZE):
            card = data[f"play_{i}"].strip()
            if not card:
                continue
            # Who laid it is who held it; a card in neither hand is given to the player whose
            # turn it would be, and the engine says it is not in their hand.
            if card in mine:
                by = 0
            elif card in theirs:
                by = 1
            else:
                by = ((dealer or 0) + 1 + len(plays)) % 2
            play = {"by": by, "card": card}
            if data[f"peg_{i}"] is not None:
                play["claim"] = data[f"peg_{i}"]
            plays.append(play)
            slots.append(i)
        deal["play"] = plays
        pone = 1 - dealer if dealer is not None else 1
        show = []
        for player, key in sorted(
            [(0, "hand_points"), (1, "their_points")], key=lambda p: p[0] != pone
        ):
            if data[key] is not None:
                show.append({"by": player, "claim": data[key]})
        if data["crib_points"] is not None and dealer is not None:
            show.append({"by": dealer, "crib": True, "claim": data["crib_points"]})
        deal["show"] = show
        return deal, slots

    def _dealt(self, hand: list[str], first: int) -> list[str] | None:
        """The six cards dealt to a player: their hand and their two discards (crib slots
        ``first`` and the next), or None (unknown) unless all six are filled in."""
        thrown = [self.cleaned_data[f"crib_{first + i}"].strip() for i in range(DISCARDS)]
        if len(hand) != HAND_SIZE or not all(thrown):
            return None
        return hand + thrown


class BaseDealFormSet(forms.BaseFormSet):
    """The deals of the record, in order; blank deals are left out."""

    def to_record(self, *, me: str, opponent: str, target: int, muggins: bool) -> dict | None:
        """The whole-game record (games/cribbage/README.md) of the filled-in deals, or None
        when no deal is filled in. Call after ``is_valid()``."""
        deals = []
        self.deal_forms: list[tuple[DealForm, list[int]]] = []
        for form in self.forms:
            if form.is_blank():
                continue
            deal, slots = form.to_deal()
            deals.append(deal)
            self.deal_forms.append((form, slots))
        if not deals:
            return None
        return {"target": target, "muggins": muggins, "players": [me, opponent], "deals": deals}

    def show_problems(self, problems: list[dict]) -> list[str]:
        """Put the engine's problems beside the deals and cards they concern, in words
        (by their stable code); returns those that belong to no deal."""
        elsewhere = []
        for problem in problems:
            d = problem.get("deal")
            if d is None or not 0 <= d < len(self.deal_forms):
                elsewhere.append(problem_message(problem, None))
                continue
            form, slots = self.deal_forms[d]
            where = _where(problem, slots)
            form.add_record_error(where, problem_message(problem, form, where))
        return elsewhere


def _where(problem: dict, slots: list[int]) -> str:
    """The place in a deal's form an engine problem points at."""
    phase, event = problem.get("phase"), problem.get("event")
    if phase == "hands":
        return "theirs" if event == 1 else "mine"
    if phase in {"crib", "starter"}:
        return phase
    if phase == "play":
        if (
            isinstance(event, int)
            and 0 <= event < len(slots)
            and problem["code"] != "cards_unplayed"
        ):
            return f"play_{slots[event]}"
        return "play"
    if phase == "show":
        return "show"
    return "deal"


DealFormSet = forms.formset_factory(
    DealForm, formset=BaseDealFormSet, extra=1, max_num=40, absolute_max=40, validate_max=True
)


IN_THE_FORMS_WORDS = {
    "malformed": _("This part of the deal is not filled in right."),
    "discard_mismatch": _("The hands do not match the cards dealt."),
    "wrong_dealer": _("The deal alternates: %(dealer)s dealt this one."),
    "card_not_in_hand": _("%(card)s is in neither hand."),
    "illegal_go": _("A go while a card could be laid."),
    "out_of_turn": _("%(card)s is laid out of turn."),
    "cards_unplayed": _("Put all eight cards in the pegging, in the order they were laid."),
    "result_mismatch": _("The record does not end with the result you report."),
}
"""The problems the record form puts in its own words: it speaks to one of the two players,
beside the cards they entered, where the engine's messages name players by number. Every
other problem is said as everywhere else (``engine_messages.cribbage.PROBLEM_MESSAGES``)."""


def problem_message(problem: dict, form: DealForm | None, where: str = "") -> str:
    """One of the engine's problems in the player's language, with its card or count
    (``where``: the place in the deal's form it is shown, see ``DealForm.record_errors``)."""
    code, phase = problem.get("code"), problem.get("phase")
    if form is not None and code == "malformed" and phase == "deals":
        return str(_("Say who dealt."))
    starter = form.cleaned_data.get("starter", "").strip() if form is not None else "x"
    if code == "bad_card" and phase == "starter" and not starter:
        return str(_("Choose the starter card."))
    params: dict = dict(problem.get("params") or {})
    params |= {"card": _card_of(problem), "dealer": ""}
    if form is not None:
        if code == "wrong_hand_size":
            group = {"hands": "theirs" if problem.get("event") == 1 else "mine"}.get(
                phase or "", "crib"
            )
            params["count"], params["expected"] = len(form.cards(group)), 4
        elif code == "wrong_dealer":
            # The engine expects the other player than the previous deal's dealer.
            params["dealer"] = (
                _("your opponent") if form.cleaned_data.get("dealer") == "me" else _("you")
            )
        elif where.startswith("play_"):
            params["card"] = card_label(form.cleaned_data[where].strip())
        elif code == "bad_card":
            params["card"] = _bad_card(form, phase, problem) or params["card"]
    if code == "bad_card":
        params["text"] = params["card"]
    own = IN_THE_FORMS_WORDS.get(code or "")
    if own is not None:
        return str(own) % params
    return describe_problem(code or "", params, str(IN_THE_FORMS_WORDS["malformed"]))


def _card_of(problem: dict) -> str:
    """The card an engine problem names (its ``params``: ``card``, or the ``text`` that is no
    card), shown with its suit sign."""
    params = problem.get("params") or {}
    token = str(params.get("card") or params.get("text") or "")
    try:
        return card_label(str(parse_card(token)))
    except CardError:
        return token or "?"


def _bad_card(form: DealForm, phase, problem: dict) -> str:
    """The value in a deal's form that is not a card (for ``bad_card``)."""
    groups = {"hands": ["theirs" if problem.get("event") == 1 else "mine"], "crib": ["crib"]}
    names = groups.get(phase, ["play"])
    for name in names:
        for value in form.cards(name):
            try:
                parse_card(value)
            except CardError:
                return value
    return ""


def card_label(card: str) -> str:
    """``10H`` as people write it: ``10♥``."""
    symbols = {letter: symbol for letter, symbol, _name in SUITS}
    return card[:-1] + symbols.get(card[-1:], card[-1:]) if card else card
