"""Celery tasks of the results app: thin wrappers around services."""

from __future__ import annotations

from celery import shared_task

from . import printables


@shared_task(name="results.build_printables", acks_late=True)
def build_printables(job_id: int) -> int:
    """Build an event's PDF set (score cards, table cards, seating list)."""
    return printables.build(job_id).done
