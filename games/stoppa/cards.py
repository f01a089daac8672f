"""Cards of the 40-card Italian deck, their notation and their points.

Notation (stoppa.md section 1): rank then suit, e.g. ``7d``, ``Kc``, ``Ns``. Ranks ``A 2-7 J N K``
(Fante, Cavallo, Re); suits ``d c s b`` (denari, coppe, spade, bastoni). On input, case-insensitive,
``F`` = J, ``C`` = N (rank position only), ``R`` = K, ``1`` = A, and Italian (or English) names such
as ``"sette di denari"`` or ``"Re di coppe"`` are accepted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .errors import StoppaError

# Stop-phase order, low to high; suits play no part there.
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "J", "N", "K")
SUITS: tuple[str, ...] = ("d", "c", "s", "b")
FIGURES: frozenset[str] = frozenset({"J", "N", "K"})

RANK_INDEX: dict[str, int] = {r: i for i, r in enumerate(RANKS)}
SUIT_INDEX: dict[str, int] = {s: i for i, s in enumerate(SUITS)}

# Primiera points (stoppa.md section 1): a table, so evaluation never recomputes them.
RANK_POINTS: dict[str, int] = {
    "7": 21,
    "6": 18,
    "A": 16,
    "5": 15,
    "4": 14,
    "3": 13,
    "2": 12,
    "J": 10,
    "N": 10,
    "K": 10,
}

SUIT_NAMES_IT: dict[str, str] = {"d": "denari", "c": "coppe", "s": "spade", "b": "bastoni"}
SUIT_NAMES_EN: dict[str, str] = {"d": "coins", "c": "cups", "s": "swords", "b": "clubs"}
RANK_NAMES_IT: dict[str, str] = {
    "A": "asso",
    "2": "due",
    "3": "tre",
    "4": "quattro",
    "5": "cinque",
    "6": "sei",
    "7": "sette",
    "J": "fante",
    "N": "cavallo",
    "K": "re",
}


@dataclass(frozen=True, slots=True)
class Card:
    """One card: ``rank`` in ``RANKS`` and ``suit`` in ``SUITS``. Compare by value."""

    rank: str
    suit: str

    @property
    def points(self) -> int:
        """Primiera points of the card (7 = 21 ... figures 10)."""
        return RANK_POINTS[self.rank]

    @property
    def is_figure(self) -> bool:
        """True for Fante, Cavallo and Re."""
        return self.rank in FIGURES

    @property
    def text(self) -> str:
        """Canonical notation, e.g. ``7d``."""
        return self.rank + self.suit

    @property
    def name_it(self) -> str:
        """Italian name, e.g. ``sette di denari``."""
        return f"{RANK_NAMES_IT[self.rank]} di {SUIT_NAMES_IT[self.suit]}"

    @property
    def sort_key(self) -> int:
        """Position in the deck: by stop-phase rank, then suit d c s b."""
        return RANK_INDEX[self.rank] * 4 + SUIT_INDEX[self.suit]

    def __str__(self) -> str:
        return self.rank + self.suit

    def __repr__(self) -> str:
        return f"Card({self.rank + self.suit!r})"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "card": self.text,
            "rank": self.rank,
            "suit": self.suit,
            "points": self.points,
            "name": self.name_it,
        }


# All 40 cards, built once; parse_card hands out these instances.
FULL_DECK: tuple[Card, ...] = tuple(Card(r, s) for r in RANKS for s in SUITS)

_RANK_ALIASES: dict[str, str] = {r.lower(): r for r in RANKS}
_RANK_ALIASES.update({"f": "J", "c": "N", "r": "K", "1": "A"})
_SUIT_ALIASES: dict[str, str] = {s: s for s in SUITS}

_BY_TEXT: dict[str, Card] = {}
for _r_alias, _r in _RANK_ALIASES.items():
    for _s in SUITS:
        _BY_TEXT[_r_alias + _s] = Card(_r, _s)

# Names in words: Italian (singular and plural suits) and English, for typed input.
_RANK_WORDS: dict[str, str] = {v: k for k, v in RANK_NAMES_IT.items()}
_RANK_WORDS.update(
    {
        "ace": "A",
        "two": "2",
        "three": "3",
        "four": "4",
        "five": "5",
        "six": "6",
        "seven": "7",
        "jack": "J",
        "knave": "J",
        "knight": "N",
        "horse": "N",
        "king": "K",
        "donna": "J",
    }
)
_RANK_WORDS.update({k: v for k, v in _RANK_ALIASES.items()})
_SUIT_WORDS: dict[str, str] = {
    "denari": "d",
    "denaro": "d",
    "ori": "d",
    "oro": "d",
    "coins": "d",
    "coin": "d",
    "coppe": "c",
    "coppa": "c",
    "cups": "c",
    "cup": "c",
    "spade": "s",
    "spada": "s",
    "swords": "s",
    "sword": "s",
    "bastoni": "b",
    "bastone": "b",
    "clubs": "b",
    "club": "b",
    "batons": "b",
}
# Card text is read as ASCII on purpose: str.lower() would turn the Kelvin sign into "k" and
# accept it as a Re. Lengths are capped so no input can make parsing slow.
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
MAX_CARD_TEXT = 40  # "cavallo di bastoni" and friends fit with room to spare
MAX_CARDS_TEXT = 2_000  # a whole deal's cards, named in full
MAX_CARDS = 80  # twice the deck: enough for any input that is not garbage


def _card_words(key: str) -> tuple[str, str] | None:
    """``("sette", "denari")`` from "sette di denari", "sette denari" or "sette d'oro"."""
    words = key.split()
    if len(words) == 3 and words[1] in ("di", "de", "of"):
        return words[0], words[2]
    if len(words) == 2:
        return words[0], words[1].removeprefix("d'")
    return None


def parse_card(text: str | Card) -> Card:
    """Read one card in the short notation (``7d``, ``Kc``, ``Ns``, ``Fd``, ``Rc``, ``1b``) or
    by name (``"sette di denari"``, ``"Re di coppe"``, ``"ace of coins"``).

    Raises ``StoppaError('bad_card')`` for anything else, including ranks 8, 9 and 10.
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise StoppaError(
            "bad_card", f"a card must be text such as '7d', got {text!r:.40}", params={"text": text}
        )
    key = text.strip().translate(_ASCII_LOWER)
    card = _BY_TEXT.get(key)
    if card is not None:
        return card
    words = _card_words(key) if len(key) <= MAX_CARD_TEXT and key.isascii() else None
    if words is not None:
        rank = _RANK_WORDS.get(words[0])
        suit = _SUIT_WORDS.get(words[1]) or _SUIT_ALIASES.get(words[1])
        if rank is not None and suit is not None:
            return _BY_TEXT[rank.lower() + suit]
    raise StoppaError(
        "bad_card",
        f"{text[:MAX_CARD_TEXT]!r} is not a card: write rank A 2-7 J N K (or F C R 1) then suit "
        "d c s b, e.g. '7d', or the Italian name, e.g. 'sette di denari'",
        params={"text": text[:MAX_CARD_TEXT]},
    )


_SPLIT_RE = re.compile(r"[\s,;|]+")
_NAME_RE = re.compile(r"\s+(?:di|de|of)\s+", re.IGNORECASE)


def parse_cards(
    cards: str | Iterable[str | Card], *, allow_duplicates: bool = False
) -> tuple[Card, ...]:
    """Read several cards: a list, or one string separated by spaces or commas
    (``"Kc Jc 3c"``, ``"re di coppe, fante di coppe"``).

    Raises ``bad_card``, and ``duplicate_card`` when a card appears twice.
    """
    items: list[str | Card]
    if isinstance(cards, str) and len(cards) > MAX_CARDS_TEXT:
        raise StoppaError(
            "bad_card",
            f"{len(cards)} characters is far too long for a hand",
            params={"length": len(cards)},
        )
    if isinstance(cards, str):
        if "," in cards or ";" in cards:
            items = [p for p in re.split(r"[,;]", cards) if p.strip()]
        elif _NAME_RE.search(cards):
            # "sette di denari re di coppe": cut after each suit word.
            items = [" ".join(w) for w in _group_names(cards.split())]
        else:
            items = [p for p in _SPLIT_RE.split(cards) if p]
    elif isinstance(cards, (list, tuple)):
        items = list(cards)
    else:
        raise StoppaError(
            "bad_card",
            f"cards must be text or a list of cards, got {type(cards).__name__}",
            params={"type": type(cards).__name__},
        )
    if len(items) > MAX_CARDS:
        raise StoppaError(
            "bad_card",
            f"{len(items)} cards is more than any hand holds",
            params={"count": len(items)},
        )
    out = tuple(parse_card(c) for c in items)
    if not allow_duplicates and len(set(out)) != len(out):
        seen: set[Card] = set()
        for c in out:
            if c in seen:
                raise StoppaError("duplicate_card", f"card {c} appears twice", params={"card": c})
            seen.add(c)
    return out


def _group_names(words: list[str]) -> list[list[str]]:
    groups: list[list[str]] = []
    cur: list[str] = []
    for w in words:
        cur.append(w)
        if w.lower() in _SUIT_WORDS:
            groups.append(cur)
            cur = []
    if cur:
        groups.append(cur)
    return groups


def cards_text(cards: Iterable[Card]) -> str:
    """Cards in canonical notation, space separated."""
    return " ".join(c.text for c in cards)
