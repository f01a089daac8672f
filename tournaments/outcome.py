"""What one finished game is worth: game points, spread and skunk level.

No models or queries here (only translated messages): the services and the standings job
call it. Everything is derived from the winner, the loser's score and the event's match-point
format, never typed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from django.utils.translation import gettext as _

from games.cribbage import rules

# The skunk lines are a rule of the game (games.cribbage); this module adds what a score is
# worth in an event's match-point format, and errors worded for a TD at the results table.
SKUNK_LINES = rules.SKUNK_LINES


class PointsTable(Protocol):
    """Anything with the four match-point columns (a MatchPointFormat row, or a test double)."""

    win: int
    skunk: int
    double_skunk: int
    triple_skunk: int


class OutcomeError(ValueError):
    """A game result that cannot have happened. ``code`` is stable; the message is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """The derived values of one game, from the winner's side."""

    winner_points: int
    loser_points: int
    margin: int
    skunk_level: int


def check_loser_score(target: int, loser_score: int) -> None:
    """Raise :class:`OutcomeError` unless ``loser_score`` is a score a loser can finish on."""
    if target not in SKUNK_LINES:
        raise OutcomeError(
            "bad_target", _("Games are played to 121 or 61, not %(target)s.") % {"target": target}
        )
    if isinstance(loser_score, bool) or not isinstance(loser_score, int):
        raise OutcomeError("bad_score", _("The loser's score must be a whole number."))
    if loser_score < 0:
        raise OutcomeError("negative_score", _("A score cannot be negative."))
    if loser_score >= target:
        raise OutcomeError(
            "loser_reached_target",
            _(
                "The loser's score must be below %(target)s: the winner is the one who reached "
                "%(target)s first."
            )
            % {"target": target},
        )


def skunk_level(target: int, loser_score: int) -> int:
    """Skunk level of a game: 0 none, 1 skunk, 2 double, 3 triple (121: <=90, <=60, <=30)."""
    check_loser_score(target, loser_score)
    return rules.skunk_level(target, loser_score)


def game_outcome(table: PointsTable, target: int, loser_score: int) -> GameOutcome:
    """Game points and spread of a game won against ``loser_score``.

    Spread = target - loser's score (winner +, loser -); no cap and no skunk bonus (ACC).
    """
    level = skunk_level(target, loser_score)
    points = (table.win, table.skunk, table.double_skunk, table.triple_skunk)[level]
    return GameOutcome(
        winner_points=points, loser_points=0, margin=target - loser_score, skunk_level=level
    )


def format_spread(spread: int) -> str:
    """A spread with its sign and no padding: +7, -7, +121, and 0 for none (a zero-padded
    "+07" read as a typo to players)."""
    return f"{spread:+d}" if spread else "0"
