"""Reading one deal of a whole-game record: its fields, cards, hands, crib, starter and dealt cards.

Checks the cards are valid notation, of the right number and each used once, and that the
dealt cards (when known) hold the hand with the rest in the crib; every fault becomes a problem.
"""

from __future__ import annotations

from typing import Any

from .cards import Card, CardError, parse_card
from .game_state import Replay
from .multi import DEAL_SHAPES

HAND_SIZE = 4
DEALT_SIZE = {players: shape.dealt for players, shape in DEAL_SHAPES.items()}
"""Cards dealt to each player, by number of players."""


def as_index(value: Any, limit: int) -> int | None:
    """An int in 0..limit-1 (bools are not indices), else None."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < limit:
        return value
    return None


def as_claim(value: Any) -> int | bool | None:
    """A claim: None when absent, an int >= 0, or False when malformed."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return False


def parse_list(
    state: Replay, raw: Any, deal: int, phase: str, event: int | None, size: int | None
) -> list[Card] | None:
    """Parse a list of cards, reporting bad cards and a wrong size; None when unusable."""
    if not isinstance(raw, list):
        state.problem("malformed", f"{phase} must be a list of cards", deal, phase, event)
        return None
    cards: list[Card] = []
    ok = True
    for token in raw:
        try:
            cards.append(parse_card(token))
        except CardError as exc:
            state.problem("bad_card", str(exc), deal, phase, event, exc.params)
            ok = False
    if ok and size is not None and len(cards) != size:
        who = f"player {event}'s {phase}" if event is not None else phase
        state.problem(
            "wrong_hand_size",
            f"{who} has {len(cards)} cards, expected {size}",
            deal,
            phase,
            event,
            {"player": event, "what": phase, "count": len(cards), "expected": size},
        )
        ok = False
    return cards if ok else None


def setup_deal(
    state: Replay, d: int, deal: dict[str, Any]
) -> tuple[list[list[Card]], list[Card], Card] | None:
    """Check hands, crib, starter and dealt cards; None when the deal cannot be replayed."""
    n = state.n
    raw_hands = deal.get("hands")
    if not isinstance(raw_hands, list) or len(raw_hands) != n:
        state.problem("malformed", f"hands must list {n} hands, one per player", d, "hands")
        return None
    hands: list[list[Card]] = []
    ok = True
    for p, raw in enumerate(raw_hands):
        cards = parse_list(state, raw, d, "hands", p, HAND_SIZE)
        ok = ok and cards is not None
        hands.append(cards or [])
    crib = parse_list(state, deal.get("crib"), d, "crib", None, HAND_SIZE)
    starter: Card | None = None
    try:
        starter = parse_card(deal.get("starter"))  # type: ignore[arg-type]
    except CardError as exc:
        state.problem("bad_card", f"starter: {exc}", d, "starter", params=exc.params)
    if not ok or crib is None or starter is None:
        return None
    seen: dict[int, str] = {}
    duplicate = False
    places: list[tuple[str, str, int | None, list[Card]]] = [
        (f"player {p}'s hand", "hands", p, hand) for p, hand in enumerate(hands)
    ]
    places += [("the crib", "crib", None, crib), ("the starter", "starter", None, [starter])]
    for where, phase, event, cards in places:
        for card in cards:
            if card.index in seen:
                state.problem(
                    "card_twice",
                    f"{card} is in {seen[card.index]} and in {where}",
                    d,
                    phase,
                    event,
                    {"card": card},
                )
                duplicate = True
            else:
                seen[card.index] = where
    if duplicate:
        return None
    raw_dealt = deal.get("dealt")
    if raw_dealt is not None:
        check_dealt(state, d, raw_dealt, hands, crib)
    return hands, crib, starter


def check_dealt(
    state: Replay, d: int, raw_dealt: Any, hands: list[list[Card]], crib: list[Card]
) -> None:
    """The dealt cards (when known) must hold the hand, and the rest must be in the crib."""
    n = state.n
    if not isinstance(raw_dealt, list) or len(raw_dealt) != n:
        state.problem("malformed", f"dealt must list {n} entries (null when unknown)", d, "dealt")
        return
    crib_set = {card.index for card in crib}
    seen: set[int] = set()
    for p, raw in enumerate(raw_dealt):
        if raw is None:
            continue
        dealt = parse_list(state, raw, d, "dealt", p, DEALT_SIZE[n])
        if dealt is None:
            continue
        dealt_set = {card.index for card in dealt}
        for card in dealt:
            if card.index in seen or len(dealt_set) != len(dealt):
                state.problem(
                    "card_twice",
                    f"{card} is dealt twice",
                    d,
                    "dealt",
                    p,
                    {"card": card, "player": p},
                )
                break
        seen |= dealt_set
        for card in hands[p]:
            if card.index not in dealt_set:
                state.problem(
                    "discard_mismatch",
                    f"{card} is in player {p}'s hand but was not dealt to them",
                    d,
                    "dealt",
                    p,
                    {"card": card, "player": p},
                )
        held = {card.index for card in hands[p]}
        for card in dealt:
            if card.index not in held and card.index not in crib_set:
                state.problem(
                    "discard_mismatch",
                    f"{card} was discarded by player {p} but is not in the crib",
                    d,
                    "dealt",
                    p,
                    {"card": card, "player": p},
                )
