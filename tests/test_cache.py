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
