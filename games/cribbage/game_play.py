"""Replaying the play (pegging) of one deal: turns, goes, the count to 31 and the points pegged."""

from __future__ import annotations

from typing import Any

from .cards import Card, CardError, parse_card
from .game_deal import as_claim, as_index
from .game_state import GameOver, Replay
from .play import score_cards_played


def replay_play(state: Replay, d: int, dealer: int, plays: Any, hands: list[list[Card]]) -> None:
    """Replay the pegging of one deal."""
    n = state.n
    if plays is None:
        plays = []
    if not isinstance(plays, list):
        state.problem("malformed", "play must be a list of events", d, "play")
        return
    remaining = [list(hand) for hand in hands]
    played: set[int] = set()
    count = 0
    pile: list[Card] = []
    turn = (dealer + 1) % n

    def can_play(p: int) -> bool:
        room = 31 - count
        return any(card.value <= room for card in remaining[p])

    def walk_to(q: int) -> int:
        """From `turn`, skip players who cannot lay a card (an implied go) until reaching q or
        a player who can play; returns the player reached."""
        p = turn
        for _ in range(n):
            if p == q or can_play(p):
                return p
            p = (p + 1) % n
        return q

    for j, event in enumerate(plays):
        if not isinstance(event, dict):
            state.problem("malformed", "a play event must be an object", d, "play", j)
            continue
        q = as_index(event.get("by"), n)
        claim = as_claim(event.get("claim"))
        raw_card = event.get("card")
        if q is None or claim is False or not isinstance(raw_card, str):
            state.problem(
                "malformed",
                "a play event needs by (player index), card (a card or"
                ' "go") and an optional claim (points >= 0)',
                d,
                "play",
                j,
            )
            continue
        assert claim is not False  # narrowed above; keeps the type checker precise
        if raw_card.strip().lower() == "go":
            if can_play(q):
                state.problem(
                    "illegal_go",
                    f"player {q} said go at count {count} but could lay a card",
                    d,
                    "play",
                    j,
                    {"player": q, "count": count},
                )
            elif walk_to(q) != q:
                state.problem(
                    "out_of_turn",
                    f"player {q} said go when it was player {walk_to(q)}'s turn",
                    d,
                    "play",
                    j,
                    {"player": q, "card": "go", "expected": walk_to(q)},
                )
            turn = (q + 1) % n
            state.score_event(d, "play", j, q, "go", 0, claim, (), count)  # 0 points: no stop
            continue
        try:
            card = parse_card(raw_card)
        except CardError as exc:
            state.problem("bad_card", str(exc), d, "play", j, exc.params)
            continue
        if card not in remaining[q]:
            if card.index in played:
                state.problem(
                    "card_twice", f"{card} was already played", d, "play", j, {"card": card}
                )
            else:
                state.problem(
                    "card_not_in_hand",
                    f"player {q} does not hold {card}",
                    d,
                    "play",
                    j,
                    {"player": q, "card": card},
                )
            continue
        if count + card.value > 31:
            state.problem(
                "past_31",
                f"{card} takes the count from {count} to {count + card.value}",
                d,
                "play",
                j,
                {"card": card, "count": count, "new_count": count + card.value},
            )
            continue
        expected = walk_to(q)
        if expected != q:
            state.problem(
                "out_of_turn",
                f"player {q} played {card} when it was player {expected}'s turn",
                d,
                "play",
                j,
                {"player": q, "card": card, "expected": expected},
            )
        remaining[q].remove(card)
        played.add(card.index)
        pile.append(card)
        count += card.value
        # The count ends at 31, or when nobody (the player included) can lay another card:
        # then this card takes the go (or last card), and play resumes after this player.
        closes = count == 31 or not any(can_play(p) for p in range(n))
        score = score_cards_played(tuple(pile), last=closes)
        turn = (q + 1) % n
        at_count = count
        if closes:
            count = 0
            pile = []
        try:
            state.score_event(d, "play", j, q, str(card), score.total, claim, score.items, at_count)
        except GameOver:
            if j + 1 < len(plays):
                state.after = ("play", j + 1)
            raise
    left = [p for p in range(n) if remaining[p]]
    if left:
        state.problem(
            "cards_unplayed",
            "the play ends with cards still held by player(s) " + ", ".join(str(p) for p in left),
            d,
            "play",
            len(plays),
            {"players": ", ".join(str(p) for p in left)},
        )
