"""Sending a job once for a burst of results: the standings of an event, the ratings of a club.

While a run is queued (sent, not yet started) a flag in the cache says so, and further
results ride on it: the run reads every result committed before it starts. The run clears
the flag as it starts (:func:`clear`), so a result that comes after sends a new one. The
task is sent a moment (``STANDINGS_GATHER_SECONDS``) after the first result it is for, to
gather the results that follow it into the same run.

Never raises: with the cache down every result sends its own run (correct, just not
coalesced); with the broker down nothing is sent, and the caller's sweep catches up.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

from core import cache

log = logging.getLogger(__name__)

# A lost message holds the flag at most this long; the sweep re-queues the job after it.
QUEUED_FLAG_SECONDS = 30


def flags_shared() -> bool:
    """Whether the queued flag is seen by the worker too: eager mode, or a shared cache.

    A worker with a process-local cache would never clear the web process's flag, so without
    Redis as the cache every commit sends its own run (correct, just not coalesced).
    """
    from celery import current_app as app
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    return app.conf.task_always_eager or not isinstance(caches["default"], LocMemCache)


def send_coalesced(flag: str, task: Any, args: tuple, *, countdown: float | None = None) -> bool:
    """Send ``task(*args)`` after the gather countdown (``countdown`` seconds, by default
    ``STANDINGS_GATHER_SECONDS``) unless the run ``flag`` names is already queued; True if
    sent. A cache that is down sends anyway; a broker that is down is logged
    and the flag dropped (the next result, or the sweep, sends again)."""
    if flags_shared() and cache.add(flag, 1, QUEUED_FLAG_SECONDS) is False:
        return False
    try:
        wait = settings.STANDINGS_GATHER_SECONDS if countdown is None else countdown
        task.apply_async(args, countdown=wait)
    except Exception as exc:  # the broker's own connection errors: any class
        log.warning("could not queue %s%r (%s)", task.name, args, exc)
        cache.delete(flag)
        return False
    return True


def queued(flag: str) -> bool:
    """Whether the run ``flag`` names is queued and not yet started (as far as the cache
    knows: with the cache down, False)."""
    return cache.get(flag) is not None


def clear(*flags: str) -> None:
    """Called as a run starts: from here on a new result queues a new run (this one may
    already have read past it)."""
    if flags:
        cache.delete_many(flags)
