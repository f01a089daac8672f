"""The default cache (Redis), failing open: a cache that is down is a cache miss.

Every use of the cache in the apps is an optimisation (a rendered page, a queued flag, a
throttle counter), never the only copy of anything: with Redis down a page renders, a task
is sent uncoalesced, a report goes through. So these wrappers of Django's cache log the
failure and answer as an empty cache would (``None`` / ``False``), and never raise.

The readiness probe (:mod:`config.health`) asks Django's cache directly: there a failure
is the answer.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.core.cache import cache as _cache
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

log = logging.getLogger(__name__)


def _down(operation: str, key: str, exc: Exception) -> None:
    log.warning("cache unavailable for %s %s (%s); going on without it", operation, key, exc)


def get(key: str, default: Any = None) -> Any:
    """The value at ``key``; ``default`` when absent or when the cache is down."""
    try:
        return _cache.get(key, default)
    except Exception as exc:  # the backend's own connection errors: any class
        _down("get", key, exc)
        return default


def set(key: str, value: Any, timeout: float | None) -> bool:
    """Store ``value`` at ``key`` for ``timeout`` seconds; False when the cache is down."""
    try:
        _cache.set(key, value, timeout)
    except Exception as exc:
        _down("set", key, exc)
        return False
    return True


def add(key: str, value: Any, timeout: float | None) -> bool | None:
    """Store ``value`` at ``key`` unless a value is there: True if stored, False if one was
    there, None when the cache is down (the caller cannot know, and decides)."""
    try:
        return bool(_cache.add(key, value, timeout))
    except Exception as exc:
        _down("add", key, exc)
        return None


def delete(key: str) -> bool:
    """Remove ``key``; False when the cache is down (a key with a timeout expires anyway)."""
    try:
        _cache.delete(key)
    except Exception as exc:
        _down("delete", key, exc)
        return False
    return True


def delete_many(keys: Iterable[str]) -> bool:
    """Remove every key of ``keys``; False when the cache is down."""
    keys = list(keys)
    try:
        _cache.delete_many(keys)
    except Exception as exc:
        _down("delete", ", ".join(keys[:3]) + (", ..." if len(keys) > 3 else ""), exc)
        return False
    return True


def count(key: str, window: int) -> int | None:
    """Add one to the counter at ``key`` and return it; the counter starts with the first
    call and is gone ``window`` seconds later (a fixed window). None when the cache is down."""
    try:
        backend = caches["default"]
        if isinstance(backend, RedisCache):
            return _redis_count(backend, key, window)
        _cache.add(key, 0, timeout=window)
        try:
            return int(_cache.incr(key))
        except ValueError:  # the window closed between add and incr
            _cache.set(key, 1, timeout=window)
            return 1
    except Exception as exc:
        _down("count", key, exc)
        return None


def _redis_count(backend: RedisCache, key: str, window: int) -> int:
    """:func:`count` in one round trip to Redis (Django's add and incr take three: SET NX,
    EXISTS, INCRBY), atomic too: the window cannot close between the two commands."""
    name = backend.make_and_validate_key(key)
    # Django's client of the connection pool (not in its stubs): the same pool as its calls.
    client = backend._cache.get_client(name, write=True)  # type: ignore[attr-defined]
    pipe = client.pipeline()  # MULTI ... EXEC
    pipe.set(name, 0, ex=window, nx=True)
    pipe.incr(name)
    return int(pipe.execute()[1])
