"""Shared test set-up: hypothesis profiles, the test tiers, eager Celery by default, an empty
cache per test, service checks and the fixtures many modules share (``td_user``, ``td_client``,
``api``, ``night``).

The tiers (README, "Tests"): a test is ``e2e`` (a real browser), ``services`` (PostgreSQL, Redis
or a real worker) or ``slow`` (fuzzing, fault injection, scale-out, long property runs); the
rest is the fast tier that ``make test`` runs. The markers are given here by where a test lives
(``tests/e2e``, ``SLOW_MODULES``, ``SERVICE_MODULES``) and by what it asks for
(``real_worker``), so a new test in such a module lands in its tier without being marked.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}

hypothesis_settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.register_profile("dev", deadline=None)
hypothesis_settings.load_profile("ci" if IN_CI else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


# Modules of the slow tier, by path under tests/ (``make test-slow``).
SLOW_MODULES = frozenset(
    {
        "test_api_fuzz.py",  # schemathesis over every endpoint
        "test_api_fuzz_td.py",
        "games/test_engines_fuzz.py",  # hypothesis on the engines' whole inputs
        "scoring/test_faults.py",  # a real worker killed, Redis stopped
        "test_faults_app.py",  # gunicorn's worker killed, its connections terminated
        "test_scaleout.py",  # two gunicorns and two workers
    }
)
# Modules of the services tier whose tests ask for PostgreSQL itself (require_service).
SERVICE_MODULES = frozenset({"results/test_results_concurrency.py"})
TESTS_DIR = Path(__file__).parent


# Modules that build something costly when imported, with the tier markers their tests carry:
# the schemathesis modules generate the whole OpenAPI schema at import (half a minute of
# `make test` collecting tests it then deselects). Schemathesis's lazy schema
# (``from_fixture``) does not run on pytest 9, so such a module is not even imported when the
# -m expression cannot select its tests.
COSTLY_IMPORTS = {"test_api_fuzz.py": {"slow"}, "test_api_fuzz_td.py": {"slow"}}


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Leave out a module of ``COSTLY_IMPORTS`` that ``-m`` would deselect whole."""
    expression = config.getoption("markexpr")
    try:
        relative = collection_path.resolve().relative_to(TESTS_DIR).as_posix()
    except ValueError:
        return None
    marks = COSTLY_IMPORTS.get(relative)
    if not expression or marks is None:
        return None
    from _pytest.mark.expression import Expression

    if Expression.compile(expression).evaluate(lambda name, **kwargs: name in marks):
        return None
    return True


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test with its tier: ``e2e`` under tests/e2e, ``services`` when it needs a
    real worker or is in ``SERVICE_MODULES``, ``slow`` in ``SLOW_MODULES``."""
    for item in items:
        where = Path(str(item.path)).resolve()
        try:
            relative = where.relative_to(TESTS_DIR).as_posix()
        except ValueError:
            continue
        if relative.startswith("e2e/"):
            item.add_marker(pytest.mark.e2e)
        if item.get_closest_marker("real_worker") or relative in SERVICE_MODULES:
            item.add_marker(pytest.mark.services)
        if relative in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)


class QuickPasswordHasher(PBKDF2PasswordHasher):
    """PBKDF2 with 1,000 iterations instead of Django's 1,000,000: every ``td_user`` and every
    sign-in hashed a password for half a second of CPU. The algorithm and the stored format
    are Django's own (the iterations are stored in the hash), so the app servers the slow tier
    starts as subprocesses check these passwords with their default hashers too."""

    iterations = 1_000


def pytest_configure(config: pytest.Config) -> None:
    settings.PASSWORD_HASHERS = ["tests.conftest.QuickPasswordHasher"]


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
    from config.celery import app

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


@pytest.fixture(autouse=True)
def empty_cache():
    """Every test starts with an empty cache, as it starts with an empty database.

    The cache outlives a test's rolled-back transaction, and SQLite hands the rolled-back ids
    out again: a later test's event 1 would read the earlier event 1's cached language, its
    rendered standings or its throttle counts (PostgreSQL never reuses an id, so only the
    embedded default showed it, and only in some orders).
    """
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture
def td_user(db):
    from tests.factories import UserFactory

    return UserFactory(username="director")


@pytest.fixture
def td_client(client, td_user):
    """A browser session signed in as the TD."""
    client.force_login(td_user)
    return client


@pytest.fixture
def api():
    """An anonymous API client (the cache, and so the per-client throttles, start empty)."""
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def night(td_user):
    """A 4-player club night the TD runs, game 1 drawn: ``(event, table, key_a, key_b)``,
    the first table and its two players' private keys."""
    from results import services as result_services
    from tests.factories import event_with_field
    from tournaments import services

    event = event_with_field(4)
    event.club.directors.add(td_user)
    table = services.draw_next_game(event).tables.order_by("number").first()
    key_a = result_services.key_for(table.seat_a).key
    key_b = result_services.key_for(table.seat_b).key
    return event, table, key_a, key_b
