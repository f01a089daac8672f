"""Game-level rules: targets, skunk lines."""

from __future__ import annotations

from .cards import CribbageError

TARGETS = (121, 61)
"""Game lengths docs/rules/cribbage.md allows: a full game to 121 and a short game to 61."""

SKUNK_LINES: dict[int, tuple[int, ...]] = {121: (90, 60, 30), 61: (30,)}
"""Per target, the highest loser score for a skunk, a double skunk and a triple skunk."""

SKUNK_NAMES = ("none", "skunk", "double skunk", "triple skunk")
"""Name of each skunk level 0..3."""


def skunk_level(target: int, loser_score: int) -> int:
    """0 (no skunk) to 3 (triple skunk) for a game to `target` lost with `loser_score` points.

    Raises `ValueError` for an unknown target or a loser score outside 0..target-1 (the loser
    never reaches the target, and a game has no ties).
    """
    lines = SKUNK_LINES.get(target) if type(target) is int else None
    if lines is None:
        allowed = ", ".join(map(str, TARGETS))
        raise CribbageError(
            f"unknown target {target!r}: expected one of {allowed}",
            "unknown_target",
            {"target": repr(target), "allowed": allowed},
        )
    if isinstance(loser_score, bool) or not isinstance(loser_score, int):
        raise CribbageError(
            f"loser score must be a whole number, got {loser_score!r}",
            "bad_loser_score",
            {"score": repr(loser_score)},
        )
    if not 0 <= loser_score < target:
        raise CribbageError(
            f"loser score {loser_score} out of range 0..{target - 1}",
            "loser_score_out_of_range",
            {"score": loser_score, "top": target - 1},
        )
    return sum(1 for line in lines if loser_score <= line)


def skunk_name(target: int, loser_score: int) -> str:
    """`none`, `skunk`, `double skunk` or `triple skunk` (see `skunk_level`)."""
    return SKUNK_NAMES[skunk_level(target, loser_score)]
