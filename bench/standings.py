"""Standings and seating of a 1,000-player, 9-game event, against named baselines.

    python bench/standings.py [--players 1000] [--games 9] [--database-url URL]

Builds a scratch database (a temporary SQLite file unless --database-url names a scratch
PostgreSQL database: it is migrated and filled), then measures in the same run:
- the standings job (two ORM aggregates, ranking, 1,000 rows rewritten) against a plain SQL
  aggregate that only sums each player's points, wins and spread (the floor for any approach);
- drawing all games of the seating against a baseline that shuffles and pairs neighbours with
  no repeat check.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def best_of(fn, repeat: int = 5) -> float:
    """Best wall time of ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=9)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()

    scratch = tempfile.TemporaryDirectory(prefix="pegboard-bench-")
    os.environ["DATABASE_URL"] = args.database_url or f"sqlite:///{scratch.name}/bench.sqlite3"
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pegboard.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)

    from scoring.models import MatchPointFormat
    from scoring.outcome import game_outcome
    from scoring.services import recompute_standings
    from tournaments.models import Club, Entry, Event, GameResult, Player, Round, Table
    from tournaments.pairing import draw_qualifying_game, pair_key

    fmt = MatchPointFormat.objects.get(code="acc")
    club = Club.objects.create(name="Bench club", slug=f"bench-{random.randrange(10**9)}")
    event = Event.objects.create(
        club=club,
        name="Bench night",
        date="2026-11-22",
        games_planned=args.games,
        match_point_format=fmt,
        status=Event.Status.RUNNING,
    )
    players = Player.objects.bulk_create(
        Player(name=f"Bench Player {i:04d}", home_club=club) for i in range(args.players)
    )
    entries = Entry.objects.bulk_create(
        Entry(event=event, player=p, checked_in=True) for p in players
    )
    ids = [e.pk for e in entries]

    # Seating: all games, with history, against a shuffle-and-pair baseline.
    def seat_all():
        met, byes, seatings = {}, {}, []
        for game in range(1, args.games + 1):
            s = draw_qualifying_game(
                ids, game_number=game, seed=7, met=met, byes=byes, starting_field=ids
            )
            for a, b in s.pairs:
                met[pair_key(a, b)] = met.get(pair_key(a, b), 0) + 1
            if s.bye is not None:
                byes[s.bye] = byes.get(s.bye, 0) + 1
            seatings.append(s)
        return seatings

    def shuffle_pairs():
        rng = random.Random(7)
        for _ in range(args.games):
            order = list(ids)
            rng.shuffle(order)
            list(zip(order[::2], order[1::2], strict=False))

    seatings = seat_all()
    seat_time = best_of(seat_all)
    shuffle_time = best_of(shuffle_pairs)

    rng = random.Random(11)
    for number, seating in enumerate(seatings, start=1):
        round_ = Round.objects.create(event=event, number=number, seed=number)
        tables = Table.objects.bulk_create(
            Table(round=round_, number=i, seat_a_id=a, seat_b_id=b)
            for i, (a, b) in enumerate(seating.pairs, start=1)
        )
        results = []
        for table in tables:
            loser_score = rng.randint(40, 120)
            outcome = game_outcome(fmt, 121, loser_score)
            winner, loser = (
                (table.seat_a_id, table.seat_b_id)
                if rng.random() < 0.5
                else (table.seat_b_id, table.seat_a_id)
            )
            results.append(
                GameResult(
                    table=table,
                    winner_id=winner,
                    loser_id=loser,
                    loser_score=loser_score,
                    winner_points=outcome.winner_points,
                    margin=outcome.margin,
                    skunk_level=outcome.skunk_level,
                )
            )
        GameResult.objects.bulk_create(results)

    baseline_sql = """
        SELECT entry_id, SUM(points) AS gp, SUM(won) AS won, SUM(spread) AS spread FROM (
            SELECT r.winner_id AS entry_id, r.winner_points AS points, 1 AS won, r.margin AS spread
              FROM tournaments_gameresult r
              JOIN tournaments_table t ON t.id = r.table_id
              JOIN tournaments_round g ON g.id = t.round_id WHERE g.event_id = %s
            UNION ALL
            SELECT r.loser_id, r.loser_points, 0, -r.margin
              FROM tournaments_gameresult r
              JOIN tournaments_table t ON t.id = r.table_id
              JOIN tournaments_round g ON g.id = t.round_id
             WHERE g.event_id = %s AND r.loser_id IS NOT NULL
        ) lines GROUP BY entry_id ORDER BY gp DESC, won DESC, spread DESC
    """

    def plain_sql():
        with connection.cursor() as cursor:
            cursor.execute(baseline_sql, [event.pk, event.pk])
            return cursor.fetchall()

    rows = recompute_standings(event.pk)
    assert rows == args.players
    job_time = best_of(lambda: recompute_standings(event.pk))
    sql_time = best_of(plain_sql)
    assert len(plain_sql()) == args.players

    games = GameResult.objects.filter(table__round__event=event).count()
    vendor = connection.vendor
    print(f"field: {args.players} players, {args.games} games, {games} results on {vendor}")
    print(f"standings job (aggregate, rank, write {rows} rows): {job_time * 1000:8.1f} ms")
    print(f"baseline: plain SQL aggregate, no writes:          {sql_time * 1000:8.1f} ms")
    print(f"  ratio job / plain SQL aggregate: {job_time / sql_time:5.1f}x")
    print(f"seating, all {args.games} games without repeats:    {seat_time * 1000:8.1f} ms")
    print(f"baseline: shuffle and pair, no checks:             {shuffle_time * 1000:8.1f} ms")
    print(f"  ratio seating / shuffle: {seat_time / shuffle_time:5.1f}x")
    repeats = statistics.fmean(len(s.repeats) for s in seatings)
    print(f"  repeats per game: {repeats:.1f}")
    scratch.cleanup()


if __name__ == "__main__":
    main()
