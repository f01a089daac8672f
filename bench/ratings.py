"""Club ratings under the load's arrivals, against the standings job in the same run.

    DATABASE_URL=postgres://.../pegboard_ratings python bench/ratings.py \
        [--players 1000] [--games 22] [--open 8] [--results 800] [--rate 75] [--window 0.3] \
        [--ratings-window 2.0]

Builds a PLAYERS x GAMES event with OPEN more games drawn and waiting (bench/_field.py) in the
database given (migrated first; without DATABASE_URL a temporary SQLite file), rates it once
from scratch, then feeds RESULTS results of the open games the way the load does: in game
order, the tables of a game in random order (``--in-order``: by number, as bench/load.py
reports them), RATE a second. Each standings window (WINDOW s,
``STANDINGS_GATHER_SECONDS``) commits the results that arrived in it and runs the standings
job once; the ratings job runs once per ratings window (``RATINGS_GATHER_SECONDS``; give it
the standings window to see the job run per batch, as it did before it gathered). Both jobs
are timed as the worker runs them (``services.recompute_standings``, ``ratings.update_club``)
and printed as total worker seconds, runs and averages, the ratings' total as a ratio to the
standings' (the baseline, measured in the same run). Then the cost of the fall-back: a
correction of an already-rated result (a full replay), and a replay from scratch.
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
from _field import build_event


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=22)
    parser.add_argument("--open", type=int, default=8, help="open games the results go to")
    parser.add_argument("--results", type=int, default=800, help="results fed in all")
    parser.add_argument("--rate", type=float, default=75.0, help="results a second")
    parser.add_argument("--window", type=float, default=0.3, help="standings gather (s)")
    parser.add_argument("--ratings-window", type=float, default=2.0, help="ratings gather (s)")
    parser.add_argument(
        "--in-order", action="store_true", help="tables in number order (bench/load.py's order)"
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL"):
        scratch = Path(tempfile.mkdtemp(prefix="pegboard-ratings-")) / "bench.sqlite3"
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction
    from django.db.models import F

    from scoring import ratings, services
    from tournaments.models import Event, GameResult, Table
    from tournaments.outcome import game_outcome

    call_command("migrate", verbosity=0)
    print(f"building {args.players} players x {args.games} games ...", file=sys.stderr)
    event = build_event(args.players, args.games, open_games=args.open, name="Ratings bench")
    club_id = event.club_id
    services.recompute_standings(event.pk)
    ratings.update_club(club_id, from_scratch=True)

    rng = random.Random(26)
    arrivals: list[Table] = []
    tables = Table.objects.filter(round__event=event, round__number__gt=args.games)
    for number in range(args.games + 1, args.games + args.open + 1):
        game = list(tables.filter(round__number=number).order_by("number"))
        if not args.in_order:
            rng.shuffle(game)  # the tables of a game finish in any order
        arrivals += game
    arrivals = arrivals[: args.results]
    fmt = event.match_point_format

    def commit(batch: list[Table]) -> None:
        rows = []
        for table in batch:
            score = rng.randint(60, 120)
            outcome = game_outcome(fmt, 121, score)
            pair = (table.seat_a_id, table.seat_b_id)
            winner, loser = pair if rng.random() < 0.5 else pair[::-1]
            rows.append(
                GameResult(
                    table=table,
                    winner_id=winner,
                    loser_id=loser,
                    loser_score=score,
                    winner_points=outcome.winner_points,
                    loser_points=outcome.loser_points,
                    margin=outcome.margin,
                    skunk_level=outcome.skunk_level,
                )
            )
        with transaction.atomic():
            GameResult.objects.bulk_create(rows)
            # What hooks.results_changed does, without sending the (eager) tasks.
            Event.objects.filter(pk=event.pk).update(results_version=F("results_version") + 1)

    def timed(fn) -> float:
        started = time.perf_counter()
        fn()
        return time.perf_counter() - started

    per_window = max(1, round(args.rate * args.window))
    windows_per_rating = max(1, round(args.ratings_window / args.window))
    standings: list[float] = []
    rated: list[float] = []
    kinds: dict[str, int] = {}
    for n, start in enumerate(range(0, len(arrivals), per_window), start=1):
        commit(arrivals[start : start + per_window])
        standings.append(timed(lambda: services.recompute_standings(event.pk)))
        last = start + per_window >= len(arrivals)
        if n % windows_per_rating == 0 or last:
            started = time.perf_counter()
            outcome = ratings.update_club(club_id)
            rated.append(time.perf_counter() - started)
            kinds[outcome] = kinds.get(outcome, 0) + 1

    # Correctness on the way: the fed state equals a replay from scratch, bit for bit.
    def stored() -> tuple:
        from scoring.models import PlayerRating, RatingHistory

        return tuple(
            sorted(row[1:] for row in model.objects.filter(club_id=club_id).values_list())
            for model in (PlayerRating, RatingHistory)
        )

    fed = stored()
    scratch = timed(lambda: ratings.update_club(club_id, from_scratch=True))
    same = fed == stored()
    # The fall-back: a correction of an already-rated result of game 1 (winner and loser swap).
    first = GameResult.objects.filter(table__round__event=event, table__round__number=1).first()
    first.winner_id, first.loser_id = first.loser_id, first.winner_id
    with transaction.atomic():
        first.save()
        Event.objects.filter(pk=event.pk).update(results_version=F("results_version") + 1)
    fallback_kind: list[str] = []
    fallback = timed(lambda: fallback_kind.append(ratings.update_club(club_id)))
    corrected = stored()
    ratings.update_club(club_id, from_scratch=True)
    same_after = corrected == stored()

    total_s, total_r = sum(standings), sum(rated)
    print(
        f"ratings bench: {args.players} players x {args.games} games, {args.open} open games; "
        f"{len(arrivals)} results at {args.rate:g}/s, standings window {args.window:g} s, "
        f"ratings window {args.ratings_window:g} s\n"
        f"  standings job (baseline): {len(standings)} runs, {total_s:.2f} s worker time, "
        f"average {statistics.mean(standings) * 1000:.1f} ms\n"
        f"  ratings job:              {len(rated)} runs, {total_r:.2f} s worker time, "
        f"average {statistics.mean(rated) * 1000:.1f} ms ({kinds})\n"
        f"  ratings / standings worker time: {total_r / total_s:.3f}"
        f" (per run: {statistics.mean(rated) / statistics.mean(standings):.3f})\n"
        f"  fed state equals a replay from scratch: {same}\n"
        f"  a replay from scratch: {scratch:.2f} s; a correction of game 1 "
        f"({fallback_kind[0]}): {fallback:.2f} s, equal to a replay from scratch: {same_after}"
    )


if __name__ == "__main__":
    main()
