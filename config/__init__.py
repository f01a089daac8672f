"""Pegboard project package: settings, the Celery app and the URL map."""

from .celery import app as celery_app

__all__ = ["celery_app"]
