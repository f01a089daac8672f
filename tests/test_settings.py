"""The one settings module: the embedded default and the real deployment from the environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from tests.conftest import IN_CI

ROOT = Path(__file__).resolve().parent.parent
PROBE = (
    "import json, django; django.setup(); from django.conf import settings; "
    "from config.celery import app; db = settings.DATABASES['default']; "
    "print(json.dumps({'engine': db['ENGINE'], 'name': str(db['NAME']), "
    "'pool': 'pool' in db.get('OPTIONS', {}), 'eager': app.conf.task_always_eager, "
    "'cache': settings.CACHES['default']['BACKEND']}))"
)


def settings_with(env: dict[str, str]) -> dict:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "DEBUG", "SECRET_KEY"}
    }
    clean.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_embedded_default_is_sqlite_and_eager_celery():
    found = settings_with({})
    assert found["engine"] == "django.db.backends.sqlite3"
    assert found["name"].endswith("var/pegboard.sqlite3")
    assert found["eager"] is True
    assert found["cache"].endswith("LocMemCache")


def test_environment_selects_postgresql_pool_redis_and_a_worker():
    found = settings_with(
        {
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/pegboard",
            "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
            "REDIS_URL": "redis://127.0.0.1:6379/1",
            "SECRET_KEY": "settings-probe-key-0123456789-0123456789-0123456789",
        }
    )
    assert found["engine"] == "django.db.backends.postgresql"
    assert found["pool"] is True
    assert found["eager"] is False
    assert found["cache"].endswith("RedisCache")


@pytest.mark.services
@pytest.mark.django_db
def test_ci_runs_on_postgresql_and_redis():
    """Under CI=true the suite must have run on the real services, not the embedded default."""
    from django.core.cache import caches

    if not IN_CI:
        pytest.skip("only meaningful under CI=true (.ci/run)")
    assert connection.vendor == "postgresql", "CI must run the suite on PostgreSQL"
    cache = caches["default"]
    assert type(cache).__name__ == "RedisCache", "CI must use Redis as the cache"
    cache.set("pegboard-ci-probe", "Ștefan Țurcanu", 5)
    assert cache.get("pegboard-ci-probe") == "Ștefan Țurcanu"


def test_pgbouncer_turns_off_server_side_cursors_and_django_s_pool():
    probe = (
        "import json, django; django.setup(); from django.conf import settings; "
        "db = settings.DATABASES['default']; print(json.dumps({'pool': 'pool' in "
        "db.get('OPTIONS', {}), 'ssc': db.get('DISABLE_SERVER_SIDE_CURSORS', False)}))"
    )
    env = {k: v for k, v in os.environ.items() if k not in {"DB_POOL"}}
    env |= {
        "DATABASE_URL": "postgres://postgres@127.0.0.1:6432/pegboard",
        "PGBOUNCER": "1",
        "DEBUG": "1",  # a deployment's environment without a key runs only when asked for
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"pool": False, "ssc": True}
