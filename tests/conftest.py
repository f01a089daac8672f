"""Shared test set-up: hypothesis profiles, eager Celery by default, service checks."""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}

hypothesis_settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.register_profile("dev", deadline=None)
hypothesis_settings.load_profile("ci" if IN_CI else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def require_service(name: str, available: bool, how: str) -> None:
    """Skip a test whose service is missing, except under CI=true where that is a failure."""
    if available:
        return
    message = f"{name} is not available ({how})"
    if IN_CI:
        pytest.fail(f"{message}: CI must run this test, not skip it.")
    pytest.skip(message)


@pytest.fixture(autouse=True)
def eager_celery(request):
    """Run tasks in-process unless the test asks for a real worker.

    Even when CELERY_BROKER_URL is set (CI), an ordinary test must not leave messages on the
    real broker for a later worker to pick up.
    """
    from pegboard.celery import app

    if request.node.get_closest_marker("real_worker"):
        yield
        return
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = before


@pytest.fixture(autouse=True)
def default_language():
    """Every test starts and ends in English: a request in Romanian (?lang=ro) leaves its
    language active in the thread, and a service called after it would answer in Romanian."""
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def td_user(db):
    from tests.factories import UserFactory

    return UserFactory(username="director")
