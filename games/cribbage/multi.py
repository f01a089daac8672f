"""Tables of two, three and four: how a deal is made up, who scores with whom, and checking a
table's final scores.

With three players each is dealt 5 cards, throws 1 to the crib and one card from the deck goes
face down to the crib; each plays for themself. With four, each is dealt 5 and throws 1, and
partners sit opposite: seats 0 and 2 against 1 and 3, pegging on one score per side. Whatever
the table, the game ends the moment one side reaches the target (121, or 61 short), so a
finished table has exactly one side on the target and every other side below it.

`check_table_scores` is what the tournament side calls with the final scores a table reports;
`verify_game` (the whole-game record) uses `deal_shape` for the deal and the sides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import CribbageError
from .rules import SKUNK_NAMES, TARGETS, skunk_level


@dataclass(frozen=True, slots=True)
class DealShape:
    """How one deal is made up for a number of players (docs: the deal table)."""

    players: int
    dealt: int
    """Cards dealt to each player."""
    discard: int
    """Cards each player throws to the crib."""
    crib_from_deck: int
    """Cards dealt face down from the deck to the crib (1 with three players)."""
    sides: tuple[tuple[int, ...], ...]
    """Seats per side: one each for 2 or 3 players, partners (0, 2) and (1, 3) for 4."""

    @property
    def side_of(self) -> tuple[int, ...]:
        """The side of each seat."""
        of = [0] * self.players
        for side, seats in enumerate(self.sides):
            for seat in seats:
                of[seat] = side
        return tuple(of)


DEAL_SHAPES: dict[int, DealShape] = {
    2: DealShape(players=2, dealt=6, discard=2, crib_from_deck=0, sides=((0,), (1,))),
    3: DealShape(players=3, dealt=5, discard=1, crib_from_deck=1, sides=((0,), (1,), (2,))),
    4: DealShape(players=4, dealt=5, discard=1, crib_from_deck=0, sides=((0, 2), (1, 3))),
}
"""The deal for 2, 3 and 4 players: after the discard every hand and the crib hold 4 cards."""


def deal_shape(players: int) -> DealShape:
    """The `DealShape` for 2, 3 or 4 players; `CribbageError('bad_player_count')` otherwise."""
    shape = DEAL_SHAPES.get(players) if type(players) is int else None
    if shape is None:
        raise CribbageError(
            f"cribbage is played by 2, 3 or 4 players, not {players!r}",
            "bad_player_count",
            {"players": repr(players)},
        )
    return shape


@dataclass(frozen=True, slots=True)
class TableLoser:
    """A side that did not reach the target: its seats, score and skunk level."""

    side: int
    seats: tuple[int, ...]
    score: int
    skunk: int
    """0 (none) to 3 (triple skunk), from the skunk lines of the target."""
    behind: int
    """Points short of the target (the winner's margin over this side)."""

    @property
    def skunk_name(self) -> str:
        """`none`, `skunk`, `double skunk` or `triple skunk`."""
        return SKUNK_NAMES[self.skunk]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "side": self.side,
            "seats": list(self.seats),
            "score": self.score,
            "skunk": self.skunk,
            "skunk_name": self.skunk_name,
            "behind": self.behind,
        }


@dataclass(frozen=True, slots=True)
class TableResult:
    """A table's final scores, checked: one winning side on the target, the others below."""

    players: int
    target: int
    scores: tuple[int, ...]
    """Final score per side (3 sides with three players, 2 otherwise)."""
    winner: int
    """The winning side."""
    winner_seats: tuple[int, ...]
    losers: tuple[TableLoser, ...]
    """Every other side, in side order."""

    @property
    def loser_score(self) -> int:
        """The best losing score (the only one with two sides)."""
        return max(loser.score for loser in self.losers)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "players": self.players,
            "target": self.target,
            "scores": list(self.scores),
            "winner": self.winner,
            "winner_seats": list(self.winner_seats),
            "loser_score": self.loser_score,
            "losers": [loser.to_dict() for loser in self.losers],
        }


def _side_scores(shape: DealShape, scores: Sequence[Any]) -> list[Any]:
    """One score per side: with four players 2 (per side) or 4 (per seat, partners equal)."""
    sides = len(shape.sides)
    if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence):
        raise CribbageError(
            "the scores must be a list, one per side",
            "wrong_score_count",
            {"players": shape.players, "count": repr(scores), "expected": sides},
        )
    if shape.players == 4 and len(scores) == 4:
        for seat in (0, 1):
            if scores[seat] != scores[seat + 2]:
                raise CribbageError(
                    f"partners {seat} and {seat + 2} share one score, not"
                    f" {scores[seat]!r} and {scores[seat + 2]!r}",
                    "partners_differ",
                    {
                        "player": seat,
                        "partner": seat + 2,
                        "score": repr(scores[seat]),
                        "partner_score": repr(scores[seat + 2]),
                    },
                )
        return list(scores[:2])
    if len(scores) != sides:
        raise CribbageError(
            f"{shape.players} players make {sides} sides: give {sides} scores, not {len(scores)}",
            "wrong_score_count",
            {"players": shape.players, "count": len(scores), "expected": sides},
        )
    return list(scores)


def check_table_scores(players: int, scores: Sequence[int], target: int = 121) -> TableResult:
    """Check a finished table's final scores and derive the winner and each loser's skunk.

    `scores` has one score per side in seat order: 2 for two players, 3 for three (each plays
    for themself), 2 for four (seats 0 and 2 against 1 and 3; a list of 4 per-seat scores is
    accepted when partners show the same score). The game ends the moment a side reaches the
    target and points past it are not scored, so exactly one side must be on the target and
    every other side on 0..target-1.

    Raises `CribbageError` with `.code`: `bad_player_count`, `unknown_target`,
    `wrong_score_count` (params `players`, `count`, `expected`), `partners_differ` (`player`,
    `partner`, `score`, `partner_score`), `bad_table_score` (`side`, `score`: not a whole
    number >= 0), `score_past_target` (`side`, `score`, `target`), `no_winner` (`target`),
    `several_winners` (`sides`, `target`).
    """
    shape = deal_shape(players)
    if type(target) is not int or target not in TARGETS:
        allowed = ", ".join(map(str, TARGETS))
        raise CribbageError(
            f"unknown target {target!r}: expected one of {allowed}",
            "unknown_target",
            {"target": repr(target), "allowed": allowed},
        )
    per_side = _side_scores(shape, scores)
    for side, score in enumerate(per_side):
        if type(score) is not int or score < 0:
            raise CribbageError(
                f"side {side}'s score must be a whole number, 0 or more, not {score!r}",
                "bad_table_score",
                {"side": side, "score": repr(score)},
            )
        if score > target:
            raise CribbageError(
                f"side {side} has {score}: the game stops at {target}, points past it are"
                " not scored",
                "score_past_target",
                {"side": side, "score": score, "target": target},
            )
    winners = [side for side, score in enumerate(per_side) if score == target]
    if not winners:
        raise CribbageError(
            f"no side reached {target}: the game is not finished",
            "no_winner",
            {"target": target},
        )
    if len(winners) > 1:
        listed = ", ".join(map(str, winners))
        raise CribbageError(
            f"sides {listed} all reached {target}: the game ends when the first one does",
            "several_winners",
            {"sides": listed, "target": target},
        )
    winner = winners[0]
    losers = tuple(
        TableLoser(
            side=side,
            seats=shape.sides[side],
            score=score,
            skunk=skunk_level(target, score),
            behind=target - score,
        )
        for side, score in enumerate(per_side)
        if side != winner
    )
    return TableResult(
        players=players,
        target=target,
        scores=tuple(per_side),
        winner=winner,
        winner_seats=shape.sides[winner],
        losers=losers,
    )
