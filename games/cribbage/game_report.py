"""What a whole-game replay reports: its problems, scoring events, losers and the report itself.

The problem codes are declared here once (`PROBLEM_CODES`); `game.verify_game` builds a
`GameReport` from them. Plain, JSON-ready value types: no replay logic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import plain_params
from .rules import SKUNK_NAMES
from .scoring import ScoreItem

PROBLEM_CODES = {
    "malformed": "the record or a part of it does not have the documented shape",
    "bad_card": "a card that is not valid notation",
    "card_twice": "a card used twice in a deal",
    "wrong_hand_size": "a hand or the crib does not hold 4 cards (or the dealt cards are not 6/5)",
    "discard_mismatch": "the hand is not part of the dealt cards, or a discard is not in the crib",
    "wrong_dealer": "the deal did not pass to the left",
    "card_not_in_hand": "a card played that the player does not hold",
    "past_31": "a card played that takes the count past 31",
    "illegal_go": "a go while the player could lay a card",
    "out_of_turn": "a player acted when it was another player's turn",
    "cards_unplayed": "the play ended with cards still in hand",
    "show_order": "the show lists counts in another order than the rules",
    "claim_mismatch": "claimed points differ from the true points",
    "after_game_end": "the record goes on after the target was reached (ignored)",
    "game_unfinished": "the record ends before anyone reached the target",
    "result_mismatch": "the declared result differs from the replayed one",
    "internal_error": "the checker failed on this record (a bug; please report it)",
}
"""Stable problem codes and what each means."""

_WARNING_CODES = frozenset({"claim_mismatch", "after_game_end", "game_unfinished", "show_order"})


@dataclass(frozen=True, slots=True)
class Problem:
    """One fault in a record, located by deal index, phase and event index (all 0-based).

    `phase` is the record field the fault is in (`deals`, `dealt`, `hands`, `crib`, `starter`,
    `play`, `show`, `result`); `event` is the index inside that list (for `hands` and `dealt`,
    the player index). `params` are the values the English `message` names (card, player,
    count...; README.md lists them per code), so that a web layer can say it in the user's
    language by the code; they take no part in equality.
    """

    code: str
    message: str
    deal: int | None = None
    phase: str | None = None
    event: int | None = None
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        # frozen: normalised once (JSON-ready), hence object.__setattr__
        object.__setattr__(self, "params", plain_params(self.params))

    @property
    def severity(self) -> str:
        """`error` for a record that breaks the rules, `warning` for claims and endings."""
        return "warning" if self.code in _WARNING_CODES else "error"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "deal": self.deal,
            "phase": self.phase,
            "event": self.event,
            "params": dict(self.params),
        }


@dataclass(frozen=True, slots=True)
class GameEvent:
    """One scoring moment of the replay: his heels, a card or go in the play, a hand or crib."""

    deal: int
    phase: str
    """`starter` (his heels), `play` or `show`."""
    event: int | None
    """Index in the record's list for that phase (None for a show count the record omits)."""
    player: int
    side: int
    what: str
    """`heels`, the card laid (`5H`), `go`, `hand` or `crib`."""
    count: int | None
    """The running count after a card in the play."""
    true: int
    claimed: int | None
    difference: int
    """claimed - true (0 when nothing was claimed)."""
    credited: int
    """Points pegged by the player's side (capped at the target)."""
    muggins_side: int | None
    muggins_points: int
    scores: tuple[int, ...]
    """Every side's score after this event."""
    items: tuple[ScoreItem, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "deal": self.deal,
            "phase": self.phase,
            "event": self.event,
            "player": self.player,
            "side": self.side,
            "what": self.what,
            "count": self.count,
            "true": self.true,
            "claimed": self.claimed,
            "difference": self.difference,
            "credited": self.credited,
            "muggins_side": self.muggins_side,
            "muggins_points": self.muggins_points,
            "scores": list(self.scores),
            "items": [item.to_dict() for item in self.items],
        }


@dataclass(frozen=True, slots=True)
class Loser:
    """A losing side's final score and skunk level."""

    side: int
    score: int
    skunk: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "side": self.side,
            "score": self.score,
            "skunk": self.skunk,
            "skunk_name": SKUNK_NAMES[self.skunk],
        }


@dataclass(frozen=True, slots=True)
class GameReport:
    """The replay of a whole-game record."""

    players: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    """Player indices per side: one each for 2 or 3 players, partners (0, 2) and (1, 3) for 4."""
    target: int
    muggins: bool
    scores: tuple[int, ...]
    """Final score of each side."""
    finished: bool
    """True when a side reached the target."""
    winner: int | None
    """Winning side index."""
    ended_at: dict[str, Any] | None
    """Where the target was reached: deal, phase, event, player, what."""
    losers: tuple[Loser, ...]
    events: tuple[GameEvent, ...]
    problems: tuple[Problem, ...]

    @property
    def valid(self) -> bool:
        """No error-severity problem: every card and turn is legal."""
        return not any(problem.severity == "error" for problem in self.problems)

    @property
    def claims_correct(self) -> bool:
        """Every claim equals the true points."""
        return not any(problem.code == "claim_mismatch" for problem in self.problems)

    @property
    def loser_score(self) -> int | None:
        """The best losing score (the only one with 2 sides); None before the game ends."""
        return max((loser.score for loser in self.losers), default=None)

    @property
    def skunk(self) -> int | None:
        """Skunk level 0..3 for `loser_score`; None before the game ends."""
        return min((loser.skunk for loser in self.losers), default=None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "valid": self.valid,
            "claims_correct": self.claims_correct,
            "players": list(self.players),
            "sides": [list(side) for side in self.sides],
            "target": self.target,
            "muggins": self.muggins,
            "scores": list(self.scores),
            "finished": self.finished,
            "winner": self.winner,
            "winner_players": (
                [self.players[p] for p in self.sides[self.winner]]
                if self.winner is not None
                else []
            ),
            "loser_score": self.loser_score,
            "skunk": self.skunk,
            "skunk_name": SKUNK_NAMES[self.skunk] if self.skunk is not None else None,
            "losers": [loser.to_dict() for loser in self.losers],
            "ended_at": self.ended_at,
            "events": [event.to_dict() for event in self.events],
            "problems": [problem.to_dict() for problem in self.problems],
        }
