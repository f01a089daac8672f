"""Club ratings at scale: a club recompute from scratch, and the incremental run after one
more game, for N players x G games (default 1,000 x 9, the brief's figure), each as a ratio to
a plain SQL aggregate over the same games (games won per player: reading what the ratings
read), measured in the same run; medians of 3 runs.

    DATABASE_URL=postgres://... python bench/ratings.py [--players 1000] [--games 9]

Builds the event in bulk (bench/_field.py) in the database given, migrates it first.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _field import build_event


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=9)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db.models import Count

    from scoring import ratings
    from tournaments.models import GameResult

    call_command("migrate", verbosity=0)
    event = build_event(args.players, args.games, open_games=1)
    club_id = event.club_id
    games = len(ratings.club_games(club_id))

    def timed(action) -> float:
        runs = []
        for _ in range(3):
            started = time.perf_counter()
            action()
            runs.append(time.perf_counter() - started)
        return statistics.median(runs)

    def baseline() -> None:
        list(
            GameResult.objects.filter(table__round__event__club_id=club_id)
            .values("winner_id")
            .annotate(won=Count("pk"))
        )

    sql = timed(baseline)
    scratch = timed(lambda: ratings.update_club(club_id, from_scratch=True))

    # One more result of the open game, then the incremental run (what each result costs).
    table = event.rounds.get(number=args.games + 1).tables.first()
    GameResult.objects.create(
        table=table,
        winner_id=table.seat_a_id,
        loser_id=table.seat_b_id,
        loser_score=100,
        winner_points=2,
        margin=21,
    )
    started = time.perf_counter()
    assert ratings.update_club(club_id) == "incremental"
    incremental = time.perf_counter() - started
    print(
        f"ratings: {args.players} players, {games} games; baseline, a SQL GROUP BY over the "
        f"same games: {sql * 1000:.1f} ms\n"
        f"  from scratch:                       {scratch:.2f} s ({scratch / sql:,.0f}x the baseline)\n"
        f"  incremental after one more game:    {incremental:.2f} s "
        f"({incremental / sql:,.0f}x the baseline)"
    )


if __name__ == "__main__":
    main()
