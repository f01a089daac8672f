"""Random but legal deal records, for tests, demos and the deal checker's examples.

``random_record`` deals a shuffled deck, makes plausible bets, declares what qualifies and plays
the stop phase out, then fills in the claims (winners, closer, payments, nets) as computed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .cards import cards_text
from .deck import deal_by_ones, deck_info, next_dealer, priority_order
from .game import settle_game
from .settings import Settings
from .stop import DECLARATIONS, qualifies, simulate_stop


def _random_contest(order: Sequence[str], rng: random.Random, max_bet: int) -> dict[str, Any]:
    if rng.random() < 0.25:
        return {"contributions": {}, "showdown": []}
    top = rng.randint(1, max_bet)
    players = list(order)
    shown = rng.sample(players, rng.randint(1, len(players)))
    contributions = {p: top for p in shown}
    if top > 1:
        for p in players:
            if p not in shown and rng.random() < 0.3:
                contributions[p] = rng.randint(1, top - 1)  # bet, then folded to a raise
    return {"contributions": contributions, "showdown": shown}


def random_record(
    players: Sequence[str],
    dealer: str,
    rng: random.Random,
    settings: Settings | None = None,
    removed_king: str | None = None,
    *,
    declare: bool = True,
    max_bet: int = 6,
) -> dict[str, Any]:
    """A complete, valid deal record with its claims filled in (``verify_deal`` accepts it)."""
    settings = settings or Settings()
    n = len(players)
    if n == 3 and removed_king is None:
        removed_king = "K" + rng.choice("dcsb")
    info = deck_info(n, removed_king)
    order = priority_order(players, dealer)
    deck = list(info.cards)
    rng.shuffle(deck)
    iterations = deal_by_ones(info, order, deck)
    hands = {p: tuple(c for it in iterations for c in it[p]) for p in order}
    record: dict[str, Any] = {
        "version": 1,
        "players": list(players),
        "dealer": dealer,
        "settings": settings.to_dict(),
        "deal": {"iterations": [{p: cards_text(it[p]) for p in order} for it in iterations]},
        "piccoli": [_random_contest(order, rng, max_bet) for _ in info.schedule],
        "grosso": _random_contest(order, rng, max_bet * 3),
        "declarations": [],
    }
    if removed_king is not None:
        record["removed_king"] = removed_king
    if declare:
        for p in order:
            for kind in DECLARATIONS:
                if qualifies(
                    kind, hands[p], top_rank=info.top_rank, no_stop_rule=settings.no_stop_rule
                ):
                    record["declarations"].append({"player": p, "kind": kind})
    if not record["declarations"]:
        log, result = simulate_stop(order, hands, rng)
        record["stop"] = {"log": log, "closer": result.closer}
    settled = settle_game(record)
    for contest, outcome in zip(
        record["piccoli"] + [record["grosso"]], settled.contests, strict=True
    ):
        contest["winner"] = outcome.winner
    if "stop" in record:
        record["stop"]["payments"] = dict(settled.stop_payments)
    record["nets"] = dict(settled.nets)
    return record


def random_session(
    players: Sequence[str], first_dealer: str, rng: random.Random, settings: Settings | None = None
) -> list[dict[str, Any]]:
    """One giro: ``len(players)`` deals, the deal passing to the player who was di mano."""
    out = []
    dealer = first_dealer
    for _ in players:
        out.append(random_record(players, dealer, rng, settings))
        dealer = next_dealer(players, dealer)
    return out
