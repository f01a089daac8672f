"""Counting the show of one deal: each hand from the dealer's left round to him, then the crib.

A count the record omits is still scored (at its true points); counts listed out of that order
are a `show_order` warning.
"""

from __future__ import annotations

from typing import Any

from .cards import Card
from .game_deal import as_claim, as_index
from .game_state import GameOver, Replay
from .hand import score_hand


def replay_show(
    state: Replay,
    d: int,
    dealer: int,
    shows: Any,
    hands: list[list[Card]],
    crib: list[Card],
    starter: Card,
) -> None:
    """Count the hands from the dealer's left round to the dealer, then the crib."""
    n = state.n
    claims: dict[tuple[int, bool], tuple[int, int | None]] = {}
    listed: list[tuple[int, bool]] = []
    if shows is None:
        shows = []
    if not isinstance(shows, list):
        state.problem("malformed", "show must be a list of counts", d, "show")
        shows = []
    for j, entry in enumerate(shows):
        is_crib = isinstance(entry, dict) and entry.get("crib", False) is True
        by = (
            as_index(entry.get("by", dealer if is_crib else None), n)
            if isinstance(entry, dict)
            else None
        )
        claim = as_claim(entry.get("claim")) if isinstance(entry, dict) else False
        if by is None or claim is False or (is_crib and by != dealer):
            state.problem(
                "malformed",
                "a show entry needs by (player index; the dealer for the"
                " crib), optional crib: true, and claim (points >= 0)",
                d,
                "show",
                j,
            )
            continue
        assert claim is not False
        key = (by, is_crib)
        if key in claims:
            state.problem("malformed", "the same hand is counted twice", d, "show", j)
            continue
        claims[key] = (j, claim)
        listed.append(key)
    order = [((dealer + k) % n, False) for k in range(1, n + 1)] + [(dealer, True)]
    if listed != [key for key in order if key in claims]:
        state.problem(
            "show_order",
            "the show is counted from the dealer's left round to the"
            " dealer, then the crib; the counts were scored in that order",
            d,
            "show",
        )
    for position, (player, is_crib) in enumerate(order):
        index, claim = claims.get((player, is_crib), (None, None))
        cards = crib if is_crib else hands[player]
        score = score_hand(cards, starter, crib=is_crib)
        try:
            state.score_event(
                d,
                "show",
                index,
                player,
                "crib" if is_crib else "hand",
                score.total,
                claim,
                score.items,
            )
        except GameOver:
            later = [claims[key][0] for key in order[position + 1 :] if key in claims]
            if later:
                state.after = ("show", min(later))
            raise
