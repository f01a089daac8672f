"""Scale out: two app servers and two Celery workers, one PostgreSQL and one Redis.

Every part runs as its own process, as on separate hosts: app servers A and B (gunicorn
``config.wsgi``, one worker each, on two ports) and two workers that split the queues (one
``-Q standings``, the other ``-Q printables,seasons,imports,celery``), all pointed at the test
database and at the Redis of CELERY_BROKER_URL / REDIS_URL. Nothing may live in one process:

- a player reports on A, the opponent confirms on B;
- the TD signs in on B and the same browser session works on A (one host name behind a load
  balancer: the cookie goes to whichever node answers, so sessions live in PostgreSQL);
- the TD sees the result on B's game page and results desk; B's public standings have it once
  the standings worker has run;
- a PDF set asked for on A is built by the printables worker and downloaded from B.

The app servers run with DEBUG on only so static files need no collectstatic; everything else
is the production shape. Deadlines bound the waits; no timing is asserted.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
import requests
from django.conf import settings
from django.db import connection

from tests.conftest import require_service
from tests.factories import UserFactory, event_with_field
from tournaments import services

pytestmark = [
    pytest.mark.services,
    pytest.mark.real_worker,
    pytest.mark.django_db(transaction=True),
]

ROOT = Path(__file__).resolve().parents[1]
START_WITHIN = 40.0  # seconds for four processes to come up on a busy two-core machine
DONE_WITHIN = 40.0  # seconds for a worker's job to land
TD_PASSWORD = "scale-out-pass-4412"


def free_port(taken: set[int]) -> int:
    """A free local port not in ``taken``; from TEST_PORTS=lo-hi when set (a shared machine's
    own range), else any the system gives."""
    low, _, high = os.environ.get("TEST_PORTS", "0-0").partition("-")
    for port in range(int(low), int(high or low) + 1):
        if port in taken:
            continue
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            found: int = sock.getsockname()[1]
            taken.add(found)
            return found
    raise AssertionError(f"no free port in TEST_PORTS={os.environ['TEST_PORTS']}")


def redis_answers(url: str) -> bool:
    if not url.startswith("redis://"):
        return False
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except redis.RedisError:
        return False


class Cluster:
    """The processes of a two-node deployment, with their logs."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        db = connection.settings_dict
        self.env = os.environ | {
            # The test database pytest-django made: every process shares it.
            "DATABASE_URL": (
                f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
                f"/{db['NAME']}"
            ),
            "CELERY_BROKER_URL": settings.BROKER_FROM_ENV,
            "REDIS_URL": settings.CACHES["default"]["LOCATION"],
            "SECRET_KEY": "scale-out-shared-secret-key-for-every-node-0123456789",
            "DEBUG": "1",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DB_POOL_MAX": "3",
            "LOG_LEVEL": "WARNING",
        }
        self.procs: dict[str, subprocess.Popen] = {}
        self.urls: dict[str, str] = {}
        suffix = f"{os.getpid()}.scaleout"
        self.workers = {"standings": f"standings-{suffix}", "others": f"others-{suffix}"}

    def _start(self, name: str, args: list[str]) -> None:
        log = open(self.tmp / f"{name}.log", "w")  # noqa: SIM115 (closed with the process)
        self.procs[name] = subprocess.Popen(
            [sys.executable, "-m", *args],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )

    def start(self) -> None:
        taken: set[int] = set()
        for node in ("A", "B"):
            port = free_port(taken)
            self.urls[node] = f"http://127.0.0.1:{port}"
            self._start(
                f"app-{node}",
                # Two gunicorns on one host: each would claim the same control socket.
                [
                    *("gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}", "-w", "1"),
                    "--no-control-socket",
                ],
            )
        queues = {"standings": "standings", "others": "printables,seasons,imports,celery"}
        for role, hostname in self.workers.items():
            self._start(
                f"worker-{role}",
                [
                    *("celery", "-A", "config", "worker", "--pool", "solo"),
                    *("-Q", queues[role], "-n", f"{hostname}@%h"),
                    *("--without-gossip", "--without-mingle", "--loglevel", "INFO"),
                ],
            )

    def logs(self) -> str:
        return "".join(
            f"\n--- {log.name}:\n{log.read_text()[-2500:]}"
            for log in sorted(self.tmp.glob("*.log"))
        )

    def wait_for(self, what: str, ready: Callable[[], object], within: float) -> object:
        """Poll ``ready`` until it returns something truthy; fail with every log if not."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            for name, proc in self.procs.items():
                if proc.poll() is not None:
                    raise AssertionError(f"{name} exited ({proc.returncode}){self.logs()}")
            try:
                answer = ready()
            except requests.RequestException:
                answer = None
            if answer:
                return answer
            time.sleep(0.25)
        raise AssertionError(f"{what}: not within {within:.0f} s{self.logs()}")

    def wait_until_up(self) -> None:
        from config.celery import app

        for node, url in self.urls.items():
            self.wait_for(
                f"app server {node} ready",
                lambda url=url: requests.get(f"{url}/readyz", timeout=2).status_code == 200,
                START_WITHIN,
            )
        expected = set(self.workers.values())

        def both_workers_answer() -> bool:
            replies = app.control.ping(timeout=1.0)
            answered = {name.split("@")[0] for reply in replies for name in reply}
            return expected <= answered

        self.wait_for("both workers answer a ping", both_workers_answer, START_WITHIN)

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


@pytest.fixture
def cluster(transactional_db, tmp_path) -> Iterator[Cluster]:
    """Two app servers and two workers; stopped before the test database is flushed."""
    require_service("PostgreSQL", connection.vendor == "postgresql", "set DATABASE_URL")
    require_service(
        "Redis broker",
        redis_answers(settings.BROKER_FROM_ENV),
        "set CELERY_BROKER_URL=redis://127.0.0.1:6379/0",
    )
    require_service(
        "Redis cache",
        "RedisCache" in settings.CACHES["default"]["BACKEND"]
        and redis_answers(settings.CACHES["default"]["LOCATION"]),
        "set REDIS_URL=redis://127.0.0.1:6379/1",
    )
    from config.celery import app

    app.control.purge()  # messages of an earlier run are for events that no longer exist
    running = Cluster(tmp_path)
    try:
        running.start()
        running.wait_until_up()
        yield running
    finally:
        running.stop()


def sign_in(browser: requests.Session, base: str, username: str, password: str) -> None:
    """The TD's browser signs in through the login page (CSRF cookie and token included)."""
    browser.get(f"{base}/accounts/login/", timeout=10).raise_for_status()
    response = browser.post(
        f"{base}/accounts/login/",
        data={
            "username": username,
            "password": password,
            "csrfmiddlewaretoken": browser.cookies["csrftoken"],
        },
        allow_redirects=False,
        timeout=10,
    )
    assert response.status_code == 302, response.text[:500]
    assert "sessionid" in browser.cookies


def test_two_app_servers_and_two_workers_share_everything(cluster):
    a, b = cluster.urls["A"], cluster.urls["B"]
    from results import services as results_services

    td = UserFactory(username="td-scale", password=TD_PASSWORD)
    event = event_with_field(4)
    event.club.directors.add(td)
    table = services.draw_next_game(event).tables.order_by("number").first()
    winner = table.seat_a
    key_winner = results_services.key_for(table.seat_a).key
    key_loser = results_services.key_for(table.seat_b).key
    where = {"game": 1, "table": table.number}

    # A player reports on A; the opponent confirms on B.
    reported = requests.post(
        f"{a}/api/v1/results/report",
        json={"key": key_winner, "winner": "me", "loser_score": 88, **where},
        timeout=10,
    )
    assert reported.status_code == 201 and reported.json()["state"] == "pending", reported.text
    confirmed = requests.post(
        f"{b}/api/v1/results/confirm",
        json={"key": key_loser, "winner": "opponent", "loser_score": 88, **where},
        timeout=10,
    )
    assert confirmed.status_code == 201, confirmed.text
    assert confirmed.json()["state"] == "confirmed"

    # The TD signs in on B and sees the result on B's game page and results desk.
    browser = requests.Session()
    sign_in(browser, b, "td-scale", TD_PASSWORD)
    game_page = browser.get(f"{b}/td/events/{event.pk}/games/1/?show=all", timeout=10)
    assert game_page.status_code == 200
    assert f"✓ {winner.player.name}" in game_page.text
    desk = browser.get(f"{b}/td/events/{event.pk}/results/", timeout=10)
    assert desk.status_code == 200 and f"1/{table.number}" in desk.text

    # B's public standings have it once the standings worker has run.
    def standings_on_b() -> dict | None:
        rows = requests.get(f"{b}/api/v1/events/{event.pk}/standings/", timeout=10).json()
        rows = rows.get("results", rows) if isinstance(rows, dict) else rows
        return next((r for r in rows if r["entry"] == winner.pk and r["games_won"] == 1), None)

    row = cluster.wait_for("B's public standings include the result", standings_on_b, DONE_WITHIN)
    assert (row["rank"], row["games_won"], row["spread"]) == (1, 1, 33)

    # The same browser (one host name: its cookie goes to every node) asks A for the PDF set.
    asked = browser.post(
        f"{a}/td/events/{event.pk}/results/print/",
        data={"csrfmiddlewaretoken": browser.cookies["csrftoken"]},
        allow_redirects=False,
        timeout=10,
    )
    assert asked.status_code == 302, asked.text[:500]
    job_path = asked.headers["Location"]
    assert re.fullmatch(rf"/td/events/{event.pk}/results/print/\d+/", job_path), job_path

    def pdf_from_b() -> bytes | None:
        got = browser.get(f"{b}{job_path}?download=1", timeout=10)
        if got.headers.get("Content-Type") == "application/pdf":
            return got.content
        return None

    pdf = cluster.wait_for("the PDF set is downloadable from B", pdf_from_b, DONE_WITHIN)
    assert isinstance(pdf, bytes) and pdf.startswith(b"%PDF")

    # Each kind of work ran on the worker of its queue.
    from django_celery_results.models import TaskResult

    ran_on = {
        (task.task_name, (task.worker or "").split("@")[0])
        for task in TaskResult.objects.filter(
            task_name__in=["scoring.recompute_standings", "results.build_printables"]
        )
    }
    assert ("scoring.recompute_standings", cluster.workers["standings"]) in ran_on, ran_on
    assert ("results.build_printables", cluster.workers["others"]) in ran_on, ran_on
    assert all(
        host == cluster.workers["standings"]
        for name, host in ran_on
        if name == "scoring.recompute_standings"
    ), ran_on
