"""The Stoppa checker shared by the deal-checker page, the API and ``manage.py stoppa``: who
wins a punto piccolo or the punto grosso and why, and a stop phase replayed or played out.

Pure Python like the rest of the engine. Problems raise :class:`StoppaError` with a stable
code and ``where`` naming the input (``hands.1.cards``, ``log.3``), so each face reports them
in its own way (an HTTP 400 with ``attr``, a form error, a ``CommandError``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .cards import Card, parse_cards
from .deck import deck_info
from .errors import StoppaError
from .evaluation import grosso_eval, piccolo_eval, pick_winner, rank_players
from .stop import replay_stop, simulate_stop, stop_payments

__all__ = ["DEFAULT_NAMES", "HandInput", "compare_contest", "engine_attr", "run_stop"]

HandInput = tuple[str | None, Any]  # (player name or None, cards as text or a list)

DEFAULT_NAMES = ("A", "B", "C", "D", "E", "F")


def _cards_of(player: str, cards: Any, where: str) -> tuple[Card, ...]:
    try:
        parsed = parse_cards(cards)
    except StoppaError as exc:
        raise StoppaError(
            exc.code, f"{player}: {exc.message}", where, {"player": player, **exc.params}
        ) from None
    if not parsed:
        raise StoppaError("empty_hand", f"{player} has no cards", where, params={"player": player})
    return parsed


def _hands(
    hands: Sequence[HandInput], *, table_size: int | None = None, removed_king: str | None = None
) -> tuple[dict[str, tuple[Card, ...]], Any]:
    """Names and parsed cards in priority order, and the deck in use (None without
    ``table_size``); duplicate cards and cards out of that deck are refused."""
    deck = None
    if table_size is not None:
        try:
            deck = deck_info(table_size, removed_king or None)
        except StoppaError as exc:
            field = "table_size" if exc.code == "unsupported_player_count" else "removed_king"
            raise StoppaError(exc.code, exc.message, field, exc.params) from None
        if len(hands) > table_size:
            raise StoppaError(
                "unsupported_player_count",
                f"{len(hands)} hands for a table of {table_size}",
                "hands",
                params={"count": len(hands), "table_size": table_size},
            )
    out: dict[str, tuple[Card, ...]] = {}
    seen: dict[Card, str] = {}
    for i, (name, cards) in enumerate(hands):
        player = (name or "").strip() or DEFAULT_NAMES[i]
        if player in out:
            raise StoppaError(
                "duplicate_player",
                f"{player} is listed twice",
                f"hands.{i}.player",
                params={"player": player},
            )
        where = f"hands.{i}.cards"
        parsed = _cards_of(player, cards, where)
        for card in parsed:
            if deck is not None:
                deck.check_card(card, where)
            if card in seen:
                raise StoppaError(
                    "duplicate_card",
                    f"card {card} is held by {seen[card]} and {player}",
                    where,
                    params={"card": card, "other": seen[card], "player": player},
                )
            seen[card] = player
        out[player] = parsed
    return out, deck


def compare_contest(
    phase: str,
    hands: Sequence[HandInput],
    *,
    table_size: int | None = None,
    removed_king: str | None = None,
) -> dict[str, Any]:
    """Who wins a punto piccolo (``phase="piccolo"``: each player's cards of one iteration) or
    the punto grosso (``"grosso"``: every card each received), among ``hands`` listed in
    priority order (di mano first). Returns the winner, ``decided_by`` (``count``, ``points``,
    ``priority``, or ``uncontested`` for one hand) and the ranking with the reason each player
    lost. Raises ``StoppaError`` with ``where`` naming the input (``hands.1.cards``).
    """
    if phase not in ("piccolo", "grosso"):
        raise ValueError(f"unknown phase {phase!r}")
    if not 1 <= len(hands) <= 6:
        raise StoppaError(
            "unsupported_player_count",
            f"compare 1 to 6 players, not {len(hands)}",
            "hands",
            params={"count": len(hands)},
        )
    parsed, deck = _hands(hands, table_size=table_size, removed_king=removed_king)
    if phase == "piccolo":
        allowed = sorted(set(deck.schedule)) if deck is not None else [1, 2, 3]
        first = next(iter(parsed))
        size = len(parsed[first])
        for i, (player, cards) in enumerate(parsed.items()):
            if len(cards) not in allowed:
                raise StoppaError(
                    "wrong_iteration_size",
                    f"an iteration deals {' or '.join(map(str, allowed))} card(s) to each "
                    f"player; {player} has {len(cards)}",
                    f"hands.{i}.cards",
                    params={
                        "allowed": " or ".join(map(str, allowed)),
                        "player": player,
                        "count": len(cards),
                    },
                )
            if len(cards) != size:
                raise StoppaError(
                    "wrong_iteration_size",
                    f"an iteration deals the same number of cards to each player: {first} has "
                    f"{size}, {player} has {len(cards)}",
                    f"hands.{i}.cards",
                    params={"other": first, "size": size, "player": player, "count": len(cards)},
                )
        evaluate = piccolo_eval
    else:
        if deck is not None:
            for i, (player, cards) in enumerate(parsed.items()):
                if len(cards) != deck.per_player:
                    raise StoppaError(
                        "wrong_iteration_size",
                        f"at {deck.players} players each receives {deck.per_player} cards; "
                        f"{player} has {len(cards)}",
                        f"hands.{i}.cards",
                        params={
                            "players": deck.players,
                            "size": deck.per_player,
                            "player": player,
                            "count": len(cards),
                        },
                    )
        evaluate = grosso_eval
    order = list(parsed)
    evals = {p: evaluate(cards) for p, cards in parsed.items()}
    winner, decided_by = pick_winner(order, evals)
    if len(order) == 1:
        decided_by = "uncontested"
    return {
        "phase": phase,
        "order": order,
        "hands": {p: [c.text for c in cards] for p, cards in parsed.items()},
        "winner": winner,
        "decided_by": decided_by,
        "ranking": [s.to_dict() for s in rank_players(order, evals)],
    }


_WHERE_INDEX = re.compile(r"\[(\d+)\]")


def engine_attr(where: str) -> str | None:
    """An engine ``where`` (``stop.log[3]``) as an API attr (``log.3``)."""
    if not where:
        return None
    where = where.removeprefix("stop.")
    return _WHERE_INDEX.sub(r".\1", where)


def run_stop(
    hands: Sequence[HandInput],
    log: Sequence[Any] | None,
    *,
    unit: int = 6,
    cards_per_payment: int = 2,
    three_aces_free: bool = False,
) -> dict[str, Any]:
    """Replay a stop phase (``log``: plays in order, ``{"player", "cards"}`` or ``"P: cards"``)
    from the full hands in priority order, or play it out when ``log`` is None or empty.
    Returns the closer, the plays, the cards left, warnings and each player's payment.
    """
    if not 2 <= len(hands) <= 6:
        raise StoppaError(
            "unsupported_player_count",
            f"a stop phase needs 2 to 6 players, not {len(hands)}",
            "hands",
            params={"count": len(hands)},
        )
    parsed, _ = _hands(hands)
    order = list(parsed)
    try:
        if not log:
            _played, result = simulate_stop(order, parsed)
        else:
            result = replay_stop(order, parsed, list(log), three_aces_free=three_aces_free)
        payments = stop_payments(result.closer, result.remaining, unit, cards_per_payment)
    except StoppaError as exc:
        where = exc.where or ("hands" if exc.code in {"duplicate_card", "empty_hand"} else "")
        raise StoppaError(exc.code, exc.message, engine_attr(where) or "", exc.params) from None
    data = result.to_dict()
    data.update(
        {
            "order": order,
            "simulated": not log,
            "payments": payments,
            "unit": unit,
            "cards_per_payment": cards_per_payment,
        }
    )
    return data
