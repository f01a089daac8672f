"""Nothing lost, nothing frozen: a real worker, a Redis of the test's own and PostgreSQL, with
faults injected in the middle of a burst of results. Every acknowledged result is in the
database, and the standings equal a recompute from scratch within seconds of recovery,
with no new result and no human (the sweep and the worker's start-up catch up).

Each scenario runs the parts as separate processes, as in production: a Celery worker with
its beat (``-B``, sweeping every second) and a "hall" process reporting results one
transaction each, retrying a report the server refused the way a phone would.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
import redis
from django.db import connection

from scoring.models import StandingsSnapshot, StandingsStatus
from tests.conftest import require_service
from tests.factories import event_with_field
from tournaments import services
from tournaments.models import Event, GameResult

pytestmark = [
    pytest.mark.services,
    pytest.mark.real_worker,
    pytest.mark.django_db(transaction=True),
]

ROOT = Path(__file__).resolve().parents[2]
TABLES = 60
APP_NAME = "pegboard-fault-test"
CONVERGE_WITHIN = 10.0  # seconds after recovery (measured: 0.0-2.9 s on a quiet machine)

HALL = """
import os, sys, time
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()
from django.db import OperationalError, InterfaceError, connection
from tournaments import services
from tournaments.models import Event, Table

def retrying(step):
    # The server may drop us at any statement, the first ones included (on a loaded machine
    # the fault can come while the hall is still starting): a new connection, and again.
    for attempt in range(20):
        try:
            return step()
        except (OperationalError, InterfaceError):
            connection.close()
            time.sleep(0.25)
    return None

event = retrying(lambda: Event.objects.get(pk=int(sys.argv[1])))
delay = float(sys.argv[2])
tables = retrying(lambda: list(Table.objects.filter(round__event=event, seat_b__isnull=False)
                               .order_by("number").values_list("pk", flat=True)))

def report(table_id):
    table = Table.objects.get(pk=table_id)
    return services.record_result(event, table=table, winner=table.seat_a_id,
                                  loser_score=60 + table.number % 60)

acknowledged = 0
for table_id in tables:
    if retrying(lambda: report(table_id)) is not None:
        acknowledged += 1
    time.sleep(delay)
print("acknowledged", acknowledged, flush=True)
"""


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Parts:
    """The processes of one scenario: its own Redis, a worker with beat, the hall."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp = tmp_path
        self.port = _free_port()
        db = connection.settings_dict
        self.env = os.environ | {
            "DATABASE_URL": (
                f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
                f"/{db['NAME']}"
            ),
            "CELERY_BROKER_URL": f"redis://127.0.0.1:{self.port}/0",
            "REDIS_URL": f"redis://127.0.0.1:{self.port}/1",
            "STANDINGS_SWEEP_SECONDS": "1",
            "BROKER_VISIBILITY": "10",
            "DB_POOL_MAX": "4",
            "PGAPPNAME": APP_NAME,  # libpq names the app's connections, for the fault
        }
        self.redis: subprocess.Popen | None = None
        self.worker: subprocess.Popen | None = None
        self.started: list[subprocess.Popen] = []
        self.workers = 0

    def start_redis(self) -> None:
        self.redis = subprocess.Popen(
            [
                *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no"),
            ],
            stdout=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=1)
        for _ in range(100):
            try:
                if client.ping():
                    return
            except redis.RedisError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def stop_redis(self) -> None:
        assert self.redis is not None
        self.redis.terminate()
        self.redis.wait(10)

    def start_worker(self) -> None:
        self.workers += 1
        log = open(self.tmp / f"worker-{self.workers}.log", "w")  # noqa: SIM115
        self.worker = subprocess.Popen(
            [
                *(sys.executable, "-m", "celery", "-A", "config", "worker", "-B"),
                *("--pool", "solo", "--schedule", str(self.tmp / f"beat-{self.workers}")),
                *("--loglevel", "INFO", "--without-gossip", "--without-mingle"),
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            # Its own process group: `-B` runs beat in a child process, which a kill of the
            # worker alone would leave running (and holding the test database).
            start_new_session=True,
        )
        self.started.append(self.worker)

    def kill_worker(self) -> None:
        """kill -9 the worker and its beat, as when the host running them dies."""
        assert self.worker is not None
        _kill_group(self.worker)

    def hall(self, event_id: int, delay: float) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-c", HALL, str(event_id), str(delay)],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def close(self) -> None:
        for worker in self.started:
            _kill_group(worker)
        if self.redis is not None and self.redis.poll() is None:
            self.redis.kill()
            self.redis.wait(10)


def _kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL a process started in its own group, and every process of the group."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)


@pytest.fixture
def parts(tmp_path):
    require_service("PostgreSQL", connection.vendor == "postgresql", "set DATABASE_URL")
    require_service("redis-server", shutil.which("redis-server") is not None, "apt-get it")
    running = Parts(tmp_path)
    running.start_redis()
    yield running
    running.close()


def expected_lines(event: Event) -> dict[int, tuple[int, int, int]]:
    """Every entry's game points, games won and spread, straight from the results."""
    points: Counter = Counter()
    won: Counter = Counter()
    spread: Counter = Counter()
    for result in GameResult.objects.filter(table__round__event=event):
        points[result.winner_id] += result.winner_points
        won[result.winner_id] += 1
        spread[result.winner_id] += result.margin
        if result.loser_id:
            spread[result.loser_id] -= result.margin
    return {e: (points[e], won[e], spread[e]) for e in event.entries.values_list("pk", flat=True)}


def wait_until_converged(event: Event, since: float, parts: Parts | None = None) -> float:
    """Seconds from ``since`` until the latest snapshot equals the results (or fail)."""
    deadline = since + CONVERGE_WITHIN
    while time.monotonic() < deadline:
        event.refresh_from_db()
        status = StandingsStatus.objects.filter(event=event).first()
        snapshot = StandingsSnapshot.objects.filter(event=event).order_by("-after_game").first()
        if status is not None and status.version == event.results_version and snapshot:
            rows = {r.entry_id: (r.game_points, r.games_won, r.spread) for r in snapshot.rows.all()}
            if rows == expected_lines(event):
                return time.monotonic() - since
        time.sleep(0.2)
    logs = (
        "".join(
            f"\n--- {log.name}:\n" + log.read_text()[-3000:]
            for log in sorted(parts.tmp.glob("worker-*.log"))
        )
        if parts is not None
        else ""
    )
    raise AssertionError(f"standings still behind {CONVERGE_WITHIN:.0f} s after recovery{logs}")


def run_scenario(parts: Parts, fault, name: str, delay: float = 0.05) -> None:
    event = event_with_field(TABLES * 2)
    services.draw_next_game(event)
    parts.start_worker()
    hall = parts.hall(event.pk, delay=delay)
    time.sleep(1.0)  # mid-burst
    recovered = fault()
    out, _ = hall.communicate(timeout=180)
    assert "acknowledged" in out, f"the hall stopped before its last report:\n{out[-3000:]}"
    acknowledged = int(out.split("acknowledged")[-1].split()[0])
    saved = GameResult.objects.filter(table__round__event=event).count()
    assert acknowledged == saved == TABLES, out
    # From the recovery, or from the last report when the hall was still sending after it.
    seconds = wait_until_converged(event, max(recovered, time.monotonic()), parts)
    assert parts.worker is not None and parts.worker.poll() is None, (
        "the worker exited: " + (parts.tmp / f"worker-{parts.workers}.log").read_text()[-3000:]
    )
    print(
        f"\n{name}: {TABLES} submitted, {saved} saved, {TABLES - saved} lost; standings equal "
        f"a recompute from scratch {seconds:.1f} s after recovery"
    )


def test_the_worker_is_killed_mid_burst(parts):
    def fault() -> float:
        parts.kill_worker()
        time.sleep(3)  # a supervisor restarts it a few seconds later
        parts.start_worker()
        return time.monotonic()

    run_scenario(parts, fault, "worker kill -9")


def test_the_worker_is_down_two_minutes_while_reports_arrive(parts):
    """A night's reports keep coming (one every 1.5 s) while the worker is gone for 2 min."""

    def fault() -> float:
        parts.kill_worker()
        time.sleep(120)
        parts.start_worker()
        return time.monotonic()

    run_scenario(parts, fault, "worker down 2 min", delay=1.5)


def test_redis_stops_for_five_seconds(parts):
    def fault() -> float:
        parts.stop_redis()
        time.sleep(5)
        parts.start_redis()
        return time.monotonic()

    run_scenario(parts, fault, "Redis down 5 s")


def test_redis_stops_for_five_seconds_ten_times(parts):
    """The outage that made kombu ack on a closed channel and the worker exit for good."""

    def fault() -> float:
        for _ in range(10):
            parts.stop_redis()
            time.sleep(5)
            parts.start_redis()
            time.sleep(1)
        return time.monotonic()

    run_scenario(parts, fault, "Redis down 5 s, ten times")


def test_redis_stops_for_a_minute(parts):
    def fault() -> float:
        parts.stop_redis()
        time.sleep(60)
        parts.start_redis()
        return time.monotonic()

    run_scenario(parts, fault, "Redis down 60 s")


def _terminate_app_connections() -> list:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name = %s",
            [APP_NAME],
        )
        return cursor.fetchall()


@pytest.mark.parametrize("times", [1, 15])
def test_the_apps_database_connections_are_terminated(parts, times):
    def fault() -> float:
        # On a loaded machine the worker and the hall may still be starting after 1 s: wait
        # (up to 30 s) until their connections are there, then cut them.
        deadline = time.monotonic() + 30
        terminated: list = []
        while not terminated and time.monotonic() < deadline:
            terminated = _terminate_app_connections()
            if not terminated:
                time.sleep(0.1)
        assert terminated, "the worker's and the hall's connections were there"
        for _ in range(times - 1):  # again and again, 1 s apart
            time.sleep(1)
            _terminate_app_connections()
        return time.monotonic()

    run_scenario(
        parts, fault, f"PostgreSQL connections terminated {times} time(s)", delay=0.05 * times
    )
