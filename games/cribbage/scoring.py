"""Score items and the text form of a breakdown, shared by the show and the play."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from .cards import Card, cards_text

# How each kind of score is announced ("15 for 2", "pair royal for 6", "run of 4 for 4").
_LABELS = {
    "fifteen": "15",
    "thirty-one": "31",
    "pair": "pair",
    "pair royal": "pair royal",
    "double pair royal": "double pair royal",
    "flush": "flush",
    "nobs": "nobs",
    "go": "go",
    "his heels": "his heels",
}


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its kind, the cards that make it, and its points."""

    kind: str
    """`fifteen`, `pair`, `run`, `flush`, `nobs` in the show; in the play also `thirty-one`,
    `pair royal`, `double pair royal`, `go` (1 for the go or last card); `his heels`."""
    cards: tuple[Card, ...]
    points: int

    @property
    def label(self) -> str:
        """The announcement without points: `15`, `pair`, `run of 3`, `flush`, `nobs`."""
        if self.kind == "run":
            return f"run of {len(self.cards)}"
        return _LABELS.get(self.kind, self.kind)

    @property
    def text(self) -> str:
        """One line for a page or terminal, e.g. `15 for 2: 5H JD`."""
        return f"{self.label} for {self.points}: {cards_text(self.cards)}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: kind, label, cards (canonical text), points, text."""
        return {
            "kind": self.kind,
            "label": self.label,
            "cards": [str(card) for card in self.cards],
            "points": self.points,
            "text": self.text,
        }


def unfrozen(cls: type) -> type:
    """A class with the slots of the frozen, slotted dataclass ``cls`` and nothing else.

    Hands are scored by the million, and a frozen dataclass's __init__ sets each field through
    object.__setattr__. The hot paths instead fill in an instance of this class with plain
    attribute stores, then make it a ``cls`` by assigning ``__class__`` (Python allows it
    between classes of one layout): a true ``cls`` instance, equal and frozen as any other.
    """
    return type(f"Unfrozen{cls.__name__}", (), {"__slots__": vars(cls)["__slots__"]})


_new = object.__new__
_UnfrozenItem = unfrozen(ScoreItem)


def make_item(kind: str, cards: tuple[Card, ...], points: int) -> ScoreItem:
    """Same as `ScoreItem(kind, cards, points)`, about three times as fast (see `unfrozen`)."""
    item: Any = _new(_UnfrozenItem)
    item.kind = kind
    item.cards = cards
    item.points = points
    item.__class__ = ScoreItem
    built: ScoreItem = item
    return built


class _Scored(Protocol):
    @property
    def items(self) -> tuple[ScoreItem, ...]: ...

    @property
    def total(self) -> int: ...


def format_breakdown(score: _Scored) -> list[str]:
    """Lines for a `HandScore` or `PlayScore`: one per item, then `total N`.

    >>> format_breakdown(score_hand("5H 5C 5S JD", "5D"))[0]
    '15 for 2: 5H JD'
    """
    lines = [item.text for item in score.items]
    lines.append(f"total {score.total}")
    return lines
