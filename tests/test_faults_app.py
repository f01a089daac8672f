"""Faults of the app server (issue #23): a gunicorn worker killed mid-request, the app's
database connections terminated again and again. The phone sends again a request that died
or was answered 503 (Retry-After), as the player's page does: nothing is lost, nothing is
counted twice, no answer is a 500, and gunicorn has replaced a killed worker. The production
shape: gunicorn (2 workers, DEBUG off) on PostgreSQL."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
import requests
from django.db import connection

from results import services as result_services
from results.models import Submission
from tests.conftest import require_service
from tests.factories import event_with_field
from tournaments import services

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[1]
TABLES = 40
APP_NAME = "pegboard-app-fault-test"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(p) for p in found.stdout.split()]


@pytest.fixture
def gunicorn(tmp_path):
    require_service("PostgreSQL", connection.vendor == "postgresql", "set DATABASE_URL")
    db = connection.settings_dict
    port = _free_port()
    env = os.environ | {
        "DATABASE_URL": (
            f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        ),
        "SECRET_KEY": "fault-test-secret-key-0123456789-0123456789-0123456789",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DB_POOL_MAX": "3",
        "LOG_LEVEL": "WARNING",
        "PGAPPNAME": APP_NAME,  # libpq names the app's connections, for the fault
    }
    env.pop("CELERY_BROKER_URL", None)  # the results, not the standings, are this test's
    log = open(tmp_path / "gunicorn.log", "w")  # noqa: SIM115 (closed with the process)
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}"),
            *("-w", "2", "--no-control-socket", "--graceful-timeout", "1"),
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        try:
            if requests.get(f"{base}/readyz", timeout=2).status_code == 200:
                break
        except requests.RequestException:
            time.sleep(0.25)
    else:
        proc.kill()
        raise AssertionError((tmp_path / "gunicorn.log").read_text()[-3000:])
    yield proc, base
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()


def _kill_one_worker(proc: subprocess.Popen) -> None:
    workers = _children(proc.pid)
    assert len(workers) == 2
    os.kill(workers[0], signal.SIGKILL)  # mid-burst: one of the two is serving a report


def _terminate_connections_15_times(proc: subprocess.Popen) -> None:
    for _ in range(15):
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND application_name = %s",
                [APP_NAME],
            )
        time.sleep(1)


@pytest.mark.parametrize(
    "fault",
    [_kill_one_worker, _terminate_connections_15_times],
    ids=["gunicorn worker kill -9", "connections terminated 15 times"],
)
def test_reports_through_a_fault_of_the_app_server(gunicorn, fault, request):
    proc, base = gunicorn
    event = event_with_field(TABLES * 2, name="Killed worker night")
    round_ = services.draw_next_game(event)
    reports = []
    for table in round_.tables.exclude(seat_b=None).order_by("number"):
        for seat, winner in ((table.seat_a, "me"), (table.seat_b, "opponent")):
            key = result_services.key_for(seat).key
            reports.append(
                {"key": key, "game": 1, "table": table.number, "winner": winner, "loser_score": 90}
            )
    statuses: Counter = Counter()
    resent = 0

    def send_all() -> None:
        nonlocal resent
        with requests.Session() as phone:
            for body in reports:
                time.sleep(0.05)  # a hall's pace: the fault lands mid-burst
                for _attempt in range(20):
                    try:
                        answer = phone.post(f"{base}/api/v1/results/report", json=body, timeout=30)
                    except (requests.ConnectionError, requests.Timeout):
                        resent += 1  # the connection died with the worker: send again
                        time.sleep(0.2)
                        continue
                    statuses[answer.status_code] += 1
                    if answer.status_code in (502, 503, 504):
                        resent += 1
                        time.sleep(float(answer.headers.get("Retry-After", "1")))
                        continue
                    break

    hall = threading.Thread(target=send_all)
    hall.start()
    time.sleep(1.0)
    fault(proc)
    hall.join(180)
    assert not hall.is_alive()

    # A 503 (with Retry-After) is the answer when a retry was not safe or failed too; the
    # phone sends the report again. Never a 500.
    assert set(statuses) <= {200, 201, 503}, statuses
    per_table = Counter(
        Submission.objects.filter(table__round__event=event).values_list("table_id", "by_entry_id")
    )
    assert len(per_table) == len(reports) and set(per_table.values()) == {1}  # none lost or twice
    confirmed = event.rounds.get().tables.exclude(seat_b=None).filter(result__isnull=False).count()
    assert confirmed == TABLES
    assert proc.poll() is None and len(_children(proc.pid)) == 2  # gunicorn replaced it
    print(
        f"\n{request.node.callspec.id}: {len(reports)} reports, {sum(statuses.values())} answers "
        f"({dict(statuses)}), {resent} sent again, 0 lost, 0 twice, 0 500"
    )
