"""Cards: parsing every notation docs/rules/cribbage.md allows, and the canonical text form.

Each of the 52 cards exists once as a `Card` object; parsing returns those shared objects, so
parsing a hand allocates nothing but the list that holds it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

SUITS = "SHDC"
"""Suit letters in the order used for card indices (index = (rank - 1) * 4 + suit)."""

RANK_LABELS = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Canonical label for ranks 1..13 (A low, J Q K = 11 12 13)."""

JACK = 11

_SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
# A phone keyboard often sends the suit symbol followed by the emoji variation selector.
_VARIATION_SELECTORS = ("\ufe0f", "\ufe0e")


def plain_params(params: Mapping[str, Any] | None) -> dict[str, Any]:
    """``params`` made JSON-ready: text, numbers and None kept, anything else (a ``Card``) as
    its text."""
    if not params:
        return {}
    return {
        key: value if value is None or isinstance(value, (str, int, float)) else str(value)
        for key, value in params.items()
    }


class CribbageError(ValueError):
    """Input the engine refuses, with a stable ``code`` (README.md lists them), the English
    ``message`` (logs, the CLI) and the ``params`` the message names, so that a web layer can
    say it again in the user's language by the code."""

    default_code = "bad_input"

    def __init__(
        self, message: str, code: str | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.params: Mapping[str, Any] = plain_params(params)


class CardError(CribbageError):
    """A card, hand or pile that is not valid input; the message names the bad token."""

    default_code = "bad_card"


ERROR_CODES: dict[str, str] = {
    "bad_card": "text that is not a card (params: text)",
    "bad_rank": "a card rank outside 1..13 (params: rank)",
    "bad_suit": "a card suit other than S H D C (params: suit)",
    "bad_cards": "cards that are neither text nor a list (params: text)",
    "duplicate_card": "a card given twice (params: card, what: hand and starter, pile...)",
    "wrong_count": "a hand or crib not of 4 cards, a starter not of 1 (params: what, count),"
    " the cards dealt not 6 (2 players) or 5 (what: dealt, count, expected, players)",
    "empty_pile": "a pegging pile with no card",
    "pile_over_31": "a pegging pile whose count passes 31 (params: count, card)",
    "unknown_target": "a game length other than 121 or 61 (params: target, allowed)",
    "bad_loser_score": "a loser score that is not a whole number (params: score)",
    "loser_score_out_of_range": "a loser score outside 0..target-1 (params: score, top)",
    "unknown_claim_kind": "a claim kind other than hand, crib or play (params: kind)",
    "bad_claim_points": "claimed points not a whole number >= 0 (params: claimed)",
    "starter_missing": "a hand or crib claim without the starter (params: what)",
    "bad_player_count": "a game not of 2, 3 or 4 players (params: players)",
    "too_many_seen": "the discard advisor: so many cards seen that the crib and the starter"
    " cannot be filled (params: count, needed)",
    "wrong_score_count": "a table's final scores not one per side (params: players, count,"
    " expected)",
    "partners_differ": "four per-seat scores where partners differ (params: player, partner,"
    " score, partner_score)",
    "bad_table_score": "a table's score not a whole number >= 0 (params: side, score)",
    "score_past_target": "a table's score past the target (params: side, score, target)",
    "no_winner": "a table's final scores with no side on the target (params: target)",
    "several_winners": "a table's final scores with more than one side on the target"
    " (params: sides, target)",
}
"""Stable codes of `CribbageError` / `CardError` with their meaning; README.md lists them."""


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. `rank` is 1 (ace) to 13 (king); `suit` one of S H D C."""

    rank: int
    suit: str
    value: int = field(init=False, compare=False, repr=False)
    """Counting value: A = 1, 2-10 face value, J Q K = 10."""
    index: int = field(init=False, compare=False, repr=False)
    """0..51, (rank - 1) * 4 + suit position in `SUITS`; used by the table-driven scorer."""

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or not 1 <= self.rank <= 13:
            raise CardError(
                f"bad card rank {self.rank!r}: expected 1 (ace) to 13 (king)",
                "bad_rank",
                {"rank": repr(self.rank)},
            )
        if not isinstance(self.suit, str) or len(self.suit) != 1 or self.suit not in SUITS:
            raise CardError(
                f"bad card suit {self.suit!r}: expected one of S H D C",
                "bad_suit",
                {"suit": repr(self.suit)},
            )
        # frozen dataclass: derived fields are set once here, which is why object.__setattr__
        object.__setattr__(self, "value", min(self.rank, 10))
        object.__setattr__(self, "index", (self.rank - 1) * 4 + SUITS.index(self.suit))

    def __str__(self) -> str:
        return RANK_LABELS[self.rank] + self.suit

    @property
    def label(self) -> str:
        """Canonical text form, e.g. `10S`, `JD` (same as `str(card)`)."""
        return RANK_LABELS[self.rank] + self.suit


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(1, 14) for suit in SUITS)
"""All 52 cards, `DECK[card.index] is card`."""


def _canonical_table() -> dict[str, Card]:
    """Upper-case spellings: rank (`10` or `T` for ten) then suit letter or symbol."""
    rank_spellings: dict[int, tuple[str, ...]] = {r: (RANK_LABELS[r],) for r in range(1, 14)}
    rank_spellings[10] = ("10", "T")
    suit_spellings: dict[str, list[str]] = {s: [s] for s in SUITS}
    for symbol, letter in _SUIT_SYMBOLS.items():
        suit_spellings[letter].append(symbol)
    table: dict[str, Card] = {}
    for card in DECK:
        for rank_text in rank_spellings[card.rank]:
            for suit_text in suit_spellings[card.suit]:
                table[rank_text + suit_text] = card
    return table


_CANONICAL = _canonical_table()


def _letter_cases(text: str) -> list[str]:
    """``text`` with each ASCII letter in either case (``TS``, ``Ts``, ``tS``, ``ts``)."""
    spellings = [""]
    for char in text:
        cases = sorted({char, char.lower()}) if "A" <= char <= "Z" else [char]
        spellings = [done + case for done in spellings for case in cases]
    return spellings


def _known_spellings() -> dict[str, Card]:
    """Every spelling without stray spaces: `_CANONICAL` in any letter case, and each suit
    symbol also followed by a variation selector (as phone keyboards send it)."""
    table: dict[str, Card] = {}
    for text, card in _CANONICAL.items():
        for spelling in _letter_cases(text):
            table[spelling] = card
            if spelling[-1] in _SUIT_SYMBOLS:
                for selector in _VARIATION_SELECTORS:
                    table[spelling + selector] = card
    return table


_LOOKUP = _known_spellings()
"""Card text to its shared `Card`: the spellings above, then every other text that parsed (with
spaces around, a selector elsewhere...), remembered up to `_LOOKUP_LIMIT` entries so that a
client sending the same odd spelling pays the careful parse once."""
_LOOKUP_LIMIT = len(_LOOKUP) + 4096
_REMEMBERED_TEXT = 24  # longer texts are parsed each time rather than kept


_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
MAX_CARD_TEXT = 8  # "10♠" plus a variation selector; anything longer is no card


def _parse_slowly(text: str) -> Card | None:
    """The careful parse, without the table of known spellings: strip, cut, upper-case ASCII,
    drop variation selectors. The tests check every entry of that table against this."""
    token = text.strip()[:MAX_CARD_TEXT]
    # Upper-case ASCII letters only, on purpose: str.upper() turns the long s (U+017F) into S.
    cleaned = token.translate(_ASCII_UPPER)
    for selector in _VARIATION_SELECTORS:
        cleaned = cleaned.replace(selector, "")
    return _CANONICAL.get(cleaned)


def parse_card(text: str | Card) -> Card:
    """Parse one card: rank then suit, case-insensitive (`5H`, `10S`, `TS`, `jd`, `5♥`).

    A `Card` is returned unchanged. Anything else raises `CardError` naming the token.
    """
    if type(text) is str:
        card = _LOOKUP.get(text)
        if card is not None:
            return card
    elif isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise CardError(
            f"bad card {text!r}: expected text such as 5H, 10S, TS, JD or 5♥",
            "bad_card",
            {"text": repr(text)[:40]},
        )
    card = _parse_slowly(text)
    if card is None:
        raise CardError(
            f"bad card {text!r}: expected rank (A 2-10 T J Q K) then suit (S H D C ♠ ♥ ♦ ♣),"
            " e.g. 5H, 10S, TS, JD, 5♥",
            "bad_card",
            {"text": text},
        )
    if type(text) is str and len(text) <= _REMEMBERED_TEXT and len(_LOOKUP) < _LOOKUP_LIMIT:
        _LOOKUP[text] = card
    return card


def parse_cards(cards: str | Card | Iterable[str | Card]) -> list[Card]:
    """Parse several cards: a string separated by spaces or commas, or a list of cards/strings.

    Duplicates are not rejected here (callers that need distinct cards check that).
    """
    if type(cards) is list or type(cards) is tuple:
        # The common case, kept cheap: a list of Card objects or known spellings. Anything
        # unusual (a bad token, stray spaces) falls through to the careful path below.
        try:
            return [card if type(card) is Card else _LOOKUP[card] for card in cards]
        except (KeyError, TypeError):
            pass
    if isinstance(cards, Card):
        return [cards]
    if isinstance(cards, str):
        tokens: Iterable[str | Card] = cards.replace(",", " ").split()
    else:
        try:
            tokens = list(cards)
        except TypeError:
            raise CardError(
                f"bad cards {cards!r}: expected a list of cards or a string",
                "bad_cards",
                {"text": repr(cards)[:40]},
            ) from None
    return [parse_card(token) for token in tokens]


def check_distinct(cards: Iterable[Card], what: str = "cards") -> None:
    """Raise `CardError` naming the first card that appears twice (`what`: stable words,
    `hand and starter`, `crib and starter`, `pile` or `cards`, passed on in the params)."""
    seen: set[int] = set()
    for card in cards:
        if card.index in seen:
            raise CardError(
                f"card {card} appears twice in the {what}",
                "duplicate_card",
                {"card": card, "what": what},
            )
        seen.add(card.index)


def cards_text(cards: Iterable[Card]) -> str:
    """Cards in canonical form separated by spaces, e.g. `5H JD`."""
    return " ".join(str(card) for card in cards)
