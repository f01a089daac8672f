"""Reads of the discard reviews (``DiscardReview``): the player's games, the event's leaders.

A table may carry several reviewed records (each player can attach one, and a report can be
sent again): the latest review of each table counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.cribbage import parse_card

from .models import DiscardReview

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
COSTLIEST = 3


def card_chips(cards: list[str]) -> list[dict[str, Any]]:
    """Cards as people write them (5♥), red or black, for the templates."""
    chips = []
    for text in cards:
        card = parse_card(text)
        label = str(card)
        chips.append({"label": label[:-1] + SYMBOLS[card.suit], "red": card.suit in "HD"})
    return chips


def _latest_per_table(reviews) -> list[DiscardReview]:
    latest: dict[int, DiscardReview] = {}
    for review in reviews:  # newest first (the model's ordering within a table)
        latest.setdefault(review.table_id, review)
    return list(latest.values())


def _decision(decision: dict[str, Any]) -> dict[str, Any]:
    return {
        **decision,
        "deal_number": decision["deal"] + 1,
        "discarded_chips": card_chips(decision["discarded"]),
        "best_chips": card_chips(decision["best_discarded"]),
    }


@dataclass(frozen=True, slots=True)
class PlayerGameReview:
    """One reviewed game as the player's page shows it."""

    game: int
    """The round number."""
    given_away: float
    decisions: int
    best_choices: int
    costliest: list[dict[str, Any]] = field(default_factory=list)
    """The player's own costliest decisions (up to three), most expensive first."""


def player_reviews(entry) -> list[PlayerGameReview]:
    """The entry's reviewed games, newest first (only the entry's own discards)."""
    reviews = (
        DiscardReview.objects.filter(
            event_id=entry.event_id, status=DiscardReview.Status.DONE, table__in=_tables(entry)
        )
        .select_related("table__round")
        .order_by("-table__round__number", "table_id", "-created_at", "-pk")
    )
    games = []
    for review in _latest_per_table(reviews):
        data = review.review or {}
        entries = data.get("entries") or []
        if entry.pk not in entries:
            continue
        me = entries.index(entry.pk)
        totals = next((t for t in data.get("totals", []) if t["player"] == me), None)
        if totals is None or not totals["decisions"]:
            continue
        mine = [d for d in data.get("decisions", []) if d["player"] == me and d["cost"] > 0]
        mine.sort(key=lambda d: (-d["cost"], d["deal"]))
        games.append(
            PlayerGameReview(
                game=review.table.round.number,
                given_away=totals["given_away"],
                decisions=totals["decisions"],
                best_choices=totals["best_choices"],
                costliest=[_decision(d) for d in mine[:COSTLIEST]],
            )
        )
    return games


def _tables(entry):
    from django.db.models import Q

    from tournaments.models import Table

    return Table.objects.filter(round__event_id=entry.event_id).filter(
        Q(seat_a=entry) | Q(seat_b=entry)
    )


@dataclass(frozen=True, slots=True)
class MissedPoints:
    """One player's expected points given away at the discard over the event's reviews."""

    entry_id: int
    name: str
    given_away: float
    decisions: int
    games: int

    @property
    def per_discard(self) -> float:
        """Points given away per reviewed discard."""
        return self.given_away / self.decisions if self.decisions else 0.0


def missed_points_leaders(event, limit: int = 10) -> list[MissedPoints]:
    """The event's players by expected points given away at the discard, most first."""
    reviews = DiscardReview.objects.filter(event=event, status=DiscardReview.Status.DONE).order_by(
        "table_id", "-created_at", "-pk"
    )
    sums: dict[int, list[float]] = {}
    for review in _latest_per_table(reviews):
        data = review.review or {}
        for index, entry_id in enumerate(data.get("entries") or []):
            totals = next((t for t in data.get("totals", []) if t["player"] == index), None)
            if entry_id is None or totals is None or not totals["decisions"]:
                continue
            row = sums.setdefault(entry_id, [0.0, 0, 0])
            row[0] += totals["given_away"]
            row[1] += totals["decisions"]
            row[2] += 1
    from tournaments.models import entry_names

    names = entry_names(event.entries.filter(pk__in=list(sums)))
    leaders = [
        MissedPoints(pk, names.get(pk, "?"), round(row[0], 2), int(row[1]), int(row[2]))
        for pk, row in sums.items()
        if pk in names
    ]
    leaders.sort(key=lambda m: (-m.given_away, m.name))
    return leaders[:limit]
