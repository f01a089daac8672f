"""Celery tasks of the scoring app: thin wrappers around services."""

from __future__ import annotations

from celery import shared_task
from celery.signals import worker_ready
from django.db import OperationalError

from . import services


@shared_task(
    name="scoring.recompute_standings",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def recompute_standings(event_id: int) -> int:
    """Rebuild an event's standings table (idempotent; safe to retry), then queue the club's
    ratings: every changed result comes through here, and one message per standings run
    (not per result) keeps the ratings coalesced as the standings are."""
    from . import ratings

    written = services.recompute_standings(event_id)
    ratings.queue_for_event(event_id)
    return written


@shared_task(name="scoring.sweep_standings", ignore_result=True)
def sweep_standings(worker_started: bool = False) -> int:
    """Re-queue every event whose standings are behind its results (beat, every few s; and
    once when a worker starts, past the queued flags a killed worker left behind)."""
    return services.sweep_standings(worker_started=worker_started)


@worker_ready.connect
def _catch_up_on_start(sender=None, **kwargs) -> None:
    # A worker back from a crash or an outage brings every event up to date at once.
    sweep_standings.delay(worker_started=True)


@shared_task(name="scoring.recompute_season", acks_late=True)
def recompute_season(season_id: int) -> int:
    """Rebuild one season's ledgers (on demand)."""
    from . import seasons

    return seasons.recompute_season(season_id)


@shared_task(name="scoring.recompute_seasons", acks_late=True)
def recompute_seasons() -> int:
    """The nightly beat job: rebuild every current season's ledgers."""
    from . import seasons

    return sum(seasons.recompute_season(s.pk) for s in seasons.seasons_to_refresh())


@shared_task(
    name="scoring.update_ratings",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def update_ratings(club_id: int) -> str:
    """Bring a club's ratings up to date (incremental when it can; idempotent)."""
    from . import ratings

    ratings.clear_queued(club_id)
    return ratings.update_club(club_id)


@shared_task(name="scoring.recompute_ratings", acks_late=True)
def recompute_ratings(club_id: int) -> str:
    """Rate every game of a club again from scratch (the TD's button)."""
    from . import ratings

    return ratings.update_club(club_id, from_scratch=True)


@shared_task(name="scoring.crosstable_pdf", acks_late=True, ignore_result=True)
def crosstable_pdf(event_id: int, language: str, key: str) -> bool:
    """Lay out a large event's crosstable PDF into the cache (the download page waits)."""
    from .crosstable_pdf import store_pdf

    return store_pdf(event_id, language, key)
