"""The game review: each discard of a verified whole-game record against the best one.

For every deal whose dealt cards a player recorded (`dealt` in the record, see README.md), the
discard advisor (`discard.advise_discard`, uniform over the unseen cards: at the discard a
player has seen only their own cards) ranks every discard; the review notes the one made, the
best one and the expected points given away (best net - net of the discard made, never
negative). Per player: decisions reviewed, best choices, points given away; and the three
costliest decisions of the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .cards import Card, CardError, parse_card
from .discard import advise_discard
from .game import verify_game
from .multi import deal_shape

REVIEW_ERROR_CODES = {
    "invalid_record": "the record does not verify (verify_game finds an error)",
}
"""Stable error codes of `ReviewError`."""

COSTLIEST = 3
"""How many of the costliest decisions the review lists."""


class ReviewError(ValueError):
    """A record the review refuses: `code` from `REVIEW_ERROR_CODES`; `problems` are the
    engine's (`Problem.to_dict()`) errors."""

    def __init__(self, code: str, message: str, problems: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.problems = problems


@dataclass(frozen=True, slots=True)
class DiscardDecision:
    """One player's discard in one deal, against the best discard."""

    deal: int
    player: int
    own_crib: bool
    """The crib was the player's (or their side's)."""
    dealt: tuple[Card, ...]
    kept: tuple[Card, ...]
    discarded: tuple[Card, ...]
    best_kept: tuple[Card, ...]
    best_discarded: tuple[Card, ...]
    made: Fraction
    """Expected net points of the discard made (hand +/- crib)."""
    best: Fraction
    """Expected net points of the best discard."""
    rank: int
    """1 for the best discard (or one as good), up to the number of options."""
    options: int

    @property
    def cost(self) -> Fraction:
        """Expected points given away: best - made (0 for a best choice)."""
        return self.best - self.made

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (points rounded to 4 places)."""
        return {
            "deal": self.deal,
            "player": self.player,
            "own_crib": self.own_crib,
            "dealt": [str(card) for card in self.dealt],
            "kept": [str(card) for card in self.kept],
            "discarded": [str(card) for card in self.discarded],
            "best_kept": [str(card) for card in self.best_kept],
            "best_discarded": [str(card) for card in self.best_discarded],
            "made": round(float(self.made), 4),
            "best": round(float(self.best), 4),
            "cost": round(float(self.cost), 4),
            "rank": self.rank,
            "options": self.options,
        }


@dataclass(frozen=True, slots=True)
class PlayerReview:
    """One player's totals over the game."""

    player: int
    name: str
    decisions: int
    best_choices: int
    given_away: Fraction
    """Expected points given away over all the player's reviewed discards."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "player": self.player,
            "name": self.name,
            "decisions": self.decisions,
            "best_choices": self.best_choices,
            "given_away": round(float(self.given_away), 4),
        }


@dataclass(frozen=True, slots=True)
class GameReview:
    """The review of a whole game's discards."""

    players: tuple[str, ...]
    decisions: tuple[DiscardDecision, ...]
    """In deal order, then player order."""
    totals: tuple[PlayerReview, ...]
    """One per player, in seating order."""
    costliest: tuple[DiscardDecision, ...]
    """Up to three decisions that gave away the most (only those that gave away any)."""
    unknown: int
    """Hands of the played deals whose dealt cards the record does not give (not reviewed)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "players": list(self.players),
            "model": "uniform over unseen cards",
            "decisions": [decision.to_dict() for decision in self.decisions],
            "totals": [total.to_dict() for total in self.totals],
            "costliest": [decision.to_dict() for decision in self.costliest],
            "unknown": self.unknown,
        }


def _cards(raw: Any) -> tuple[Card, ...]:
    return tuple(parse_card(token) for token in raw)


def review_game(record: Any) -> GameReview:
    """Review every recorded discard of a whole-game record (the format `verify_game` reads).

    Raises `ReviewError('invalid_record')` when `verify_game` finds an error (warnings such as
    claim mismatches are fine). Deals after the one where the game ended are not reviewed.
    """
    report = verify_game(record)
    if not report.valid:
        errors = [p.to_dict() for p in report.problems if p.severity == "error"]
        raise ReviewError("invalid_record", "the record does not verify", errors)
    n = len(report.players)
    side_of = deal_shape(n).side_of  # with four players the partner's crib is one's own
    deals = record["deals"]
    last = report.ended_at["deal"] if report.ended_at is not None else len(deals) - 1
    decisions: list[DiscardDecision] = []
    unknown = 0
    for d, deal in enumerate(deals[: last + 1]):
        dealer = deal["dealer"]
        dealt_all = deal.get("dealt") or [None] * n
        for p in range(n):
            raw = dealt_all[p]
            if raw is None:
                unknown += 1
                continue
            try:
                dealt = _cards(raw)
                kept = _cards(deal["hands"][p])
            except CardError:  # verified above; kept for safety
                unknown += 1
                continue
            own = side_of[p] == side_of[dealer]
            advice = advise_discard(dealt, dealer=own, players=n)
            made = advice.option_for(kept)
            if made is None:  # verified above: the hand is among the dealt cards
                unknown += 1
                continue
            best = advice.best
            made_net = made.net_exact
            rank = 1 + sum(1 for option in advice.options if option.net_exact > made_net)
            decisions.append(
                DiscardDecision(
                    deal=d,
                    player=p,
                    own_crib=own,
                    dealt=dealt,
                    kept=made.keep,
                    discarded=made.discard,
                    best_kept=best.keep,
                    best_discarded=best.discard,
                    made=made_net,
                    best=best.net_exact,
                    rank=rank,
                    options=len(advice.options),
                )
            )
    totals = tuple(
        PlayerReview(
            player=p,
            name=report.players[p],
            decisions=sum(1 for x in decisions if x.player == p),
            best_choices=sum(1 for x in decisions if x.player == p and x.rank == 1),
            given_away=sum((x.cost for x in decisions if x.player == p), Fraction(0)),
        )
        for p in range(n)
    )
    costly = sorted((x for x in decisions if x.cost > 0), key=lambda x: (-x.cost, x.deal, x.player))
    return GameReview(
        players=report.players,
        decisions=tuple(decisions),
        totals=totals,
        costliest=tuple(costly[:COSTLIEST]),
        unknown=unknown,
    )
