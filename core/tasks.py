"""Core's tasks: the worker smoke test's ping."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="pegboard.ping")
def ping() -> str:
    """Answer 'pong': proves a worker is consuming from the broker."""
    return "pong"
