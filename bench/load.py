"""Load test of the production shape on a 1,000-player event: `make bench-load`.

    python bench/load.py [--players 1000] [--games 22] [--seconds 6] [--runs 3]
                         [--clients 1,10,50] [--rate 50] [--growth 100,1000,5000] [--json]

It starts what a club's server runs (gunicorn with 2 workers, DEBUG=0, PostgreSQL, Redis as
cache and broker, a real Celery worker) on loopback ports, builds the event in a scratch
database of its own (`pegboard_load`, dropped and made anew), and drives it with a small
asyncio client (aiohttp; bounded in time and count, 127.0.0.1 only). Every figure is the median
of RUNS runs of SECONDS each (1 client: the time to render; 10 and 50: under load, where a
request also waits for one of the 2 workers), and every rate is also printed as a ratio to the login page
measured in the same run on the same server (the baseline: a page that reads nothing of the
event). The client shares the machine's cores with the server, as it does for the baseline.

Rows: the login page and the cribbage hand API (baselines), a player's report
(`POST /api/v1/results/report`, half of them confirming the opponent's), the public event page,
the event API, the standings fragment the pages poll (rendered, and an unchanged poll that
sends its ETag), "find me", the standings API, the TD's game page, and the 24-player demo
night's event page. Then commit -> published snapshot while RATE reports a second arrive
(open loop: the bench says when it could not keep the rate), and with --growth the p50 of the
public answers at each field size with the growth exponent (0 = flat).

Needs PostgreSQL on 127.0.0.1:5432 (user postgres) and Redis on 127.0.0.1:6379 (databases 10
and 11); `.ci/run` shows how to start both.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _field import WORKER_COMMAND, percentile  # noqa: E402 (bench/ is the script's folder)

PG = "postgres://postgres@127.0.0.1:5432"
DB_NAME = "pegboard_load"
BROKER = "redis://127.0.0.1:6379/10"
CACHE = "redis://127.0.0.1:6379/11"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Run:
    """One timed run of one scenario: every answer's latency, size and status."""

    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)  # decoded bytes
    wire: list[int] = field(default_factory=list)  # bytes sent (gzip, as a browser asks)
    errors: dict[int, int] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0


@dataclass
class Row:
    """A scenario at one concurrency: the medians over its runs."""

    name: str
    clients: int
    runs: list[Run]

    def median(self, fn) -> float:
        return statistics.median(fn(r) for r in self.runs)

    @property
    def rate(self) -> float:
        return self.median(lambda r: r.rate)

    @property
    def p50(self) -> float:
        return self.median(lambda r: percentile(r.latencies, 50))

    @property
    def p95(self) -> float:
        return self.median(lambda r: percentile(r.latencies, 95))

    @property
    def size(self) -> float:
        return self.median(lambda r: statistics.median(r.sizes) if r.sizes else 0)

    @property
    def wire(self) -> float:
        return self.median(lambda r: statistics.median(r.wire) if r.wire else 0)

    @property
    def errors(self) -> dict[int, int]:
        total: dict[int, int] = {}
        for r in self.runs:
            for code, n in r.errors.items():
                total[code] = total.get(code, 0) + n
        return total


async def closed_loop(
    session, base: str, make, clients: int, seconds: float, *, before=None, etags=False
) -> Run:
    """``clients`` clients, each sending its next request as soon as the last is answered,
    for ``seconds`` (or until ``make`` has no more requests). ``before`` runs before every
    request; with ``etags`` each client sends the ETag of its last answer, as a browser does
    with a page that polls."""
    run = Run()
    stop_at = time.perf_counter() + seconds

    async def client():
        last_etag = ""
        while time.perf_counter() < stop_at:
            request = make()
            if request is None:
                return
            method, path, kwargs = request
            if etags and last_etag:
                kwargs = kwargs | {"headers": {"If-None-Match": last_etag}}
            if before is not None:
                before()
            start = time.perf_counter()
            async with session.request(method, base + path, **kwargs) as response:
                body = await response.read()
            elapsed = time.perf_counter() - start
            last_etag = response.headers.get("ETag", last_etag)
            if response.status >= 400:
                run.errors[response.status] = run.errors.get(response.status, 0) + 1
            run.latencies.append(elapsed)
            run.sizes.append(len(body))
            run.wire.append(int(response.headers.get("Content-Length", len(body))))

    start = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    run.seconds = time.perf_counter() - start
    return run


async def reports_in_background(session, base: str, requests, rate: float, stop: asyncio.Event):
    """Players' reports at ``rate`` a second until ``stop`` (not counted in any row)."""
    start = time.perf_counter()
    n = 0
    pending = set()
    while not stop.is_set():
        request = next(requests, None)
        if request is None:
            break
        method, path, kwargs = request

        async def send(method=method, path=path, kwargs=kwargs):
            async with session.request(method, base + path, **kwargs) as response:
                await response.read()

        task = asyncio.create_task(send())
        pending.add(task)
        task.add_done_callback(pending.discard)
        n += 1
        await asyncio.sleep(max(0.0, start + n / rate - time.perf_counter()))
    await asyncio.gather(*pending)


class Server:
    """gunicorn (2 workers) and a Celery worker on loopback, in the production shape."""

    def __init__(self, env: dict[str, str], log_dir: Path):
        self.env = env
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_dir = log_dir
        self.procs: list[subprocess.Popen] = []

    def start(self) -> None:
        def spawn(name: str, args: list[str]) -> None:
            log = open(self.log_dir / f"{name}.log", "w")  # noqa: SIM115 (closed with the process)
            self.procs.append(
                subprocess.Popen(args, cwd=ROOT, env=self.env, stdout=log, stderr=log)
            )

        spawn(
            "gunicorn",
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                "2",
                "--backlog",
                "256",
                "--no-control-socket",  # gunicorn 27's one per-user socket: no clash with another
            ],
        )
        spawn(
            "worker",
            WORKER_COMMAND,
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


def prepare_database(env: dict[str, str]) -> None:
    """A scratch database of the bench's own, new every run, and empty Redis databases."""
    import psycopg
    import redis

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    for url in (BROKER, CACHE):
        redis.Redis.from_url(url).flushdb()
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def report_items(event, games: int) -> list[tuple[str, int, int, str, int]]:
    """Every report the open games can take: each table's first player reports a win, the
    opponent confirms it a little later (so half the reports write a confirmed result)."""
    from results.services import keys_for
    from tournaments.models import Table

    keys = keys_for(list(event.entries.all()))
    rng = random.Random(5)
    first, second = [], []
    tables = Table.objects.filter(round__event=event, round__number__gt=games).select_related(
        "round"
    )
    for table in tables.order_by("round__number", "number"):
        score = rng.randint(60, 120)
        first.append((keys[table.seat_a_id], table.round.number, table.number, "me", score))
        second.append((keys[table.seat_b_id], table.round.number, table.number, "opponent", score))
    lag = 60  # the opponent's confirmation arrives 60 reports later
    items = first[:lag]
    for i, item in enumerate(first[lag:]):
        items += [item, second[i]]
    return items + second[len(first) - lag :]


def reset_reports(event, games: int) -> None:
    """Take back every report of the open games (between runs), and the per-key throttles."""
    import redis
    from django.db import transaction

    from results.models import Dispute, Submission
    from tournaments.hooks import results_changed
    from tournaments.models import AuditEntry, GameResult

    with transaction.atomic():
        scope = {"table__round__event": event, "table__round__number__gt": games}
        Dispute.objects.filter(**scope).delete()
        Submission.objects.filter(**scope).delete()
        GameResult.objects.filter(**scope).delete()
        AuditEntry.objects.filter(event=event).delete()
        results_changed(event.pk)
    redis.Redis.from_url(CACHE).flushdb()


def included_results(event_id: int, conn, baseline_wins: int) -> int:
    """How many of the open games' results the latest published snapshot counts."""
    row = conn.execute(
        """SELECT COALESCE(SUM(s.games_won), 0) FROM scoring_standing s
            WHERE s.snapshot_id = (SELECT id FROM scoring_standingssnapshot
                                    WHERE event_id = %s ORDER BY after_game DESC LIMIT 1)""",
        [event_id],
    ).fetchone()
    return int(row[0]) - baseline_wins


async def commit_to_snapshot(session, base, event, items, rate: float, seconds: float):
    """Open loop: RATE confirming reports a second; each one's time from its answer (the
    commit is before it) to the first published snapshot that counts it."""
    import psycopg

    from tournaments.models import GameResult

    baseline_wins = GameResult.objects.filter(table__round__event=event).count()
    firsts = [i for i in items if i[3] == "me"]
    seconds_of = {(i[1], i[2]): i for i in items if i[3] == "opponent"}
    count = min(len(firsts), int(rate * seconds))
    chosen = firsts[:count]

    body = report_request
    queue = iter(body(i) for i in chosen)
    await closed_loop(session, base, lambda: next(queue, None), 20, 600)  # the first halves

    answered: list[float] = []
    seen: list[tuple[float, int]] = []
    done = threading.Event()

    def poll():
        with psycopg.connect(f"{PG}/{DB_NAME}", autocommit=True) as conn:
            while not done.is_set():
                seen.append((time.perf_counter(), included_results(event.pk, conn, baseline_wins)))
                time.sleep(0.01)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    failures = 0

    waited: list[float] = []  # each confirming report's own response time

    async def confirm(item):
        nonlocal failures
        method, path, kwargs = body(item)
        sent = time.perf_counter()
        async with session.request(method, base + path, **kwargs) as response:
            await response.read()
            if response.status >= 400:
                failures += 1
            else:
                answered.append(time.perf_counter())
                waited.append(answered[-1] - sent)

    tasks = []
    start = time.perf_counter()
    for n, first in enumerate(chosen):
        await asyncio.sleep(max(0.0, start + n / rate - time.perf_counter()))
        tasks.append(asyncio.create_task(confirm(seconds_of[(first[1], first[2])])))
    await asyncio.gather(*tasks)
    offered_for = time.perf_counter() - start
    deadline = time.perf_counter() + 30
    while time.perf_counter() < deadline and (not seen or seen[-1][1] < len(answered)):
        await asyncio.sleep(0.05)
    done.set()
    poller.join()
    answered.sort()
    latencies = []
    for k, at in enumerate(answered, start=1):
        shown = next((t for t, n in seen if t >= at and n >= k), None)
        if shown is not None:
            latencies.append(shown - at)
    return {
        "offered_per_second": rate,
        "achieved_per_second": round(len(answered) / offered_for, 1),
        "confirmed": len(answered),
        "failed": failures,
        "never_shown": len(answered) - len(latencies),
        "p50_seconds": round(percentile(latencies, 50), 3),
        "p95_seconds": round(percentile(latencies, 95), 3),
        "report_p50_ms": round(percentile(waited, 50) * 1000, 1),
        "report_p95_ms": round(percentile(waited, 95) * 1000, 1),
    }


def td_cookie(event) -> str:
    """A signed-in session of the event's TD (the session lives in the database)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    user, _ = get_user_model().objects.get_or_create(username="bench-td")
    event.club.directors.add(user)
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def build(players: int, games: int, open_games: int, name: str):
    from _field import build_event

    from scoring.models import Standing, StandingsSnapshot
    from scoring.services import recompute_standings
    from tournaments.services import analyze

    event = build_event(players, games, open_games=open_games, name=name)
    event.standings_published = True
    event.save(update_fields=["standings_published"])
    recompute_standings(event.pk)
    # The first recompute wrote every snapshot at once (440,000 rows at 20,000 players):
    # measure with the statistics autovacuum would have a minute later, not the empty ones.
    analyze(Standing, StandingsSnapshot)
    return event


def report_request(item) -> tuple[str, str, dict]:
    key, game, table, winner, score = item
    payload = {"key": key, "game": game, "table": table, "winner": winner}
    return ("POST", "/api/v1/results/report", {"json": payload | {"loser_score": score}})


def scenarios(event, demo, games: int, cookie: str):
    """(name, request maker, options) for each row of the table. Makers named by a string
    are made per run: "reports" are consumed, "etag" is the fragment's current ETag.
    Options: ``clients`` (only these concurrencies), ``flush`` (the cache is emptied before
    every request: the cost of a render), ``etags`` and ``reports_per_second`` (pollers that
    keep their ETag while reports arrive)."""
    hand = {"hand": "5H 5C 5S JD", "starter": "5D"}

    def get(path: str, **kwargs):
        return lambda: ("GET", path, kwargs)

    e = event.pk
    fragment = f"/events/{e}/standings/"
    return [
        ("login page (baseline)", get("/accounts/login/"), {}),
        ("cribbage hand API", lambda: ("POST", "/api/v1/cribbage/hand", {"json": hand}), {}),
        ("player reports a result", "reports", {}),
        ("public event page", get(f"/events/{e}/"), {}),
        ("event detail API", get(f"/api/v1/events/{e}/"), {}),
        (
            "standings fragment, rendered (cache emptied)",
            get(fragment),
            {"clients": [1], "flush": True},
        ),
        ("standings fragment, same snapshot", get(fragment), {}),
        ("standings poll, unchanged (304)", "etag", {}),
        (
            "standings poll while 20 reports/s arrive",
            get(fragment),
            {"etags": True, "reports_per_second": 20},
        ),
        ("find me", get(f"{fragment}?find=Player 00500"), {}),
        ("standings API", get(f"/api/v1/events/{e}/standings/"), {}),
        (
            "standings API, rendered (cache emptied)",
            get(f"/api/v1/events/{e}/standings/"),
            {"clients": [1], "flush": True},
        ),
        ("TD game page", get(f"/td/events/{e}/games/{games}/", cookies={"sessionid": cookie}), {}),
        ("demo night (24): public event page", get(f"/events/{demo.pk}/"), {}),
    ]


async def measure(args, server: Server, event, demo, items, cookie) -> list[Row]:
    import aiohttp
    import redis

    rows: list[Row] = []
    limits = aiohttp.TCPConnector(limit=max(args.clients) + 20)
    timeout = aiohttp.ClientTimeout(total=120)
    cache = redis.Redis.from_url(CACHE)
    async with aiohttp.ClientSession(connector=limits, timeout=timeout) as session:
        fragment = f"/events/{event.pk}/standings/"
        for name, make, options in scenarios(event, demo, args.games, cookie):
            if args.only and args.only not in name and not name.startswith("login"):
                continue
            for clients in options.get("clients", args.clients):
                runs = []
                for _ in range(args.runs):
                    if make == "reports" or options.get("reports_per_second"):
                        reset_reports(event, args.games)
                    if make == "reports":
                        queue = iter(report_request(i) for i in items)
                        make_run = lambda q=queue: next(q, None)  # noqa: E731
                    elif make == "etag":
                        async with session.get(server.base + fragment) as response:
                            etag = response.headers.get("ETag", "")
                        headers = {"If-None-Match": etag}
                        make_run = lambda h=headers: ("GET", fragment, {"headers": h})  # noqa: E731
                    else:
                        make_run = make
                    stop = asyncio.Event()
                    background = None
                    if options.get("reports_per_second"):
                        background = asyncio.create_task(
                            reports_in_background(
                                session,
                                server.base,
                                (report_request(i) for i in items),
                                options["reports_per_second"],
                                stop,
                            )
                        )
                    runs.append(
                        await closed_loop(
                            session,
                            server.base,
                            make_run,
                            clients,
                            args.seconds,
                            before=cache.flushdb if options.get("flush") else None,
                            etags=options.get("etags", False),
                        )
                    )
                    stop.set()
                    if background is not None:
                        await background
                rows.append(Row(name, clients, runs))
                print(f"  measured: {name}, {clients} clients", file=sys.stderr)
        reset_reports(event, args.games)
        await asyncio.sleep(2)
        snapshot = await commit_to_snapshot(
            session, server.base, event, items, args.rate, args.seconds
        )
    return rows, snapshot


async def growth(args, server: Server, sizes: list[int]) -> dict:
    """p50 of the public answers at each field size (one client: the time to answer, no
    queue), and the growth exponent of each."""
    import aiohttp
    import redis

    from results.services import keys_for

    cache = redis.Redis.from_url(CACHE)
    found: dict[str, dict[int, float]] = {}
    async with aiohttp.ClientSession() as session:
        for size in sizes:
            event = build(size, args.games, 1, f"Growth {size}")
            key = next(iter(keys_for(list(event.entries.all()[:1])).values()))
            e = event.pk
            answers = {  # name: (path, cache emptied before each request)
                "public event page": (f"/events/{e}/", False),
                "public event page, standings rendered": (f"/events/{e}/", True),
                "standings fragment (cached)": (f"/events/{e}/standings/", False),
                "standings fragment, rendered": (f"/events/{e}/standings/", True),
                "event detail API": (f"/api/v1/events/{e}/", False),
                "standings API, rendered": (f"/api/v1/events/{e}/standings/", True),
                "player page": (f"/k/{key}/", False),
            }
            for name, (path, flush) in answers.items():
                runs = [
                    await closed_loop(
                        session,
                        server.base,
                        lambda p=path: ("GET", p, {}),
                        1,
                        args.seconds / 2,
                        before=cache.flushdb if flush else None,
                    )
                    for _ in range(args.runs)
                ]
                found.setdefault(name, {})[size] = Row(name, 1, runs).p50
            print(f"  measured growth at {size} players", file=sys.stderr)
    exponents = {}
    for name, by_size in found.items():
        xs = [math.log(n) for n in by_size]
        ys = [math.log(t) for t in by_size.values()]
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
            (x - mx) ** 2 for x in xs
        )
        exponents[name] = round(slope, 2)
    return {"p50_seconds": found, "exponent": exponents}


def print_table(args, rows: list[Row], snapshot: dict) -> None:
    base = {r.clients: r.rate for r in rows if r.name.startswith("login page")}
    base |= {c: base.get(1, float("nan")) for c in {r.clients for r in rows} - set(base)}
    print(
        f"\nproduction shape: gunicorn 2 workers, DEBUG=0, PostgreSQL, Redis, a Celery worker; "
        f"{args.players} players x {args.games} games; medians of {args.runs} runs of "
        f"{args.seconds:g} s"
    )
    print(
        "| endpoint | clients | req/s | x login | p50 ms | p95 ms | KB | KB sent | errors |\n"
        "|---|---|---|---|---|---|---|---|---|"
    )
    for r in rows:
        errors = ", ".join(f"{n} x {code}" for code, n in sorted(r.errors.items())) or "0"
        print(
            f"| {r.name} | {r.clients} | {r.rate:.0f} | {r.rate / base[r.clients]:.2f} | "
            f"{r.p50 * 1000:.1f} | {r.p95 * 1000:.1f} | {r.size / 1024:.1f} | "
            f"{r.wire / 1024:.1f} | {errors} |"
        )
    kept = (
        ""
        if snapshot["achieved_per_second"] >= 0.95 * snapshot["offered_per_second"]
        else " (could NOT keep the offered rate)"
    )
    print(
        f"\ncommit -> published snapshot, {snapshot['confirmed']} confirming reports offered at "
        f"{snapshot['offered_per_second']:g}/s, achieved {snapshot['achieved_per_second']}/s{kept}: "
        f"p50 {snapshot['p50_seconds']} s, p95 {snapshot['p95_seconds']} s "
        f"(failed {snapshot['failed']}, never shown {snapshot['never_shown']}); "
        f"the reports' own answers: p50 {snapshot['report_p50_ms']} ms, "
        f"p95 {snapshot['report_p95_ms']} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=22)
    parser.add_argument("--seconds", type=float, default=6.0, help="length of each run")
    parser.add_argument("--runs", type=int, default=3, help="runs per row (medians)")
    parser.add_argument("--clients", default="1,10,50", help="concurrencies, comma-separated")
    parser.add_argument("--rate", type=float, default=50.0, help="reports/s, commit -> snapshot")
    parser.add_argument("--growth", default="", help="field sizes for the growth exponent")
    parser.add_argument("--only", default="", help="measure only rows whose name has this")
    parser.add_argument("--json", action="store_true", help="print one JSON object as well")
    args = parser.parse_args()
    args.clients = [int(c) for c in args.clients.split(",")]

    log_dir = Path(tempfile.mkdtemp(prefix="pegboard-load-"))
    env = dict(os.environ) | {
        "DATABASE_URL": f"{PG}/{DB_NAME}",
        "CELERY_BROKER_URL": BROKER,
        "REDIS_URL": CACHE,
        "SECRET_KEY": "bench-load-" + os.urandom(8).hex(),
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "WARNING",
        # The bench's one address would hit the per-address allowances at once (the
        # checkers', and the API's, which counts an anonymous client by its address).
        "CHECKER_RATE": "100000000/minute",
        "API_USER_RATE": "100000000/minute",
    }
    prepare_database(env)
    # The bench's own ORM calls (resets between runs) block the client's loop on purpose:
    # no request is in flight then.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    import django

    django.setup()
    from django.core.management import call_command

    from config.celery import app
    from tournaments.demo import load_demo

    print(f"building {args.players} players x {args.games} games ...", file=sys.stderr)
    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    app.conf.task_always_eager = True  # the build computes its standings in-process
    demo, _ = load_demo()
    open_games = 6  # drawn, no results: what the report rows write into
    event = build(args.players, args.games, open_games, "Load event")
    items = report_items(event, args.games)
    cookie = td_cookie(event)
    app.conf.task_always_eager = False  # from here on, the worker computes the standings

    server = Server(env, log_dir)
    server.start()
    try:
        rows, snapshot = asyncio.run(measure(args, server, event, demo, items, cookie))
        print_table(args, rows, snapshot)
        grown = None
        if args.growth:
            app.conf.task_always_eager = True
            grown = asyncio.run(growth(args, server, [int(n) for n in args.growth.split(",")]))
            print("\ngrowth of p50 with the field (1 client):")
            sizes = list(next(iter(grown["p50_seconds"].values())))
            print("| answer | " + " | ".join(f"{n} players" for n in sizes) + " | exponent |")
            print("|---|" + "---|" * (len(sizes) + 1))
            for name, by_size in grown["p50_seconds"].items():
                cells = " | ".join(f"{by_size[n] * 1000:.1f} ms" for n in sizes)
                print(f"| {name} | {cells} | {grown['exponent'][name]} |")
        if args.json:
            print(
                json.dumps(
                    {
                        "rows": [
                            {
                                "name": r.name,
                                "clients": r.clients,
                                "rate": round(r.rate, 1),
                                "p50_ms": round(r.p50 * 1000, 1),
                                "p95_ms": round(r.p95 * 1000, 1),
                                "kb": round(r.size / 1024, 1),
                                "kb_sent": round(r.wire / 1024, 1),
                                "errors": r.errors,
                            }
                            for r in rows
                        ],
                        "commit_to_snapshot": snapshot,
                        "growth": grown,
                    }
                )
            )
    finally:
        server.stop()
        print(f"server logs: {log_dir}", file=sys.stderr)


if __name__ == "__main__":
    main()
