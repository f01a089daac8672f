"""The TD's game page of a game in progress on a 1,000-player event (500 open tables).

    python bench/td_game_page.py [--players 1000] [--games 1] [--reported 5] [--runs 3]
                                 [--requests 20] [--json]

Uses DATABASE_URL when it is set (point it at a scratch database: the script migrates it and
adds a bench club), else a temporary SQLite file. The event has GAMES games played and one game
drawn with every table open; REPORTED of its tables carry a player's pending report and one a
dispute, as on a real night. DEBUG is turned off once set up (as setup_test_environment does: no
query log). Each page is fetched RUNS x REQUESTS times by one in-process Django test client
(logged in as the club's TD); every time is the median over the runs of the median request of
each run (wall and this process's CPU time), with the bytes of the page (decoded) and its SQL
queries. The baseline in the same run is the login page (reads nothing of the event), printed
as a ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def measure(client, url: str, runs: int, requests: int) -> dict:
    """Median ms, bytes and queries of ``url`` over ``runs`` runs of ``requests`` requests."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    connection.queries_log.clear()  # a full log (9,000, from the build) would count nothing
    with CaptureQueriesContext(connection) as captured:  # counted apart: it slows the cursor
        client.get(url)
    queries = len(captured)  # now: the next request's start clears the log it slices
    run_ms, run_cpu, sizes = [], [], []
    for _ in range(runs):
        times, cpu = [], []
        for _ in range(requests):
            start, start_cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
            assert response.status_code == 200, (url, response.status_code)
            sizes.append(len(response.content))
        run_ms.append(statistics.median(times))
        run_cpu.append(statistics.median(cpu))
    return {
        "ms": round(statistics.median(run_ms), 2),
        # CPU time of this process (the server's work, SQLite's included): on a shared machine
        # the wall time also counts the waits for a core.
        "cpu_ms": round(statistics.median(run_cpu), 2),
        "bytes": int(statistics.median(sizes)),
        "queries": queries,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=1, help="games played before the open one")
    parser.add_argument(
        "--reported",
        type=int,
        default=5,
        help="tables with a player's first report (300: a busy night, every card has one)",
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    scratch = tempfile.TemporaryDirectory(prefix="pegboard-bench-")
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch.name}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    # The test client's host, without setup_test_environment (its instrumented template
    # rendering would be timed too).
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.DEBUG = False
    call_command("migrate", verbosity=0)

    from _field import build_event

    from config.celery import app
    from results import services as result_services
    from tests.factories import UserFactory

    app.conf.task_always_eager = True

    event = build_event(args.players, args.games, open_games=1, name="TD page bench")
    number = args.games + 1
    round_ = event.rounds.get(number=number)
    tables = list(round_.tables.filter(seat_b__isnull=False).order_by("number"))
    # A night in progress: a few players' reports wait for the opponent, one table disputed.
    for table in tables[10 : 10 + args.reported]:
        key = result_services.key_for(table.seat_a).key
        result_services.submit(key, table=table, winner=table.seat_a, loser_score=90)
    disputed = tables[5]  # apart from the reported ones (from table 11 on)
    result_services.submit(
        result_services.key_for(disputed.seat_a).key,
        table=disputed,
        winner=disputed.seat_a,
        loser_score=95,
    )
    result_services.submit(
        result_services.key_for(disputed.seat_b).key,
        table=disputed,
        winner=disputed.seat_b,
        loser_score=100,
    )
    result_services.dispute(
        result_services.key_for(disputed.seat_a).key, table=disputed, reason="bench"
    )

    td = UserFactory(username=f"bench-td-{event.pk}")
    event.club.directors.add(td)
    client = Client()
    client.force_login(td)
    game = reverse("td-game", args=[event.pk, number])
    pages = {
        "login page (baseline)": reverse("login"),
        "game page, first view": game,
        "game page, ?page=5": f"{game}?page=5",
        "card of table 250 (htmx)": f"{game}?card=250",
        "game page, find a name": f"{game}?find={tables[-1].seat_b.player.name_folded.split()[-1]}",
        "game page, find table 250": f"{game}?find=250",
        "game page, ?show=all": f"{game}?show=all",
    }
    anonymous = Client()
    figures = {}
    for label, url in pages.items():
        who = anonymous if "baseline" in label else client
        if "htmx" in label:
            who = Client(headers={"HX-Request": "true"})
            who.force_login(td)
        measure(who, url, 1, 2)  # warm: templates compiled, caches filled
        figures[label] = measure(who, url, args.runs, args.requests)

    open_count = len(tables) - 6
    if args.json:
        print(json.dumps({"database": connection.vendor, "open_tables": open_count, **figures}))
        return
    print(
        f"{args.players} players, game {number} in progress: {len(tables)} tables, "
        f"{open_count} open, on {connection.vendor}; median of {args.runs} runs of "
        f"{args.requests} requests, 1 client"
    )
    base = figures["login page (baseline)"]["ms"]
    cpu_base = figures["login page (baseline)"]["cpu_ms"]
    for label, f in figures.items():
        print(
            f"  {label:28} {f['ms']:7.1f} ms ({f['ms'] / base:5.1f}x login) "
            f"cpu {f['cpu_ms']:6.1f} ms ({f['cpu_ms'] / cpu_base:5.1f}x) "
            f"{f['bytes'] / 1024:7.1f} KB {f['queries']:3d} queries"
        )


if __name__ == "__main__":
    main()
