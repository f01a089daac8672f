"""The fail-open cache (core.cache): a cache that is down answers as an empty one."""

from __future__ import annotations

import pytest
from django.core.cache import cache as django_cache

from core import cache


@pytest.fixture
def fresh():
    django_cache.clear()
    yield
    django_cache.clear()


@pytest.fixture
def down(monkeypatch):
    def refuse(*args, **kwargs):
        raise ConnectionError("Redis is down")

    for name in ("get", "set", "add", "incr", "delete", "delete_many"):
        monkeypatch.setattr(django_cache, name, refuse)
    monkeypatch.setattr(cache, "_redis_count", refuse)  # Redis's own one-trip counter


def test_with_the_cache_up_it_is_the_cache(fresh):
    assert cache.get("k") is None and cache.get("k", "d") == "d"
    assert cache.set("k", 1, 60) is True and cache.get("k") == 1
    assert cache.add("k", 2, 60) is False and cache.add("j", 2, 60) is True
    assert cache.delete("k") is True and cache.get("k") is None
    assert cache.delete_many(["j"]) is True and cache.get("j") is None


def test_counting_in_a_window(fresh):
    assert [cache.count("c", window=60) for _ in range(3)] == [1, 2, 3]


def test_with_the_cache_down_nothing_raises_and_it_answers_as_an_empty_one(down, caplog):
    assert cache.get("k") is None and cache.get("k", "d") == "d"
    assert cache.set("k", 1, 60) is False
    assert cache.add("k", 1, 60) is None  # neither added nor found: the caller decides
    assert cache.delete("k") is False and cache.delete_many(["a", "b"]) is False
    assert cache.count("c", window=60) is None
    assert "cache unavailable for count c" in caplog.text


def redis_cache(location: str) -> dict:
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": location,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }


def test_a_redis_counter_that_cannot_be_reached_fails_open(settings, caplog):
    # Port 1: refused at once. The one-round-trip path fails open like the others.
    settings.CACHES = redis_cache("redis://127.0.0.1:1/0")
    assert cache.count("c", window=60) is None
    assert "cache unavailable for count c" in caplog.text


@pytest.mark.services
def test_a_redis_counter_is_one_round_trip_with_its_window(settings):
    """With REDIS_URL (CI): one MULTI/EXEC per count, the window set by the first."""
    import os

    from django.core.cache import caches

    from tests.conftest import require_service

    url = os.environ.get("REDIS_URL", "")
    require_service("Redis", bool(url), "set REDIS_URL")
    settings.CACHES = redis_cache(url)
    backend = caches["default"]
    backend.delete("c")
    sent = []
    client = backend._cache.get_client(write=True)
    pipeline = type(client.pipeline())
    execute = pipeline.execute

    def counted(self, *args, **kwargs):
        sent.append(len(self.command_stack))
        return execute(self, *args, **kwargs)

    pipeline.execute = counted
    try:
        assert [cache.count("c", window=60) for _ in range(3)] == [1, 2, 3]
    finally:
        pipeline.execute = execute
    assert sent == [2, 2, 2]  # SET NX EX and INCR, sent together each time
    assert backend.get("c") == 3
    name = backend.make_and_validate_key("c")
    assert 0 < backend._cache.get_client(name).ttl(name) <= 60
    backend.delete("c")
