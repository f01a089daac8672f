"""Health checks for load balancers and orchestrators: ``/healthz`` and ``/readyz``.

``/healthz`` (liveness) answers as soon as the process can run Python: it touches nothing
else, so a restart is never triggered by a database outage. ``/readyz`` (readiness) checks
what a request needs: the database, and the cache and the broker when they are configured
(Redis in the production shape; the embedded default has neither to check).

Both are answered by a middleware placed first, before the host check, the HTTPS redirect,
sessions and throttles: a load balancer probes each node by its own address over plain HTTP,
and a probe every few seconds must stay cheap. The bodies name parts, never errors, since the
endpoints are public; the error itself goes to the log.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable

from django.conf import settings
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse

log = logging.getLogger(__name__)

LIVENESS_PATHS = frozenset({"/healthz", "/healthz/"})
READINESS_PATHS = frozenset({"/readyz", "/readyz/"})
PROBE_TIMEOUT_SECONDS = 2.0  # a hung Redis makes the probe fail, not hang


def check_database() -> None:
    """Run ``SELECT 1`` on the default database (raises if it cannot)."""
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def cache_is_shared() -> bool:
    """Whether the cache is a service of its own (Redis), not this process's memory."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    return not isinstance(caches["default"], LocMemCache)


def check_cache() -> None:
    """One round trip to the cache (raises if the cache backend cannot answer)."""
    from django.core.cache import cache

    cache.get("pegboard:readyz")


@functools.cache
def _broker_client(url: str):  # -> redis.Redis, kept for its connection pool
    import redis

    return redis.Redis.from_url(
        url, socket_connect_timeout=PROBE_TIMEOUT_SECONDS, socket_timeout=PROBE_TIMEOUT_SECONDS
    )


def broker_url() -> str:
    """The Redis broker to probe, or "" when there is none (eager mode, another transport)."""
    url: str = getattr(settings, "BROKER_FROM_ENV", "")
    return url if url.startswith(("redis://", "rediss://")) else ""


def check_broker() -> None:
    """PING the Redis broker (raises if it does not answer)."""
    _broker_client(broker_url()).ping()


def readiness() -> dict[str, str]:
    """Every configured part with "ok" or "failing"; the failures are logged."""
    checks: dict[str, Callable[[], None]] = {"database": check_database}
    if cache_is_shared():
        checks["cache"] = check_cache
    if broker_url():
        checks["broker"] = check_broker
    states: dict[str, str] = {}
    for part, check in checks.items():
        try:
            check()
        except Exception as exc:  # any failure of a part means "not ready", never a 500
            log.warning("readyz: %s failing (%s)", part, exc)
            states[part] = "failing"
        else:
            states[part] = "ok"
    return states


def _answer(status: int, body: dict) -> JsonResponse:
    response = JsonResponse(body, status=status)
    response["Cache-Control"] = "no-store"
    return response


def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness: 200 while the process serves requests; touches no database."""
    return _answer(200, {"status": "ok"})


def readyz(request: HttpRequest) -> HttpResponse:
    """Readiness: 200 when every configured part answers, else 503 naming the failing ones."""
    states = readiness()
    failing = sorted(part for part, state in states.items() if state != "ok")
    if failing:
        return _answer(503, {"status": "unavailable", "checks": states, "failing": failing})
    return _answer(200, {"status": "ok", "checks": states})


class HealthCheckMiddleware:
    """Answer ``/healthz`` and ``/readyz`` before every other middleware (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        if path in LIVENESS_PATHS or path in READINESS_PATHS:
            if request.method not in ("GET", "HEAD"):
                return _answer(405, {"status": "method not allowed"})
            return healthz(request) if path in LIVENESS_PATHS else readyz(request)
        return self.get_response(request)
