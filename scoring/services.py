"""Writes of the scoring app: the standings table of an event, and queueing its recompute."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, F, Max, Q, Sum
from django.utils import timezone

from . import tiebreakers
from .models import Standing

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Line:
    """Running totals of one entry while the standings are built."""

    entry_id: int
    name: str
    withdrawn: bool
    game_points: int = 0
    games_won: int = 0
    games_lost: int = 0
    spread: int = 0
    skunks_won: int = 0
    skunks_suffered: int = 0
    byes: int = 0

    @property
    def games_played(self) -> int:
        return self.games_won + self.games_lost


QUEUED_FLAG_SECONDS = 300  # a lost message only delays the next run by this much
GAME_TIEBREAKERS = {"head_to_head", "buchholz", "median_buchholz", "most_recent"}


def _queued_key(event_id: int) -> str:
    return f"standings:queued:{event_id}"


def queue_standings(event_id: int) -> None:
    """Recompute the event's standings once the current transaction commits.

    Queued on commit so the job always sees the result that triggered it. With no broker
    (the embedded default) the task runs eagerly, right after the commit.
    """
    from .tasks import recompute_standings  # tasks import services: import here, not at top

    connection = transaction.get_connection()
    # One recompute per event per transaction: a TD's bulk action must not queue 50 jobs.
    if connection.in_atomic_block and any(
        getattr(callback, "standings_event_id", None) == event_id
        for _sids, callback, _robust in connection.run_on_commit
    ):
        return

    def send() -> None:
        # Coalesce across transactions: while a run is queued and not yet started, further
        # results ride on it (the run reads every result committed before it starts).
        if cache.add(_queued_key(event_id), 1, timeout=QUEUED_FLAG_SECONDS):
            try:
                recompute_standings.delay(event_id)
            except Exception:
                cache.delete(_queued_key(event_id))  # let the next result try again
                raise

    send.standings_event_id = event_id  # type: ignore[attr-defined]
    # robust: the result is committed; a broker hiccup is logged, never a 500 for the TD.
    transaction.on_commit(send, robust=True)


def build_lines(event_id: int) -> list[Line]:
    """Per-entry totals of an event from its results: two SQL aggregates (wins, losses)."""
    from tournaments.models import Entry, GameResult

    lines = {
        pk: Line(entry_id=pk, name=name, withdrawn=withdrawn)
        for pk, name, withdrawn in Entry.objects.filter(event_id=event_id).values_list(
            "pk", "player__name", "withdrawn"
        )
    }
    results = GameResult.objects.filter(table__round__event_id=event_id)
    wins = results.values("winner_id").annotate(
        points=Sum("winner_points"),
        won=Count("id"),
        plus=Sum("margin"),
        skunks=Count("id", filter=Q(skunk_level__gt=0)),
        byes=Count("id", filter=Q(kind="bye")),
    )
    for row in wins:
        line = lines[row["winner_id"]]
        line.game_points += row["points"]
        line.games_won += row["won"]
        line.spread += row["plus"]
        line.skunks_won += row["skunks"]
        line.byes += row["byes"]
    losses = (
        results.filter(loser__isnull=False)
        .values("loser_id")
        .annotate(
            points=Sum("loser_points"),
            lost=Count("id"),
            minus=Sum("margin"),
            skunked=Count("id", filter=Q(skunk_level__gt=0)),
        )
    )
    for row in losses:
        line = lines[row["loser_id"]]
        line.game_points += row["points"]
        line.games_lost += row["lost"]
        line.spread -= row["minus"]
        line.skunks_suffered += row["skunked"]
    return list(lines.values())


def recompute_standings(event_id: int) -> int:
    """Rebuild the standings table of an event from its results; returns the rows written.

    Runs under a lock on the event row, so concurrent runs for one event take turns and the
    last one to run reads every committed result (no lost update). Safe to repeat.
    """
    from tournaments.models import Event, GameResult, Round

    # From here on a new result queues a new run: this one may already have read past it.
    cache.delete(_queued_key(event_id))
    with transaction.atomic():
        event = Event.objects.select_for_update().filter(pk=event_id).first()
        if event is None:
            log.info("standings: event %s no longer exists", event_id)
            return 0
        chain = tiebreakers.validate_chain(event.tiebreakers or tiebreakers.ACC_CHAIN)
        lines = {line.entry_id: line for line in build_lines(event_id)}
        games: list[tiebreakers.Game] = []
        if GAME_TIEBREAKERS.intersection(chain):
            games = [
                tiebreakers.Game(*row)
                for row in GameResult.objects.filter(table__round__event_id=event_id).values_list(
                    "table__round__number", "winner_id", "loser_id", "winner_points", "loser_points"
                )
            ]
        context = tiebreakers.RankingContext(lines=lines, games=games, seed=event.seed)
        ranked = tiebreakers.rank(
            list(lines), chain, context, display_key=lambda e: lines[e].name.casefold()
        )
        after_game = (
            Round.objects.filter(event_id=event_id)
            .annotate(tables_n=Count("tables"), results_n=Count("tables__result"))
            .filter(tables_n=F("results_n"))
            .aggregate(n=Max("number"))["n"]
            or 0
        )
        now = timezone.now()
        Standing.objects.filter(event_id=event_id).delete()
        Standing.objects.bulk_create(
            Standing(
                event_id=event_id,
                entry_id=row.entry,
                rank=row.rank,
                tied=row.tied,
                separated_by=row.separated_by,
                game_points=line.game_points,
                games_played=line.games_played,
                games_won=line.games_won,
                games_lost=line.games_lost,
                spread=line.spread,
                skunks_won=line.skunks_won,
                skunks_suffered=line.skunks_suffered,
                byes=line.byes,
                after_game=after_game,
                computed_at=now,
            )
            for row in ranked
            for line in (lines[row.entry],)
        )
    return len(ranked)
