"""Standings of a 1,000-player event against a plain SQL GROUP BY, and commit-to-snapshot time.

    python bench/standings.py [--players 1000] [--games 22] [--results 200] [--live 40]
                              [--runs 3] [--json]

Uses DATABASE_URL when it is set (point it at a scratch database: the script migrates it and
adds a bench club), else a temporary SQLite file. Measured in the same run:
- the snapshot of the game in progress rewritten (from the snapshot before it plus that game's
  results), the same snapshot from every game's results, and every snapshot of the event,
  each against a plain SQL GROUP BY that only sums game points, wins and spread over the
  event's results (the floor for any approach), as ratios: medians of RUNS runs;
- LIVE results entered one by one in a new game, each committed and its snapshot written
  in-process: p50 / p95 of result -> snapshot, medians of RUNS runs;
- with CELERY_BROKER_URL set: a real Celery worker is started, RESULTS results are committed
  at a steady rate, and the time from each commit to the snapshot that includes it is taken
  (p50 / p95);
- the qualifying seating of all games against a shuffle-and-pair baseline.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _field import WORKER_COMMAND, percentile  # noqa: E402 (bench/ is the script's folder)


def timed(fn, repeat: int = 5) -> tuple[float, float, float]:
    """Median, fastest and slowest wall time of ``repeat`` runs, in seconds (the median is
    the figure reported: the best run flatters)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times), max(times)


def best_of(fn, repeat: int = 5) -> float:
    """The median of ``repeat`` runs (kept under its old name for the seating figures)."""
    return timed(fn, repeat)[0]


def spread(t: tuple[float, float, float]) -> str:
    return f"{t[0] * 1000:8.1f} ms (runs {t[1] * 1000:.1f}-{t[2] * 1000:.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=22)
    parser.add_argument("--results", type=int, default=200, help="results for the worker run")
    parser.add_argument("--rate", type=float, default=20.0, help="results per second")
    parser.add_argument(
        "--live", type=int, default=40, help="results timed one by one in the game in progress"
    )
    parser.add_argument("--runs", type=int, default=3, help="runs of every timing (medians)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    scratch = tempfile.TemporaryDirectory(prefix="pegboard-bench-")
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch.name}/bench.sqlite3"
    broker = os.environ.get("CELERY_BROKER_URL", "")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)

    from _field import build_event, seat_games

    from config.celery import app
    from scoring.models import StandingsSnapshot
    from scoring.services import recompute_standings
    from tournaments import services
    from tournaments.models import GameResult, Round, Table

    app.conf.task_always_eager = True  # the setup and the recompute timing run in-process

    # The field's ids are known only once it exists: seat it in the builder first, then time
    # the seating of the same ids below.
    event = build_event(args.players, args.games)
    ids = list(event.entries.order_by("pk").values_list("pk", flat=True))

    def seat_all():
        return seat_games(ids, args.games)

    def shuffle_pairs():
        rng = random.Random(7)
        for _ in range(args.games):
            order = list(ids)
            rng.shuffle(order)
            list(zip(order[::2], order[1::2], strict=False))

    seat_time = best_of(seat_all, 3)
    shuffle_time = best_of(shuffle_pairs, 3)
    total_results = GameResult.objects.filter(table__round__event=event).count()

    group_by = f"""
        SELECT entry_id, SUM(points), SUM(won), SUM(spread) FROM (
            SELECT r.winner_id AS entry_id, r.winner_points AS points, 1 AS won, r.margin AS spread
              FROM {GameResult._meta.db_table} r
              JOIN {Table._meta.db_table} t ON t.id = r.table_id
              JOIN {Round._meta.db_table} g ON g.id = t.round_id WHERE g.event_id = %s
            UNION ALL
            SELECT r.loser_id, r.loser_points, 0, -r.margin
              FROM {GameResult._meta.db_table} r
              JOIN {Table._meta.db_table} t ON t.id = r.table_id
              JOIN {Round._meta.db_table} g ON g.id = t.round_id
             WHERE g.event_id = %s AND r.loser_id IS NOT NULL
        ) lines_ GROUP BY entry_id
    """

    def plain_group_by():
        with connection.cursor() as cursor:
            cursor.execute(group_by, [event.pk, event.pk])
            return cursor.fetchall()

    def our_lines():  # the aggregate our ranking reads, alone
        with connection.cursor() as cursor:
            cursor.execute(
                event.game_kind.lines_sql(), {"event": event.pk, "n": args.games, "after": 0}
            )
            return cursor.fetchall()

    def full_recompute():
        # Every snapshot rewritten, as after a correction to game 1.
        StandingsSnapshot.objects.filter(event=event).update(fingerprint="")
        return recompute_standings(event.pk)

    def latest_recompute():
        # Only the game in progress rewritten: the normal case after a result (from the
        # snapshot before it where the code keeps one: the incremental update).
        StandingsSnapshot.objects.filter(event=event, after_game=args.games).update(fingerprint="")
        return recompute_standings(event.pk)

    # Code before the incremental update has no switch: its recompute is always the full one.
    scratch_kw = (
        {"incremental": False}
        if "incremental" in inspect.signature(recompute_standings).parameters
        else {}
    )

    def latest_from_scratch():
        # The game in progress rewritten from every game's results (no earlier snapshot).
        StandingsSnapshot.objects.filter(event=event, after_game=args.games).update(fingerprint="")
        return recompute_standings(event.pk, **scratch_kw)

    assert full_recompute() == args.players * args.games
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Each run times the GROUP BY next to what it is compared with, so the ratio of the run
    # is measured under one load; the figure is the median of the runs' ratios.
    runs = []
    for _ in range(args.runs):
        runs.append(
            {
                "group": timed(plain_group_by, 5),
                "latest": timed(latest_recompute, 5),
                "scratch": timed(latest_from_scratch, 5),
                "full": timed(full_recompute, 1),
                "lines": timed(our_lines, 3),
            }
        )
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    def median_of(key):
        values = [run[key][0] for run in runs]
        return statistics.median(values), min(values), max(values)

    def ratio_of(key, per=1):
        values = [run[key][0] / per / run["group"][0] for run in runs]
        return statistics.median(values), min(values), max(values)

    full, latest, group, lines = (median_of(k) for k in ("full", "latest", "group", "lines"))
    from_scratch = median_of("scratch")
    latest_ratio, scratch_ratio = ratio_of("latest"), ratio_of("scratch")
    full_ratio = ratio_of("full", args.games)
    full_time, latest_time, group_time, lines_time = full[0], latest[0], group[0], lines[0]
    # The default chain is all SQL; a chain with the Python tiebreakers (head-to-head, median
    # Buchholz) is timed too, on the same event.
    event.tiebreakers = ["game_points", "head_to_head", "median_buchholz", "spread"]
    event.save(update_fields=["tiebreakers"])
    python_latest = timed(latest_recompute, 3)
    event.tiebreakers = []
    event.save(update_fields=["tiebreakers"])
    recompute_standings(event.pk)
    assert len(plain_group_by()) == args.players

    live = live_results(args, event, services) if args.live else None
    worker_p50 = worker_p95 = achieved = None
    if broker:
        worker_p50, worker_p95, achieved = commit_to_snapshot(
            args, event, services, app, number=args.games + (2 if live else 1)
        )

    figures = {
        "players": args.players,
        "games": args.games,
        "results": total_results,
        "database": connection.vendor,
        "recompute_seconds": round(latest_time, 5),
        "recompute_ratio_to_groupby": [round(x, 3) for x in latest_ratio],
        "recompute_from_scratch_seconds": round(from_scratch[0], 5),
        "recompute_from_scratch_ratio_to_groupby": [round(x, 3) for x in scratch_ratio],
        "live_result_to_snapshot_p50_p95_seconds": live,
        "recompute_all_snapshots_seconds": round(full_time, 5),
        "groupby_seconds": round(group_time, 5),
        "lines_query_seconds": round(lines_time, 5),
        "commit_to_snapshot_p50_seconds": worker_p50,
        "commit_to_snapshot_p95_seconds": worker_p95,
        "commit_rate_achieved_per_second": achieved,
        "recompute_python_chain_seconds": round(python_latest[0], 5),
        "seating_seconds": round(seat_time, 5),
        "shuffle_seconds": round(shuffle_time, 5),
        "rss_growth_kib": rss_after - rss_before,
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"field: {args.players} players, {args.games} games, {total_results} results on {connection.vendor}"
        )
        print(f"medians of {args.runs} runs (each the median of its repeats), spread of the runs")
        print(f"baseline: plain SQL GROUP BY of points, wins, spread:   {spread(group)}")
        print(f"recompute, game in progress (1 snapshot, {args.players} rows): {spread(latest)}")
        print(f"  ratio to GROUP BY: {ratios(latest_ratio)} (target <= 2x)")
        print(f"recompute of that snapshot from every game's results:   {spread(from_scratch)}")
        print(f"  ratio to GROUP BY: {ratios(scratch_ratio)}")
        print(f"recompute of all {args.games} snapshots (after a correction):  {spread(full)}")
        print(f"  per snapshot / GROUP BY: {ratios(full_ratio)}")
        if live:
            print(
                f"a result in the game in progress -> its snapshot, in-process, {args.live} "
                f"results one by one: p50 {live['p50'][0] * 1000:.0f} ms "
                f"(runs {live['p50'][1] * 1000:.0f}-{live['p50'][2] * 1000:.0f}), "
                f"p95 {live['p95'][0] * 1000:.0f} ms "
                f"(runs {live['p95'][1] * 1000:.0f}-{live['p95'][2] * 1000:.0f}) (target p95 < 1 s)"
            )
        print(
            f"memory growth over the timed recomputes: {rss_after - rss_before} KiB (no result loaded as a model)"
        )
        print(
            f"recompute with head-to-head and median Buchholz (1 snapshot): {spread(python_latest)}"
        )
        print(f"  ratio to the SQL chain: {python_latest[0] / latest_time:5.2f}x")
        if worker_p95 is not None:
            kept = "" if achieved >= 0.95 * args.rate else "  (could NOT keep the offered rate)"
            print(
                f"commit -> snapshot with a real worker, {args.results} results offered at "
                f"{args.rate}/s, achieved {achieved:.1f}/s{kept}: "
                f"p50 {worker_p50:.3f} s, p95 {worker_p95:.3f} s (target p95 < 1 s)"
            )
        else:
            print(
                "commit -> snapshot: set CELERY_BROKER_URL (Redis) to measure it with a real worker"
            )
        print(
            f"seating, all {args.games} games: {seat_time * 1000:8.1f} ms; "
            f"baseline shuffle-and-pair {shuffle_time * 1000:.1f} ms; ratio {seat_time / shuffle_time:.1f}x"
        )
    scratch.cleanup()


def ratios(t: tuple[float, float, float]) -> str:
    return f"{t[0]:5.2f}x (runs {t[1]:.2f}-{t[2]:.2f})"


def live_results(args, event, services) -> dict:
    """Results entered one by one in a new game, each committed and then its snapshot
    written in-process, as the worker's job does it: per run, the p50 and p95 of
    record -> snapshot; the medians of the runs with their spread. Each run removes its
    results first. The jobs the commit would queue (the standings, then the ratings) are
    held back: the ratings are timed by bench/ratings.py."""
    from unittest import mock

    from scoring import services as scoring_services
    from tournaments.models import GameResult, Round, Table

    number = args.games + 1
    round_ = Round.objects.create(event=event, number=number, seed=number)
    entries = list(event.entries.order_by("pk").values_list("pk", flat=True))
    pairs = list(zip(entries[::2], entries[1::2], strict=False))[: args.live]
    tables = Table.objects.bulk_create(
        Table(round=round_, number=i, seat_a_id=a, seat_b_id=b)
        for i, (a, b) in enumerate(pairs, start=1)
    )
    p50s, p95s = [], []
    for run in range(args.runs):
        GameResult.objects.filter(table__round=round_).delete()
        latencies = []
        for table in tables:
            with mock.patch.object(scoring_services, "send_recompute"):
                start = time.perf_counter()
                services.record_result(
                    event, table=table, winner=table.seat_a_id, loser_score=90 + run
                )
                scoring_services.recompute_standings(event.pk)
            latencies.append(time.perf_counter() - start)
        p50s.append(percentile(latencies, 50))
        p95s.append(percentile(latencies, 95))
    return {
        "p50": (statistics.median(p50s), min(p50s), max(p50s)),
        "p95": (statistics.median(p95s), min(p95s), max(p95s)),
    }


def commit_to_snapshot(args, event, services, app, number):
    """Start a worker, commit results at a steady rate, time each until its snapshot shows it."""
    from scoring.models import StandingsSnapshot
    from tournaments.models import GameResult, Round, Table

    app.conf.task_always_eager = False
    app.control.purge()
    env = dict(os.environ)
    worker = subprocess.Popen(
        WORKER_COMMAND,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(3)  # the worker connects
        round_ = Round.objects.create(event=event, number=number, seed=number)
        entries = list(event.entries.values_list("pk", flat=True))
        pairs = list(zip(entries[::2], entries[1::2], strict=False))[: args.results]
        tables = Table.objects.bulk_create(
            Table(round=round_, number=i, seat_a_id=a, seat_b_id=b)
            for i, (a, b) in enumerate(pairs, start=1)
        )
        latencies = []
        pending: list[tuple[float, int]] = []
        interval = 1 / args.rate
        start = time.perf_counter()
        for i, table in enumerate(tables):
            services.record_result(event, table=table, winner=table.seat_a_id, loser_score=100)
            committed = time.perf_counter()
            pending.append((committed, i + 1))
            pending = drain(pending, latencies, event, number, StandingsSnapshot, GameResult)
            time.sleep(max(0.0, start + (i + 1) * interval - time.perf_counter()))
        deadline = time.perf_counter() + 20
        while pending and time.perf_counter() < deadline:
            pending = drain(pending, latencies, event, number, StandingsSnapshot, GameResult)
            time.sleep(0.01)
        if pending:
            raise SystemExit(f"{len(pending)} results never reached a snapshot")
        achieved = len(tables) / (committed - start)
        return (
            round(percentile(latencies, 50), 4),
            round(percentile(latencies, 95), 4),
            round(achieved, 2),
        )
    finally:
        worker.terminate()
        worker.wait(timeout=30)


def drain(pending, latencies, event, number, StandingsSnapshot, GameResult):
    """Record the latency of every pending result the latest snapshot now includes."""
    from django.db.models import Sum

    snapshot = StandingsSnapshot.objects.filter(event=event, after_game=number).first()
    if snapshot is None:
        return pending
    played = snapshot.rows.aggregate(n=Sum("games_won"))["n"] or 0
    # Results of game `number` included = games won in the snapshot minus earlier games' wins.
    earlier = GameResult.objects.filter(
        table__round__event=event, table__round__number__lt=number
    ).count()
    included = played - earlier
    now = time.perf_counter()
    still = []
    for committed, k in pending:
        if k <= included:
            latencies.append(now - committed)
        else:
            still.append((committed, k))
    return still


if __name__ == "__main__":
    main()
