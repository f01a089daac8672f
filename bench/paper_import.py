"""A paper-card import of 10,000 lines against reading the same CSV with the csv module alone.

    python bench/paper_import.py [--players 500] [--games 20] [--repeat 3]

Uses DATABASE_URL when it is set (point it at a scratch database: the script migrates it and
adds a bench club), else a temporary SQLite file. Builds an event of PLAYERS x GAMES tables,
writes both players' lines of every table (the ACC paper card: W/L and the spread), then
times ``results.services.import_paper_cards`` (reconciled by Rule 12.2, checked, written and
audited in bulk) against the floor: ``csv.DictReader`` over the same text. Each run imports
new spreads, so every game is changed and audited. Prints the median and the spread of the
runs, the ratio to the baseline, and the queries one import takes.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    scratch = tempfile.TemporaryDirectory(prefix="pegboard-bench-")
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch.name}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    call_command("migrate", verbosity=0)

    from config.celery import app
    from results.services import import_paper_cards
    from tournaments.models import Club, Entry, Event, MatchPointFormat, Player, Round, Table
    from tournaments.services import analyze

    app.conf.task_always_eager = True
    club = Club.objects.create(name="Bench club", slug=f"bench-{random.randrange(10**9)}")
    event = Event.objects.create(
        club=club,
        name="Bench import",
        date="2026-11-24",
        games_planned=args.games,
        match_point_format=MatchPointFormat.objects.get(code="acc"),
        status=Event.Status.RUNNING,
    )
    players = Player.objects.bulk_create(
        Player(name=f"Bench Player {i:04d}", home_club=club) for i in range(args.players)
    )
    entries = Entry.objects.bulk_create(
        Entry(event=event, player=p, checked_in=True) for p in players
    )
    names = {e.pk: p.name for e, p in zip(entries, players, strict=True)}
    rng = random.Random(5)
    seats: list[tuple[int, int, int, int]] = []  # game, table, a, b
    for number in range(1, args.games + 1):
        round_ = Round.objects.create(event=event, number=number, seed=number)
        order = [e.pk for e in entries]
        rng.shuffle(order)
        pairs = list(zip(order[::2], order[1::2], strict=False))
        Table.objects.bulk_create(
            Table(round=round_, number=i, seat_a_id=a, seat_b_id=b)
            for i, (a, b) in enumerate(pairs, start=1)
        )
        seats += [(number, i, a, b) for i, (a, b) in enumerate(pairs, start=1)]

    def cards(run: int) -> str:
        out = io.StringIO()
        out.write("game,table,player,result,spread\n")
        for game, table, a, b in seats:
            spread = 1 + (game * 7 + table + run) % 60
            out.write(f"{game},{table},{names[a]},W,+{spread:02d}\n")
            out.write(f"{game},{table},{names[b]},L,-{spread:02d}\n")
        return out.getvalue()

    analyze(Player, Entry, Round, Table)  # fresh statistics after the bulk build
    lines = 2 * len(seats)
    imports, reads, queries = [], [], 0
    for run in range(args.repeat):
        text = cards(run)
        start = time.perf_counter()
        rows = list(csv.DictReader(io.StringIO(text)))
        reads.append(time.perf_counter() - start)
        assert len(rows) == lines
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            report = import_paper_cards(event, text, user=None)
            imports.append(time.perf_counter() - start)
        queries = len(captured.captured_queries)
        assert len(report.recorded) == len(seats) and not report.flagged

    def spread(values: list[float]) -> str:
        return f"{min(values) * 1000:.0f}-{max(values) * 1000:.0f} ms"

    median_import, median_read = statistics.median(imports), statistics.median(reads)
    print(f"paper-card import, {lines:,} lines ({len(seats):,} games, {args.repeat} runs)")
    print(
        f"  import (Rule 12.2, checked, written, audited): median {median_import:.2f} s ({spread(imports)})"
    )
    print(
        f"  baseline csv.DictReader over the same text:    median {median_read * 1000:.0f} ms ({spread(reads)})"
    )
    print(
        f"  ratio import / read: {median_import / median_read:.0f}x; {queries} queries per import"
    )
    print(f"  {lines / median_import:,.0f} lines a second")


if __name__ == "__main__":
    main()
