"""Settling one contest: a punto piccolo or the punto grosso (stoppa.md section 5)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .cards import Card, parse_cards
from .deck import DeckInfo
from .errors import StoppaError
from .evaluation import Eval, Standing, grosso_eval, piccolo_eval, pick_winner, rank_players

PHASES: tuple[str, ...] = ("piccolo", "grosso")


@dataclass(frozen=True, slots=True)
class ContestResult:
    """The outcome of one contest.

    ``winner`` takes every contribution plus ``prize`` from the pot; ``decided_by`` is
    ``no_bets`` (nobody bet: the dealer takes it), ``uncontested`` (one player left), or
    ``count`` / ``points`` / ``priority``. ``nets`` = received - contributed, for every player;
    ``ranking`` lists the showdown best first with the reason each lost.
    """

    phase: str
    prize: int
    winner: str
    decided_by: str
    contributions: Mapping[str, int]
    showdown: tuple[str, ...]
    nets: Mapping[str, int]
    ranking: tuple[Standing, ...]

    @property
    def received(self) -> int:
        """What the winner collects: all contributions plus the prize."""
        return sum(self.contributions.values()) + self.prize

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "phase": self.phase,
            "prize": self.prize,
            "winner": self.winner,
            "decided_by": self.decided_by,
            "received": self.received,
            "contributions": dict(self.contributions),
            "showdown": list(self.showdown),
            "nets": dict(self.nets),
            "ranking": [s.to_dict() for s in self.ranking],
        }


def _amount(value: object, who: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise StoppaError(
            "bad_amount",
            f"{who}'s contribution must be a non-negative integer, got {value!r}",
            params={"player": who, "value": value},
        )
    return value


def settle_contest(
    order: Sequence[str],
    contributions: Mapping[str, int],
    showdown: Iterable[str],
    prize: int,
    hands: Mapping[str, str | Iterable[str | Card]] | None = None,
    *,
    phase: str = "piccolo",
    iteration_size: int | None = None,
    deck: DeckInfo | None = None,
    evals: Mapping[str, Eval] | None = None,
    no_bets: str = "dealer",
) -> ContestResult:
    """Settle one betting contest.

    - ``order``: the players in priority order; the dealer is last.
    - ``contributions``: what each player put in (missing = 0, never bet).
    - ``showdown``: the players still in at the end (any order; priority decides ties).
    - ``prize``: ``piccolo_value`` or ``grosso_value``, paid from the pot to the winner.
    - ``hands``: the cards to compare (the iteration's cards for a piccolo, the whole hand for
      the grosso), needed for the showdown players when two or more are left; or give ``evals``.
    - ``iteration_size`` / ``deck``: when given, hands are checked against them.
    - ``no_bets``: ``dealer`` (default) or ``best_hand`` (everybody's hand is compared).

    Raises ``bad_amount``, ``unequal_showdown_contributions``, ``folded_with_full_bet``,
    ``no_showdown``, ``wrong_iteration_size``, ``card_not_in_deck``, ``duplicate_card``.
    """
    if phase not in PHASES:
        raise StoppaError(
            "bad_record", f"phase must be one of {PHASES}, got {phase!r}", params={"phase": phase}
        )
    if isinstance(prize, bool) or not isinstance(prize, int) or prize <= 0:
        raise StoppaError(
            "bad_stakes",
            f"the prize must be a positive integer, got {prize!r}",
            params={"name": "prize", "value": prize},
        )
    order = tuple(order)
    if len(set(order)) != len(order):
        raise StoppaError("duplicate_player", "a player is listed twice in the priority order")
    for p in contributions:
        if p not in order:
            raise StoppaError(
                "unknown_player",
                f"{p!r} put in chips but is not at the table",
                params={"player": p},
            )
    contrib = {p: _amount(contributions.get(p, 0), p) for p in order}
    shown_set = set(showdown)
    for p in shown_set:
        if p not in order:
            raise StoppaError(
                "unknown_player",
                f"{p!r} is at the showdown but not at the table",
                params={"player": p},
            )
    # Priority, not the caller's listing, orders the showdown: input order is irrelevant.
    shown = tuple(p for p in order if p in shown_set)
    top = max(contrib.values())
    evaluate = piccolo_eval if phase == "piccolo" else grosso_eval

    def values(players: Sequence[str]) -> dict[str, Eval]:
        if evals is not None:
            missing = [p for p in players if p not in evals]
            if missing:
                raise StoppaError(
                    "bad_record", f"no hand value for {missing[0]!r}", params={"player": missing[0]}
                )
            return {p: evals[p] for p in players}
        if hands is None:
            raise StoppaError("bad_record", "the hands of the showdown are needed to compare")
        parsed = _check_hands(hands, players, phase, iteration_size, deck)
        return {p: evaluate(parsed[p]) for p in players}

    ranking: tuple[Standing, ...] = ()
    if top == 0:
        # Nobody bet: the dealer takes the prize without showing (stoppa.md 5.2).
        if no_bets == "best_hand":
            vals = values(order)
            winner, decided_by = pick_winner(order, vals)
            ranking = rank_players(order, vals)
        else:
            winner, decided_by = order[-1], "no_bets"
        shown = ()
    else:
        if not shown:
            raise StoppaError(
                "no_showdown", f"someone bet {top} but nobody is left to win", params={"top": top}
            )
        for p in shown:
            if contrib[p] != top:
                raise StoppaError(
                    "unequal_showdown_contributions",
                    f"{p} is at the showdown with {contrib[p]} but the top bet is {top}",
                    params={"player": p, "amount": contrib[p], "top": top},
                )
        for p in order:
            if p not in shown_set and contrib[p] >= top:
                raise StoppaError(
                    "folded_with_full_bet",
                    f"{p} folded after putting in the top bet {top}",
                    params={"player": p, "top": top},
                )
        if len(shown) == 1:
            winner, decided_by = shown[0], "uncontested"
        else:
            vals = values(shown)
            winner, decided_by = pick_winner(shown, vals)
            ranking = rank_players(shown, vals)
    received = sum(contrib.values()) + prize
    nets = {p: (received if p == winner else 0) - contrib[p] for p in order}
    return ContestResult(
        phase,
        prize,
        winner,
        decided_by,
        MappingProxyType(contrib),
        shown,
        MappingProxyType(nets),
        ranking,
    )


def _check_hands(
    hands: Mapping[str, str | Iterable[str | Card]],
    players: Sequence[str],
    phase: str,
    iteration_size: int | None,
    deck: DeckInfo | None,
) -> dict[str, tuple[Card, ...]]:
    seen: dict[Card, str] = {}
    out: dict[str, tuple[Card, ...]] = {}
    for p in players:
        if p not in hands:
            raise StoppaError(
                "bad_record", f"the cards of {p} are needed to compare", params={"player": p}
            )
        cards = parse_cards(hands[p])
        if phase == "piccolo" and iteration_size is not None and len(cards) != iteration_size:
            raise StoppaError(
                "wrong_iteration_size",
                f"this iteration deals {iteration_size} card(s); {p} shows {len(cards)}",
                params={"size": iteration_size, "player": p, "count": len(cards)},
            )
        for c in cards:
            if deck is not None:
                deck.check_card(c)
            if c in seen:
                raise StoppaError(
                    "duplicate_card",
                    f"card {c} is shown by {seen[c]} and {p}",
                    params={"card": c, "other": seen[c], "player": p},
                )
            seen[c] = p
        out[p] = cards
    return out
