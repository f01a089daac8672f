"""The play (pegging): points for the card just laid on the current count."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .cards import Card, CardError, check_distinct, parse_cards
from .scoring import ScoreItem

_PAIR_KINDS = {2: ("pair", 2), 3: ("pair royal", 6), 4: ("double pair royal", 12)}


@dataclass(frozen=True, slots=True)
class PlayScore:
    """Points for the last card of a pile (the cards laid since the count was last reset)."""

    pile: tuple[Card, ...]
    count: int
    """The running count after the last card."""
    total: int
    items: tuple[ScoreItem, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form with cards as canonical text."""
        return {
            "pile": [str(card) for card in self.pile],
            "count": self.count,
            "total": self.total,
            "items": [item.to_dict() for item in self.items],
        }


def score_cards_played(pile: tuple[Card, ...], *, last: bool = False) -> PlayScore:
    """`score_play` for already parsed, distinct cards whose count is at most 31."""
    count = 0
    for card in pile:
        count += card.value
    items: list[ScoreItem] = []
    if count == 15:
        items.append(ScoreItem("fifteen", pile, 2))
    elif count == 31:
        items.append(ScoreItem("thirty-one", pile, 2))
    top = pile[-1]
    # Pairs: the cards of the same rank laid just before, without a break.
    same = 1
    while same < len(pile) and pile[-1 - same].rank == top.rank:
        same += 1
    if same >= 2:
        kind, points = _PAIR_KINDS[same]
        items.append(ScoreItem(kind, pile[-same:], points))
    else:
        # Runs: the longest tail of 3+ cards whose ranks are distinct and consecutive in some
        # order; a repeated rank in the tail breaks it (2-5-7-7-6 scores no run).
        for length in range(len(pile), 2, -1):
            tail = pile[-length:]
            ranks = {card.rank for card in tail}
            if len(ranks) == length and max(ranks) - min(ranks) == length - 1:
                items.append(ScoreItem("run", tail, length))
                break
    if last and count < 31:
        # The go, or the last card of the play: 1, but not on top of the 2 for thirty-one.
        items.append(ScoreItem("go", (top,), 1))
    total = 0
    for item in items:
        total += item.points
    return PlayScore(pile=pile, count=count, total=total, items=tuple(items))


def score_play(pile: str | Iterable[str | Card], *, last: bool = False) -> PlayScore:
    """Score the last card laid on the count: fifteen, thirty-one, pairs, runs.

    `pile` is every card laid since the count was last reset, in order. With `last=True` the
    card also ends the count (nobody can play on, or it is the last card of the play) and scores
    1 for the go, unless the count is 31 (2 for thirty-one, not 2 + 1).
    Raises `CardError` for a bad card, an empty pile, a card laid twice or a count over 31.
    """
    cards = tuple(parse_cards(pile))
    if not cards:
        raise CardError(
            "the pile is empty: give the cards laid since the count was reset", "empty_pile"
        )
    check_distinct(cards, "pile")
    count = sum(card.value for card in cards)
    if count > 31:
        raise CardError(
            f"the count passes 31 ({count}) when {cards[-1]} is laid",
            "pile_over_31",
            {"count": count, "card": cards[-1]},
        )
    return score_cards_played(cards, last=last)
