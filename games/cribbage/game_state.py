"""The running scoreboard of one whole-game replay: pegging, claims, muggins and the game's end.

`Replay.score_event` is the one place a scoring moment is credited; it raises `GameOver` when a
side reaches the target so the rest of the record is left unscored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .game_report import GameEvent, Problem
from .scoring import ScoreItem


class GameOver(Exception):
    """The game ended (target reached); the rest of the record is not scored."""


@dataclass(slots=True)
class Replay:
    """Mutable state of one replay."""

    n: int
    side_of: tuple[int, ...]
    target: int
    muggins: bool
    scores: list[int]
    events: list[GameEvent] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    winner: int | None = None
    ended_at: dict[str, Any] | None = None
    after: tuple[str, int] | None = None
    """The first recorded item of the ending deal left unscored: (phase, event index)."""

    def problem(
        self,
        code: str,
        message: str,
        deal: int | None = None,
        phase: str | None = None,
        event: int | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        """List one fault, located by deal, phase and event (see `Problem`)."""
        self.problems.append(Problem(code, message, deal, phase, event, params or {}))

    def muggins_side(self, player: int) -> int:
        """The side that takes the points a player overlooks."""
        # With two sides the opponent; with three players the player on the claimant's left.
        if self.n == 3:
            return self.side_of[(player + 1) % 3]
        return 1 - self.side_of[player]

    def peg(self, side: int, points: int, where: dict[str, Any]) -> int:
        """Add points to a side, stopping at the target; returns the points actually pegged."""
        if self.winner is not None or points <= 0:
            return 0
        before = self.scores[side]
        if before + points >= self.target:
            self.scores[side] = self.target
            self.winner = side
            self.ended_at = where
            return self.target - before
        self.scores[side] = before + points
        return points

    def score_event(
        self,
        deal: int,
        phase: str,
        event: int | None,
        player: int,
        what: str,
        true: int,
        claimed: int | None,
        items: tuple[ScoreItem, ...],
        count: int | None = None,
    ) -> None:
        """Record one scoring moment, credit it (and muggins), and stop if the game ended."""
        side = self.side_of[player]
        where = {"deal": deal, "phase": phase, "event": event, "player": player, "what": what}
        if claimed is None:
            own, overlooked = true, 0
        else:
            own, overlooked = min(claimed, true), max(true - claimed, 0)
            if claimed != true:
                self.problem(
                    "claim_mismatch",
                    f"{what}: claimed {claimed}, true {true}"
                    + (f" ({overlooked} overlooked)" if overlooked else " (over-claimed)"),
                    deal,
                    phase,
                    event,
                    {"what": what, "claimed": claimed, "true": true},
                )
        credited = self.peg(side, own, where)
        mug_side: int | None = None
        mug_points = 0
        if overlooked and self.muggins:
            mug_side = self.muggins_side(player)
            mug_points = self.peg(mug_side, overlooked, where)
        self.events.append(
            GameEvent(
                deal=deal,
                phase=phase,
                event=event,
                player=player,
                side=side,
                what=what,
                count=count,
                true=true,
                claimed=claimed,
                difference=0 if claimed is None else claimed - true,
                credited=credited,
                muggins_side=mug_side,
                muggins_points=mug_points,
                scores=tuple(self.scores),
                items=items,
            )
        )
        if self.winner is not None:
            raise GameOver
