"""A player's report, in process: milliseconds and queries per report with one client.

    DATABASE_URL=postgres://.../pegboard_x python bench/reports.py [--players 1000] [--reports 200] [--runs 3]

Builds a 1,000-player event (22 games played, two drawn and open: bench/_field.py), then per
run sends REPORTS reports through the whole Django stack with one test client: half first
reports (``POST /api/v1/results/report``), half the opponents' confirmations that write the
result, and as many on the private page (``POST /k/<key>/``), each on tables not reported
before. Celery gets a broker that nobody reads (the standings are a worker's job, not the
report's). Printed: the median over the runs of the mean ms per report, the queries per
report, and the ratio to the login page fetched by the same client in the same run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("CELERY_BROKER_URL", "memory://localhost/")  # no eager standings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--reports", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    call_command("migrate", verbosity=0)
    from _field import build_event

    from results.services import keys_for
    from tournaments.models import Table

    event = build_event(args.players, 22, open_games=2, name="Report bench")
    tables = list(
        Table.objects.filter(round__event=event, round__number__gt=22)
        .select_related("round", "seat_a", "seat_b")
        .order_by("round__number", "number")
    )
    keys = keys_for([t.seat_a for t in tables] + [t.seat_b for t in tables])
    client = Client(HTTP_HOST="localhost")
    pairs = args.reports // 2  # a first report and its confirmation per table
    # The page reports the player's current game (the latest); the API the one before.
    by_game = {
        "api": iter([t for t in tables if t.round.number == 23]),
        "page": iter([t for t in tables if t.round.number == 24]),
    }
    assert len(tables) >= args.runs * pairs * 2, "not enough open tables"

    def timed(calls) -> tuple[float, float]:
        """Mean ms and queries per call (BEGIN and COMMIT counted, as Django logs them)."""
        connection.queries_log.clear()  # the log keeps 9,000: the count must fit in it
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            for call in calls:
                call()
            spent = time.perf_counter() - start
        return spent * 1000 / len(calls), len(queries.captured_queries) / len(calls)

    def api(table, key, winner):
        body = {"key": key, "game": table.round.number, "table": table.number, "winner": winner}
        response = client.post(
            "/api/v1/results/report",
            {**body, "loser_score": 90},
            content_type="application/json",
        )
        assert response.status_code == 201, response.content

    def page(table, key, winner):
        response = client.post(
            f"/k/{key}/",
            {"action": "report", "table": table.pk, "winner": winner, "loser_score": 90},
        )
        assert response.status_code == 302, response.status_code

    def login():
        assert client.get("/accounts/login/").status_code == 200

    rows: dict[str, list[tuple[float, float]]] = {}
    for _run in range(args.runs):
        for name, send in (("api", api), ("page", page)):
            batch = [next(by_game[name]) for _ in range(pairs)]
            first = [lambda t=t, s=send: s(t, keys[t.seat_a_id], "me") for t in batch]
            confirm = [lambda t=t, s=send: s(t, keys[t.seat_b_id], "opponent") for t in batch]
            rows.setdefault(f"{name} first", []).append(timed(first))
            rows.setdefault(f"{name} confirming", []).append(timed(confirm))
        rows.setdefault("login page", []).append(timed([login] * pairs))

    login_ms = statistics.median(ms for ms, _q in rows["login page"])
    print(f"{connection.vendor}, {args.players} players, {args.runs} runs of {pairs} + {pairs}")
    print(f"{'what':<18} {'ms/report':>10} {'queries':>8} {'x login':>8}")
    for name, runs in rows.items():
        ms = statistics.median(m for m, _q in runs)
        queries = statistics.median(q for _m, q in runs)
        print(f"{name:<18} {ms:>10.2f} {queries:>8.1f} {ms / login_ms:>8.2f}")


if __name__ == "__main__":
    main()
