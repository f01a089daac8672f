"""Hand values of the punto piccolo and the punto grosso, and who wins (stoppa.md section 4).

Both phases compare the key ``(count, points)``, higher is better; equal keys go to the player
earlier in priority. Ranks never break ties (J, N and K are all worth 10).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .cards import SUITS, Card, parse_cards
from .errors import StoppaError

P = TypeVar("P", bound=Hashable)

# Why a player lost to the winner: code -> the words the pages show.
REASONS: dict[str, str] = {
    "count": "fewer cards of one suit",
    "points": "lower points",
    "priority": "later in priority",
}


@dataclass(frozen=True, slots=True)
class Eval:
    """The value of a hand: ``count`` cards of ``suit`` worth ``points``; ``cards`` are them,
    highest points first."""

    count: int
    points: int
    suit: str
    cards: tuple[Card, ...]

    @property
    def key(self) -> tuple[int, int]:
        """The comparison key, higher is better."""
        return (self.count, self.points)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "count": self.count,
            "points": self.points,
            "suit": self.suit,
            "cards": [c.text for c in self.cards],
        }


def _card_order(c: Card) -> tuple[int, int]:
    # Highest points first; then deck order so equal points list the same way every time.
    return (-c.points, c.sort_key)


def _groups(cards: Iterable[str | Card]) -> dict[str, list[Card]]:
    parsed = parse_cards(cards)
    if not parsed:
        raise StoppaError("empty_hand", "a hand needs at least one card")
    by_suit: dict[str, list[Card]] = {}
    for c in parsed:
        by_suit.setdefault(c.suit, []).append(c)
    return by_suit


def _best(by_suit: dict[str, list[Card]], cap: int | None) -> Eval:
    best: Eval | None = None
    # Suits in d c s b order and a strict '>' so a tie between suits always reports the same one.
    for suit in SUITS:
        group = by_suit.get(suit)
        if not group:
            continue
        group = sorted(group, key=_card_order)
        if cap is not None:
            group = group[:cap]
        ev = Eval(len(group), sum(c.points for c in group), suit, tuple(group))
        if best is None or ev.key > best.key:
            best = ev
    assert best is not None
    return best


def piccolo_eval(cards: Iterable[str | Card]) -> Eval:
    """Punto piccolo value of the cards of **one iteration** (3, 2 or 1 cards): the suit with the
    most cards, then the highest points. The odd card beside a pair is never added.

    >>> piccolo_eval("Kc Jc 3c").key
    (3, 33)
    """
    return _best(_groups(cards), None)


def grosso_eval(cards: Iterable[str | Card]) -> Eval:
    """Punto grosso value of **every card received**: for each suit its (up to) three best cards,
    count capped at 3, so any trio beats any pair and five cups do not beat three coins by count.

    >>> grosso_eval("6d 7s Ab 5d 4d 7c Ac Kc").key
    (3, 47)
    """
    return _best(_groups(cards), 3)


def _evals_for(contestants: Sequence[P], evals: Mapping[P, Eval] | Sequence[Eval]) -> list[Eval]:
    if isinstance(evals, Mapping):
        missing = [p for p in contestants if p not in evals]
        if missing:
            raise StoppaError(
                "bad_record", f"no hand value for {missing[0]!r}", params={"player": missing[0]}
            )
        return [evals[p] for p in contestants]
    if len(evals) != len(contestants):
        raise StoppaError("bad_record", "one hand value per contestant is needed")
    return list(evals)


def pick_winner(
    contestants_in_priority_order: Sequence[P], evals: Mapping[P, Eval] | Sequence[Eval]
) -> tuple[P, str]:
    """The winner among the contestants (listed in priority order) and what decided it:
    ``count`` (most cards of one suit), ``points``, or ``priority`` (earliest of the tied).

    ``evals`` maps contestant -> Eval, or lists them in the contestants' order.
    """
    players = list(contestants_in_priority_order)
    if not players:
        raise StoppaError("no_showdown", "nobody to compare")
    if len(set(players)) != len(players):
        raise StoppaError("duplicate_player", "a contestant is listed twice")
    values = _evals_for(players, evals)
    maxc = max(v.count for v in values)
    top = [i for i, v in enumerate(values) if v.count == maxc]
    if len(top) == 1:
        return players[top[0]], "count"
    maxp = max(values[i].points for i in top)
    top = [i for i in top if values[i].points == maxp]
    if len(top) == 1:
        return players[top[0]], "points"
    return players[top[0]], "priority"


@dataclass(frozen=True, slots=True)
class Standing:
    """One contestant's place: ``place`` 1 is the winner; ``reason`` says why he lost to the
    winner (empty for the winner) and ``reason_code`` is ``count``, ``points`` or ``priority``."""

    player: Any
    place: int
    eval: Eval
    reason_code: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "player": self.player,
            "place": self.place,
            "eval": self.eval.to_dict(),
            "reason_code": self.reason_code,
            "reason": self.reason,
        }


def rank_players(
    contestants_in_priority_order: Sequence[P], evals: Mapping[P, Eval] | Sequence[Eval]
) -> tuple[Standing, ...]:
    """All contestants best first, each loser with the reason he lost to the winner.

    The order is strict and total: ``(count, points)`` descending, then priority.
    """
    players = list(contestants_in_priority_order)
    if not players:
        return ()
    values = _evals_for(players, evals)
    ranked = sorted(range(len(players)), key=lambda i: (-values[i].count, -values[i].points, i))
    win = values[ranked[0]]
    out: list[Standing] = []
    for place, i in enumerate(ranked, start=1):
        v = values[i]
        if place == 1:
            code = ""
        elif v.count < win.count:
            code = "count"
        elif v.points < win.points:
            code = "points"
        else:
            code = "priority"
        out.append(Standing(players[i], place, v, code, REASONS.get(code, "")))
    return tuple(out)
