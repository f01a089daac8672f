"""The Celery app. Tasks are thin: each calls a service (HackSoft styleguide)."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pegboard.settings")

app = Celery("pegboard")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="pegboard.ping")
def ping() -> str:
    """Answer 'pong': proves a worker is consuming from the broker."""
    return "pong"
