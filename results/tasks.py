"""Celery tasks of the results app: thin wrappers around services."""

from __future__ import annotations

from celery import shared_task

from . import printables


@shared_task(name="results.build_printables", acks_late=True)
def build_printables(job_id: int) -> int:
    """Build an event's PDF set (score cards, table cards, seating list)."""
    return printables.build(job_id).done


@shared_task(name="results.run_import", acks_late=True, reject_on_worker_lost=True)
def run_import(job_id: int) -> str:
    """Import a large paper-card file (its progress on the job)."""
    from . import services

    return services.run_import_job(job_id).status


@shared_task(name="results.review_record", acks_late=True)
def review_record(submission_id: int) -> str | None:
    """Review the discards of a submission's whole-game record (``services.review``)."""
    from .services.review import review_submission

    review = review_submission(submission_id)
    return review.status if review is not None else None
