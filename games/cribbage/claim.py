"""Checking a claimed count against the true score (and what muggins could take)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, CribbageError
from .hand import HandScore, score_hand
from .play import PlayScore, score_play
from .scoring import ScoreItem

CLAIM_KINDS = ("hand", "crib", "play")


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    """A claim compared with the true score."""

    kind: str
    """`hand`, `crib` or `play`."""
    claimed: int
    true: int
    difference: int
    """claimed - true: negative when points were overlooked, positive when over-claimed."""
    overlooked: tuple[ScoreItem, ...]
    """Items worth the overlooked points (what muggins can take). A total does not say which
    items the player missed, so this is the smallest set of items worth exactly the overlooked
    points (or, when none is exact, the smallest set worth more); empty when nothing was missed."""
    score: HandScore | PlayScore

    @property
    def correct(self) -> bool:
        """True when the claim equals the true score."""
        return self.difference == 0

    @property
    def overlooked_points(self) -> int:
        """Points the claim missed (0 when the claim is right or too high)."""
        return max(-self.difference, 0)

    @property
    def overclaimed_points(self) -> int:
        """Points claimed beyond the true score (0 when the claim is right or too low)."""
        return max(self.difference, 0)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, with the full breakdown under `score`."""
        return {
            "kind": self.kind,
            "claimed": self.claimed,
            "true": self.true,
            "difference": self.difference,
            "correct": self.correct,
            "overlooked_points": self.overlooked_points,
            "overclaimed_points": self.overclaimed_points,
            "overlooked": [item.to_dict() for item in self.overlooked],
            "score": self.score.to_dict(),
        }


def pick_overlooked(items: Sequence[ScoreItem], points: int) -> tuple[ScoreItem, ...]:
    """The fewest items worth exactly `points`, later items preferred; else the fewest worth more.

    Later items are preferred because counts are announced fifteens first, so what a player
    forgets is more often at the end of the list (runs, flush, nobs).
    """
    if points <= 0 or not items:
        return ()
    # best[s] = indices of the fewest items (scanning from the end) whose points sum to s
    limit = sum(item.points for item in items)
    best: list[tuple[int, ...] | None] = [None] * (limit + 1)
    best[0] = ()
    for index in range(len(items) - 1, -1, -1):
        worth = items[index].points
        for total in range(limit - worth, -1, -1):
            chosen = best[total]
            if chosen is None:
                continue
            candidate = best[total + worth]
            if candidate is None or len(candidate) > len(chosen) + 1:
                best[total + worth] = (index, *chosen)
    for total in range(min(points, limit), limit + 1):
        chosen = best[total]
        if total >= points and chosen is not None:
            return tuple(items[i] for i in sorted(chosen))
    return tuple(items)


def check_claim(
    kind: str,
    cards: str | Iterable[str | Card],
    starter: str | Card | None,
    claimed: int,
    *,
    crib: bool = False,
    last: bool = False,
) -> ClaimCheck:
    """Compare `claimed` points with the true score of a hand, a crib or a pegging pile.

    `kind` is `hand` (4 cards + starter; `crib=True` scores it as a crib), `crib` (same as hand
    with `crib=True`) or `play` (`cards` is the pile since the last reset, the claim is for its
    last card, `starter` is ignored, `last=True` adds the go). Raises `CardError` (a
    `ValueError`) for bad cards and `ValueError` for an unknown kind or a claim that is not a
    whole number of points >= 0.
    """
    if kind not in CLAIM_KINDS:
        raise CribbageError(
            f"unknown claim kind {kind!r}: expected hand, crib or play",
            "unknown_claim_kind",
            {"kind": repr(kind)},
        )
    if isinstance(claimed, bool) or not isinstance(claimed, int) or claimed < 0:
        raise CribbageError(
            f"claimed points must be a whole number >= 0, got {claimed!r}",
            "bad_claim_points",
            {"claimed": repr(claimed)},
        )
    score: HandScore | PlayScore
    if kind == "play":
        score = score_play(cards, last=last)
    else:
        if starter is None:
            raise CribbageError(
                f"a {kind} is counted with the starter: starter is missing",
                "starter_missing",
                {"what": kind},
            )
        score = score_hand(cards, starter, crib=crib or kind == "crib")
    true = score.total
    return ClaimCheck(
        kind=kind,
        claimed=claimed,
        true=true,
        difference=claimed - true,
        overlooked=pick_overlooked(score.items, true - claimed),
        score=score,
    )
