"""Health checks: /healthz (liveness, no database) and /readyz (database, cache, broker)."""

from __future__ import annotations

from unittest import mock

import pytest
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config import health


def test_healthz_answers_without_the_database(client):
    # No django_db mark: pytest-django makes any database access here an error.
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_readyz_checks_the_database(client):
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/readyz")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ok" and body["checks"]["database"] == "ok"
    assert [q["sql"] for q in queries.captured_queries] == ["SELECT 1"]


@pytest.mark.django_db
def test_readyz_names_the_database_when_it_fails(client):
    with mock.patch.object(health, "check_database", side_effect=RuntimeError("down")):
        response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["failing"] == ["database"]
    assert "down" not in response.content.decode()  # the error goes to the log, not the world


@pytest.mark.django_db
def test_readyz_is_503_when_the_cache_raises(client, settings):
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "x"}
    }
    with mock.patch("django.core.cache.cache.get", side_effect=ConnectionError("refused")):
        response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["cache"] and body["checks"]["database"] == "ok"


@pytest.mark.django_db
def test_readyz_checks_a_redis_broker_when_one_is_configured(client, settings):
    settings.BROKER_FROM_ENV = "redis://127.0.0.1:1/0"
    with mock.patch.object(health, "check_broker", side_effect=OSError("refused")) as probe:
        response = client.get("/readyz")
    assert probe.called and response.status_code == 503
    assert "broker" in response.json()["failing"]


@pytest.mark.django_db
def test_the_embedded_default_checks_only_the_database(client, settings):
    settings.BROKER_FROM_ENV = ""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    from django.core.cache import caches

    assert isinstance(caches["default"], LocMemCache)
    assert client.get("/readyz").json()["checks"] == {"database": "ok"}


@pytest.mark.django_db
def test_probes_pass_the_host_check_https_redirect_and_throttles(client, settings):
    """A load balancer probes a node by its address, over plain HTTP, every few seconds."""
    settings.SECURE_SSL_REDIRECT = True
    settings.ALLOWED_HOSTS = ["pegboard.example.org"]
    for _ in range(3):
        assert client.get("/healthz", HTTP_HOST="10.0.0.7:8000").status_code == 200
        assert client.get("/readyz/", HTTP_HOST="10.0.0.7:8000").status_code == 200
    assert client.get("/", HTTP_HOST="10.0.0.7:8000").status_code == 400  # pages still check
    assert client.post("/healthz").status_code == 405


@pytest.mark.services
@pytest.mark.django_db
def test_readyz_reaches_the_real_services(client):
    """With REDIS_URL and CELERY_BROKER_URL set (CI), the real cache and broker answer."""
    from tests.conftest import require_service

    require_service(
        "Redis", health.cache_is_shared() and bool(health.broker_url()), "set REDIS_URL"
    )
    response = client.get("/readyz")
    assert response.status_code == 200, response.content
    assert response.json()["checks"] == {"database": "ok", "cache": "ok", "broker": "ok"}
