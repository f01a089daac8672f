"""Load test of the production shape on a 1,000-player event: `make bench-load`.

    python bench/load.py [--quick] [--players 1000] [--games 22] [--seconds 3] [--runs 3]
                         [--rate 100] [--open-seconds 8] [--only NAME] [--growth 100,1000]
                         [--json]

It starts what a club's server runs (gunicorn with 2 workers, DEBUG=0, PostgreSQL, Redis as
cache and broker, a real Celery worker and beat) on loopback ports, builds the event once in a
scratch database of its own (`pegboard_load`, dropped and made anew each run as a copy of
`pegboard_bench_template`, which holds the migrated empty schema and is migrated again only
when a migration file changes; Redis databases 10 and 11), and drives it with wrk (`bench/wrk_load.lua`): a load generator in C whose one thread
keeps 50 connections busy at a few % of a core, where a Python client capped the login page
near half of what the server gives and so flattered every ratio.

Closed-loop rows (wrk: each connection sends its next request when answered). Every row is
RUNS runs of SECONDS; it prints the median req/s with the slowest and fastest run, the ratio
to the login page at the same concurrency in the same run, the median p50/p95 latency (wrk's),
the size (decoded KB, and KB read from the wire with headers: pages are asked gzipped, as a
browser does), SQL queries per request and the answers outside 2xx/3xx by status over all runs
(status 0: wrk's socket errors and timeouts).
- login page: the baseline, a page that reads nothing of the event.
- report API (`POST /api/v1/results/report`): each request is a distinct report read from a
  file the bench writes (each open table's first report, and 200 reports later its opponent's
  confirming one), so no report is sent twice; the reports are taken back between runs.
- report form (`POST /k/<key>/`, the private page's form): the reports of the game in
  progress (the form reports the key's table in the latest game), first and confirming, as
  the form posts them. CSRF is checked as for any browser (results/views.py's player page is
  not exempt): the bench fetches 8 private pages beforehand and each post carries one of
  their csrftoken cookie and form token pairs (Django checks a token against its cookie
  only, so any pair costs the same check). A good post is answered by a redirect (302,
  counted as the answer; the page it leads to is not fetched).
- TD game page of the game in progress (the latest drawn game: 500 open tables at 1,000
  players), with a signed-in TD's session.
- public pages: the event page, the standings fragment the pages poll (cached snapshot), the
  same poll when nothing changed (a 304 with its ETag), and the standings API.

SQL queries per request are counted in-process, once per row, with
django.test.utils.CaptureQueriesContext around one request of the Django test Client on the
same database and cache (a GET's second request is counted: the row's steady state). For the
reports: "first / confirming" (a table's first report, then the opponent's that confirms it).

Open-loop row (Python, `bench/_open_loop.py`): RATE confirming reports a second (100 by
default) for OPEN_SECONDS, sent on a clock; for each, the time from its answer to the first
published snapshot that counts it, and the reports' own answer times. It prints the rate
achieved. The wanted figures: 100/s kept, shown p95 < 1 s, answers p95 < 100 ms.

Worker time: every task the worker ran during the open loop, timed in the worker by Celery's
task_prerun/task_postrun signals (`bench/_worker.py`, a wrapper of the real worker: no
application code), as total seconds and runs; the ratings' (`scoring.update_ratings`) share
against the standings job's (`scoring.recompute_standings`).

With --growth the p50 of the cached public answers with one client at each field size, and the
growth exponent of each (0 = flat). --quick: a smoke of about 2 minutes (400 players, 1 run
of 2 s a row, fewer rows, 4 s of open loop): it proves the bench runs, its figures are not
the ones to quote.

Needs PostgreSQL on 127.0.0.1:5432 (user postgres), Redis on 127.0.0.1:6379 (`.ci/run` shows
how to start both) and wrk (`make bench-load` installs Debian's package when it is missing).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _load_setup import (  # noqa: E402 (bench/ is the script's folder)
    BROKER,
    CACHE,
    DB_NAME,
    PG,
    REPORT_API,
    Server,
    api_body,
    build,
    count_queries,
    fetch_tokens,
    form_body,
    prepare_database,
    report_items,
    reset_reports,
    task_log_size,
    td_cookie,
    worker_times,
    write_requests,
)
from _open_loop import commit_to_snapshot  # noqa: E402
from _wrk import WrkRun, run_wrk, wrk_path  # noqa: E402

# Longer than the ratings' gather window (RATINGS_GATHER_SECONDS, 2 s) and a replay's run.
RESET_SETTLE_SECONDS = 5.0

GZIP = {"Accept-Encoding": "gzip"}


@dataclass
class Spec:
    """One row: a GET of ``path`` (``headers``; ``etag``: the current ETag as If-None-Match)
    or, with ``reports`` ("api" or "form"), a file of distinct reports."""

    name: str
    clients: list[int]
    path: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    reports: str = ""
    etag: bool = False
    cookie: str = ""


@dataclass
class Row:
    """A row at one concurrency: its runs, and what the in-process count found."""

    spec: Spec
    clients: int
    runs: list[WrkRun]
    queries: str = ""
    kb: float = 0.0

    def median(self, fn) -> float:
        return statistics.median(fn(r) for r in self.runs)

    @property
    def rate(self) -> float:
        return self.median(lambda r: r.rate)

    @property
    def errors(self) -> dict[int, int]:
        total: dict[int, int] = {}
        for r in self.runs:
            for code, n in r.errors.items():
                total[code] = total.get(code, 0) + n
        return total


def specs(event, games: int, cookie: str, quick: bool) -> list[Spec]:
    """Every closed-loop row (--quick: fewer concurrencies)."""
    e = event.pk
    one, many = ([], [10]) if quick else ([1], [10])
    fragment = f"/events/{e}/standings/"
    return [
        Spec("login page (baseline)", [*one, *many, 50], "/accounts/login/", GZIP),
        Spec("report API", [*one, *many, 50], REPORT_API, reports="api"),
        Spec("report form /k/<key>/", [*one, *many], reports="form"),
        Spec(
            "TD game page, game in progress",
            [*one, *many],
            f"/td/events/{e}/games/{games + 6}/",
            GZIP,
            cookie=cookie,
        ),
        Spec("public event page", many, f"/events/{e}/", GZIP),
        Spec("standings fragment (cached)", many, fragment, GZIP),
        Spec("standings poll, unchanged (304)", many, fragment, GZIP, etag=True),
        Spec("standings API", many, f"/api/v1/events/{e}/standings/", GZIP),
    ]


def count_row(spec: Spec, event, games: int, items: list) -> tuple[str, float]:
    """The row's SQL queries per request and decoded KB, in-process (``count_queries``)."""
    if not spec.reports:
        found, kb, _ = count_queries("GET", spec.path, cookie=spec.cookie, etag=spec.etag)
        return str(found), kb
    first = items[0]
    second = next(i for i in items if i.winner == "opponent" and i.table_pk == first.table_pk)
    reset_reports(event, games)
    counts, kb = [], 0.0
    for item in (first, second):
        if spec.reports == "api":
            args = {"data": json.dumps(api_body(item)), "content_type": "application/json"}
            found, kb, _ = count_queries("POST", REPORT_API, **args)
        else:
            found, kb, _ = count_queries("POST", f"/k/{item.key}/", data=form_body(item))
        counts.append(found)
    reset_reports(event, games)
    return f"{counts[0]} / {counts[1]}", kb


def measure_rows(args, server: Server, event, items: dict, files: dict, cookie: str) -> list[Row]:
    """Each spec at each of its concurrencies, RUNS wrk runs of SECONDS."""
    rows = []
    run_wrk(server.base, "/accounts/login/", clients=10, seconds=1)  # warm both workers
    for spec in specs(event, args.games, cookie, args.quick):
        if args.only and args.only not in spec.name and not spec.name.startswith("login"):
            continue
        queries, kb = count_row(spec, event, args.games, items.get(spec.reports, []))
        for clients in spec.clients:
            runs = []
            for _ in range(args.runs):
                headers = dict(spec.headers)
                if spec.cookie:
                    headers["Cookie"] = f"sessionid={spec.cookie}"
                if spec.reports:
                    reset_reports(event, args.games)
                if spec.etag:  # the poll's ETag as a phone last saw it
                    headers["If-None-Match"] = _etag(server.base + spec.path)
                runs.append(
                    run_wrk(
                        server.base,
                        spec.path or "/",
                        clients=clients,
                        seconds=args.seconds,
                        headers=headers,
                        requests_file=files.get(spec.reports),
                    )
                )
                drain(server.base)
            rows.append(Row(spec, clients, runs, queries, kb))
            print(f"  measured: {spec.name}, {clients} clients", file=sys.stderr)
    return rows


def drain(base: str) -> None:
    """Wait for the requests wrk left in flight when it stopped (the server answers them all
    the same) to be answered: a health probe queues behind them, so the next run starts on
    an idle server instead of paying for the last one's tail."""
    import urllib.request

    with urllib.request.urlopen(f"{base}/healthz", timeout=300) as response:
        response.read()


def _etag(url: str) -> str:
    import urllib.request

    with urllib.request.urlopen(url, timeout=300) as response:
        response.read()
        return response.headers.get("ETag", "")


def spread(runs: list[WrkRun]) -> str:
    rates = [r.rate for r in runs]
    digits = 1 if max(rates) < 10 else 0  # a slow row's 2.7/s is not "3"

    def show(rate: float) -> str:
        return f"{rate:.{digits}f}"

    median = show(statistics.median(rates))
    return median + (f" ({show(min(rates))}-{show(max(rates))})" if len(rates) > 1 else "")


def print_rows(args, rows: list[Row]) -> None:
    base = {r.clients: r.rate for r in rows if r.spec.name.startswith("login")}
    print(
        f"\nproduction shape: gunicorn 2 workers, DEBUG=0, PostgreSQL, Redis, a Celery worker "
        f"and beat; {args.players} players x {args.games} games + 6 open games of "
        f"{args.players // 2} tables; wrk (1 thread); medians of {args.runs} runs of "
        f"{args.seconds:g} s, req/s as median (slowest-fastest)"
    )
    print(
        "| row | clients | req/s | x login | p50 ms | p95 ms | KB (wire) | SQL/req | errors |\n"
        "|---|---|---|---|---|---|---|---|---|"
    )
    for r in rows:
        errors = ", ".join(f"{n} x {code}" for code, n in sorted(r.errors.items())) or "0"
        short = sum(run.exhausted for run in r.runs)
        if short:
            errors += f"; {short} past the end of the reports file (repeated)"
        ratio = r.rate / base[r.clients] if base.get(r.clients) else float("nan")
        print(
            f"| {r.spec.name} | {r.clients} | {spread(r.runs)} | {ratio:.2f} | "
            f"{r.median(lambda x: x.p50) * 1000:.1f} | {r.median(lambda x: x.p95) * 1000:.1f} | "
            f"{r.kb:.1f} ({r.median(lambda x: x.wire) / 1024:.1f}) | {r.queries} | {errors} |"
        )


def print_open_loop(snapshot: dict, worker: dict[str, tuple[float, int]]) -> None:
    kept = snapshot["achieved_per_second"] >= 0.95 * snapshot["offered_per_second"]
    print(
        f"\ncommit -> published snapshot (open loop, Python client): {snapshot['confirmed']} "
        f"confirming reports offered at {snapshot['offered_per_second']:g}/s (sent at "
        f"{snapshot['sent_per_second']}/s), achieved {snapshot['achieved_per_second']}/s "
        f"({'kept' if kept else 'could NOT keep the offered rate'}): shown after p50 "
        f"{snapshot['p50_seconds']} s, p95 {snapshot['p95_seconds']} s (failed "
        f"{snapshot['failed']}, never shown {snapshot['never_shown']}); the reports' own "
        f"answers: p50 {snapshot['report_p50_ms']} ms, p95 {snapshot['report_p95_ms']} ms "
        f"(wanted: kept, shown p95 < 1 s, answers p95 < 100 ms)"
    )
    print("\nworker time during the open loop (task_prerun/postrun in the worker):")
    print("| task | runs | seconds | mean ms |\n|---|---|---|---|")
    for name, (seconds, runs) in worker.items():
        print(f"| {name} | {runs} | {seconds:.2f} | {seconds / runs * 1000:.0f} |")
    ratings = worker.get("scoring.update_ratings", (0.0, 0))[0]
    standings = worker.get("scoring.recompute_standings", (0.0, 0))[0]
    share = f"{ratings / standings:.2f}" if standings else "n/a"
    print(f"ratings / standings worker time: {share} (wanted <= 0.25)")


def growth(args, server: Server, sizes: list[int]) -> dict:
    """p50 of the cached public answers at each field size (one client, wrk), and the growth
    exponent of each."""
    from results.services import keys_for

    found: dict[str, dict[int, float]] = {}
    for size in sizes:
        event = build(size, args.games, 1, f"Growth {size}")
        key = next(iter(keys_for(list(event.entries.all()[:1])).values()))
        e = event.pk
        answers = {
            "public event page": f"/events/{e}/",
            "standings fragment (cached)": f"/events/{e}/standings/",
            "event detail API": f"/api/v1/events/{e}/",
            "standings API (cached)": f"/api/v1/events/{e}/standings/",
            "player page": f"/k/{key}/",
        }
        for name, path in answers.items():
            runs = [
                run_wrk(server.base, path, clients=1, seconds=args.seconds, headers=GZIP)
                for _ in range(args.runs)
            ]
            found.setdefault(name, {})[size] = statistics.median(r.p50 for r in runs)
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
    print("\ngrowth of p50 with the field (1 client):")
    print("| answer | " + " | ".join(f"{n} players" for n in sizes) + " | exponent |")
    print("|---|" + "---|" * (len(sizes) + 1))
    for name, by_size in found.items():
        cells = " | ".join(f"{by_size[n] * 1000:.1f} ms" for n in sizes)
        print(f"| {name} | {cells} | {exponents[name]} |")
    return {"p50_seconds": found, "exponent": exponents}


def static_changed() -> bool:
    """Whether a static file is newer than the collected manifest: collecting compresses
    every file again (whitenoise, gzip and brotli), minutes on a busy machine."""
    manifest = ROOT / "staticfiles" / "staticfiles.json"
    if not manifest.exists():
        return True
    collected = manifest.stat().st_mtime
    sources = (p for p in ROOT.glob("**/static/**/*") if ".venv" not in p.parts)
    return any(p.stat().st_mtime > collected for p in sources if p.is_file())


def parse_args():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="a 2-minute smoke")
    parser.add_argument("--players", type=int, default=None, help="1000 (--quick: 400)")
    parser.add_argument("--games", type=int, default=22)
    parser.add_argument("--seconds", type=float, default=None, help="each run: 3 (quick: 2)")
    parser.add_argument("--runs", type=int, default=None, help="runs per row: 3 (quick: 1)")
    parser.add_argument("--rate", type=float, default=100.0, help="reports/s, open loop")
    parser.add_argument("--open-seconds", type=float, default=None, help="8 (quick: 4)")
    parser.add_argument("--growth", default="", help="field sizes for the growth exponent")
    parser.add_argument("--only", default="", help="measure only rows whose name has this")
    parser.add_argument("--json", action="store_true", help="print one JSON object as well")
    args = parser.parse_args()
    defaults = {"players": (1000, 400), "seconds": (3, 2), "runs": (3, 1), "open_seconds": (8, 4)}
    for name, (full, quick) in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, quick if args.quick else full)
    return args


def main() -> None:
    args = parse_args()
    wrk_path()  # before the build: no wrk, no bench
    began = time.monotonic()
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
        # checkers', and the API's for anonymous readers). Keys and the TD keep the real ones
        # (API_KEY_RATE, API_USER_RATE): each key reports at most twice a run.
        "CHECKER_RATE": "100000000/minute",
        "API_ANON_RATE": "100000000/minute",
        # Set for older checkouts (before the throttles by key), where it was the address's.
        "API_USER_RATE": "100000000/minute",
    }
    prepare_database(env)
    # The bench's own ORM calls (resets between runs) run while no request is in flight.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    import django

    django.setup()
    from django.core.management import call_command

    from config.celery import app

    print(f"building {args.players} players x {args.games} games ...", file=sys.stderr)
    call_command("migrate", verbosity=0)
    if static_changed():
        call_command("collectstatic", "--noinput", verbosity=0)
    print(f"migrated in {time.monotonic() - began:.0f} s", file=sys.stderr)
    app.conf.task_always_eager = True  # the build computes its standings in-process
    event = build(args.players, args.games, 6, "Load event")  # 6 open games take the reports
    last = args.games + 6  # the game in progress: the latest drawn
    items = report_items(event, args.games)
    cookie = td_cookie(event)
    app.conf.task_always_eager = False  # from here on, the worker computes the standings
    print(f"built in {time.monotonic() - began:.0f} s", file=sys.stderr)

    server = Server(env, log_dir)
    server.start()
    try:
        # The form posts: the private page's form reports the key's table in the latest
        # game (results.selectors.current_table), so they are that game's reports.
        form_items = report_items(event, args.games, only=last)
        tokens = fetch_tokens(server.base, list(dict.fromkeys(i.key for i in form_items)))
        files = {
            "api": write_requests(log_dir / "reports-api.txt", items),
            "form": write_requests(log_dir / "reports-form.txt", form_items, tokens),
        }
        print(
            f"ready in {time.monotonic() - began:.0f} s",
            file=sys.stderr,
        )
        rows = measure_rows(args, server, event, {"api": items, "form": form_items}, files, cookie)
        print_rows(args, rows)
        sys.stdout.flush()
        reset_reports(event, args.games)
        # The reset takes back rated results (a correction: the ratings replay the event, and
        # the standings recompute); its jobs run once their gather windows pass. Wait for the
        # worker to finish them, so the open loop's worker time counts only its own runs.
        worker_times(server, task_log_size(server), settle=RESET_SETTLE_SECONDS, limit=30.0)
        since = task_log_size(server)
        snapshot = asyncio.run(
            commit_to_snapshot(server.base, event, items, args.rate, args.open_seconds)
        )
        worker = worker_times(server, since)
        print_open_loop(snapshot, worker)
        grown = None
        if args.growth:
            app.conf.task_always_eager = True
            grown = growth(args, server, [int(n) for n in args.growth.split(",")])
        print(f"\nwhole run: {time.monotonic() - began:.0f} s", file=sys.stderr)
        if args.json:
            print(json.dumps(_as_json(rows, snapshot, worker, grown)))
    finally:
        server.stop()
        print(f"server logs: {log_dir}", file=sys.stderr)


def _as_json(rows: list[Row], snapshot: dict, worker: dict, grown) -> dict:
    return {
        "rows": [
            {
                "name": r.spec.name,
                "clients": r.clients,
                "rates": [round(run.rate, 1) for run in r.runs],
                "rate": round(r.rate, 1),
                "p50_ms": round(r.median(lambda x: x.p50) * 1000, 1),
                "p95_ms": round(r.median(lambda x: x.p95) * 1000, 1),
                "kb": round(r.kb, 1),
                "kb_wire": round(r.median(lambda x: x.wire) / 1024, 1),
                "queries": r.queries,
                "errors": r.errors,
            }
            for r in rows
        ],
        "commit_to_snapshot": snapshot,
        "worker_seconds": {name: {"seconds": s, "runs": n} for name, (s, n) in worker.items()},
        "growth": grown,
    }


if __name__ == "__main__":
    main()
