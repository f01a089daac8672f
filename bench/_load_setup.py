"""What ``bench/load.py`` stands on: the server it starts, the event it builds, the reports it
sends (as files wrk reads), the in-process query counts and the worker's stopwatch."""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
BENCH = Path(__file__).resolve().parent

PG = "postgres://postgres@127.0.0.1:5432"
DB_NAME = "pegboard_load"
TEMPLATE = "pegboard_bench_template"  # migrated and empty, kept between runs
BROKER = "redis://127.0.0.1:6379/10"
CACHE = "redis://127.0.0.1:6379/11"
REPORT_API = "/api/v1/results/report"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """gunicorn (2 workers), a Celery worker (timed, ``bench/_worker.py``) and beat on
    loopback: the production shape."""

    def __init__(self, env: dict[str, str], log_dir: Path):
        self.env = env
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_dir = log_dir
        self.task_log = log_dir / "tasks.log"
        self.procs: list[subprocess.Popen] = []

    def start(self) -> None:
        def spawn(name: str, args: list[str]) -> None:
            log = open(self.log_dir / f"{name}.log", "w")  # noqa: SIM115 (closed with the process)
            self.procs.append(
                subprocess.Popen(args, cwd=ROOT, env=self.env, stdout=log, stderr=log)
            )

        py = sys.executable
        spawn(
            "gunicorn",
            [
                *(py, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{self.port}"),
                *("--workers", "2", "--backlog", "256"),
                "--no-control-socket",  # gunicorn 27's one per-user socket: no clash with another
            ],
        )
        self.task_log.touch()
        spawn("worker", [py, str(BENCH / "_worker.py"), str(self.task_log)])
        spawn(
            "beat",
            [
                *(py, "-m", "celery", "-A", "config", "beat", "--loglevel", "WARNING"),
                *("--schedule", str(self.log_dir / "celerybeat-schedule")),
            ],
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.3)
        raise SystemExit(f"gunicorn did not start; see {self.log_dir}/gunicorn.log")

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()


def migrations_fingerprint() -> str:
    """A hash of every migration file: the migrated template is reused while it holds."""
    digest = hashlib.sha1()
    for path in sorted(ROOT.glob("**/migrations/*.py")):
        if ".venv" not in path.parts:
            digest.update(str(path.relative_to(ROOT)).encode() + path.read_bytes())
    return digest.hexdigest()


def prepare_database(env: dict[str, str]) -> None:
    """A scratch database of the bench's own, new every run, and empty Redis databases.

    It is copied from a template database with the migrations applied and nothing else
    (``TEMPLATE``, made again when a migration file changes): migrating from nothing takes
    a minute or more of a 6-minute bench, copying the template a second."""
    import psycopg
    import redis

    fingerprint = f"bench-migrations:{migrations_fingerprint()}"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        found = conn.execute(
            "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
            [TEMPLATE],
        ).fetchone()
        if found is None or found[0] != fingerprint:
            print("migrating the template database ...", file=sys.stderr)
            conn.execute(f"DROP DATABASE IF EXISTS {TEMPLATE} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {TEMPLATE}")
            subprocess.run(
                [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
                cwd=ROOT,
                env=env | {"DATABASE_URL": f"{PG}/{TEMPLATE}"},
                check=True,
            )
            conn.execute(f"COMMENT ON DATABASE {TEMPLATE} IS '{fingerprint}'")
        conn.execute(f"CREATE DATABASE {DB_NAME} TEMPLATE {TEMPLATE}")
    for url in (BROKER, CACHE):
        redis.Redis.from_url(url).flushdb()
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def build(players: int, games: int, open_games: int, name: str):
    """The event (``_field.build_event``), published, its standings computed once."""
    from _field import build_event

    from scoring.models import Standing, StandingsSnapshot
    from scoring.services import recompute_standings
    from tournaments.services import analyze

    event = build_event(players, games, open_games=open_games, name=name)
    event.standings_published = True
    event.save(update_fields=["standings_published"])
    recompute_standings(event.pk)
    # The first recompute wrote every snapshot at once: measure with the statistics
    # autovacuum would have a minute later, not the empty ones.
    analyze(Standing, StandingsSnapshot)
    return event


class Report(NamedTuple):
    """One player's report of an open table: ``winner`` is "me" or "opponent"."""

    key: str
    game: int
    table: int  # the table's number in its game (the API's)
    table_pk: int  # the form's hidden field
    winner: str
    score: int


def report_items(event, games: int, *, only: int = 0, lag: int = 200) -> list[Report]:
    """Every report the open games (or game ``only``) can take, each once: each table's
    first player reports a win, the opponent confirms it ``lag`` reports later (more than the
    clients in flight, so a confirmation comes after its first report): half the reports
    write a confirmed result."""
    from results.services import keys_for
    from tournaments.models import Table

    keys = keys_for(list(event.entries.all()))
    rng = random.Random(5 + only)
    first, second = [], []
    tables = Table.objects.filter(round__event=event, round__number__gt=games)
    if only:
        tables = tables.filter(round__number=only)
    tables = tables.select_related("round")
    for t in tables.order_by("round__number", "number"):
        score = rng.randint(60, 120)
        n = t.round.number
        first.append(Report(keys[t.seat_a_id], n, t.number, t.pk, "me", score))
        second.append(Report(keys[t.seat_b_id], n, t.number, t.pk, "opponent", score))
    items = first[:lag]
    for i, item in enumerate(first[lag:]):
        items += [item, second[i]]
    return items + second[len(first) - lag :]


def api_body(item: Report) -> dict:
    """The report as ``POST /api/v1/results/report`` takes it."""
    return {
        "key": item.key,
        "game": item.game,
        "table": item.table,
        "winner": item.winner,
        "loser_score": item.score,
    }


def form_body(item: Report, token: str = "") -> dict:
    """The report as the private page's form posts it (``token``: its csrfmiddlewaretoken)."""
    body = {"action": "report", "table": item.table_pk, "winner": item.winner}
    body |= {"loser_score": item.score, "record": ""}
    return {"csrfmiddlewaretoken": token, **body} if token else body


def write_requests(path: Path, items: list[Report], tokens: dict | None = None) -> Path:
    """The file ``bench/wrk_load.lua`` reads: one request a line (method, path, content
    type, cookie, body; tab-separated). With ``tokens`` the /k/<key>/ form posts of the keys
    that have one (``key: (cookie, form token)``), else the API's JSON reports."""
    with path.open("w") as out:
        for item in items:
            if tokens is None:
                body = json.dumps(api_body(item))
                out.write(f"POST\t{REPORT_API}\tapplication/json\t\t{body}\n")
            elif item.key in tokens:
                cookie, token = tokens[item.key]
                body = urlencode(form_body(item, token))
                kind = "application/x-www-form-urlencoded"
                out.write(f"POST\t/k/{item.key}/\t{kind}\tcsrftoken={cookie}\t{body}\n")
    return path


TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def fetch_tokens(base: str, keys: list[str], pages: int = 8) -> dict[str, tuple[str, str]]:
    """CSRF cookie and form token for every key, from ``pages`` private pages fetched as a
    phone does before posting its form (the ``csrftoken`` cookie the page sets and the form's
    token), handed out to the keys in turn. Django checks the form's token against the cookie
    alone (not against the key, nor the session), so a pair costs the server the same check
    on any key's post; one page per key would cost minutes of the bench's budget."""

    def one(key: str) -> tuple[str, tuple[str, str] | None]:
        # A generous timeout: the first pages of a fresh server on a busy machine are slow.
        with urllib.request.urlopen(f"{base}/k/{key}/", timeout=300) as response:
            page = response.read().decode()
            cookies = response.headers.get_all("Set-Cookie") or []
        cookie = next((c.split(";")[0].split("=", 1)[1] for c in cookies if "csrftoken=" in c), "")
        token = TOKEN.search(page)
        return key, (cookie, token.group(1)) if cookie and token else None

    with ThreadPoolExecutor(4) as pool:
        pairs = [found for _, found in pool.map(one, keys[:pages]) if found]
    if not pairs:
        raise SystemExit("no CSRF token on the private pages: see the server logs")
    return {key: pairs[n % len(pairs)] for n, key in enumerate(keys)}


def reset_reports(event, games: int) -> None:
    """Take back every report of the open games (between runs), and the per-key throttles."""
    import redis
    from django.db import transaction

    from results.models import Dispute, Submission
    from tournaments.hooks import results_changed
    from tournaments.models import AuditEntry, Event, GameResult

    with transaction.atomic():
        scope = {"table__round__event": event, "table__round__number__gt": games}
        Dispute.objects.filter(**scope).delete()
        Submission.objects.filter(**scope).delete()
        GameResult.objects.filter(**scope).delete()
        AuditEntry.objects.filter(event=event).delete()
        # The audit chain starts again with the log (its head is the event's).
        Event.objects.filter(pk=event.pk).update(audit_digest="")
        results_changed(event.pk)
    redis.Redis.from_url(CACHE).flushdb()


def td_cookie(event) -> str:
    """A signed-in session of the event's TD (the session lives in the database)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    user, _ = get_user_model().objects.get_or_create(username="bench-td")
    event.club.directors.add(user)
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def count_queries(method: str, path: str, *, cookie: str = "", etag: bool = False, **kwargs):
    """SQL queries and decoded KB of one request, in-process (the Django test Client on the
    bench's own database and cache, DEBUG=0 as the server runs). A GET is asked twice and the
    second counted: the steady state the row measures (its cache filled by the first)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")
    if cookie:
        client.cookies["sessionid"] = cookie
    send = getattr(client, method.lower())
    if method == "GET":
        first = send(path, **kwargs)
        if etag and first.get("ETag"):
            kwargs["headers"] = {"If-None-Match": first["ETag"]}
    with CaptureQueriesContext(connection) as queries:
        response = send(path, **kwargs)
    body = b"".join(response) if response.streaming else response.content
    return len(queries), len(body) / 1024, response.status_code


def task_log_size(server: Server) -> int:
    return server.task_log.stat().st_size


def worker_times(server: Server, since: int, *, settle: float = 2.0, limit: float = 20.0):
    """Seconds and runs of each task the worker finished after byte ``since`` of its task
    log, once the worker has been idle ``settle`` seconds (at most ``limit``)."""
    deadline = time.monotonic() + limit
    size, quiet_since = task_log_size(server), time.monotonic()
    while time.monotonic() < deadline and time.monotonic() - quiet_since < settle:
        time.sleep(0.25)
        if task_log_size(server) != size:
            size, quiet_since = task_log_size(server), time.monotonic()
    totals: dict[str, list[float]] = {}
    with server.task_log.open() as log:
        log.seek(since)
        for line in log:
            _, name, seconds, _state = line.split()
            totals.setdefault(name, []).append(float(seconds))
    return {name: (sum(t), len(t)) for name, t in sorted(totals.items())}
