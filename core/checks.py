"""System checks: the parts of a deployment that must be shared between processes are."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Tags, Warning, register


@register(Tags.caches)
def cache_shared_when_processes_are(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """A real broker means several processes: their cache must be Redis, not each one's memory.

    With a process-local cache every app server keeps its own throttle counters (a player
    gets N times the allowance behind N servers) and a worker never clears the standings'
    queued markers the app servers set (every result then sends its own run).
    """
    local = str(settings.CACHES["default"]["BACKEND"]).endswith("LocMemCache")
    if settings.BROKER_FROM_ENV and local:
        return [
            Warning(
                "CELERY_BROKER_URL is set but REDIS_URL is not: the cache is per process.",
                hint="Set REDIS_URL so every app server and worker shares one cache.",
                id="pegboard.W001",
            )
        ]
    return []
