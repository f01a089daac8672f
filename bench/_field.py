"""What the benches share: a large event built in bulk (N players, G played games, and games
drawn but open), the command of a real Celery worker, percentiles.

Used by ``bench/standings.py`` and ``bench/load.py``. Django must be set up first. Seats
come from the qualifying generator (no repeats), results are random but valid ACC results,
and the tables' statistics are refreshed at the end, as the services do after a bulk import.
"""

from __future__ import annotations

import random
import sys

# A real worker as the benches start it: one process, every queue, quiet.
WORKER_COMMAND = [
    sys.executable,
    "-m",
    "celery",
    "-A",
    "config",  # the Celery app lives in config/celery.py (the project was renamed from pegboard)
    "worker",
    "--pool",
    "solo",
    "--loglevel",
    "WARNING",
    "--without-gossip",
    "--without-mingle",
]


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile of ``values`` (nearest rank; NaN for none)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def seat_games(ids: list[int], games: int, *, seed: int = 7) -> list:
    """``games`` qualifying seatings of the field, each respecting the ones before."""
    from tournaments.pairing import draw_qualifying_game, pair_key

    met: dict = {}
    byes: dict = {}
    seatings = []
    for game in range(1, games + 1):
        s = draw_qualifying_game(
            ids, game_number=game, seed=seed, met=met, byes=byes, starting_field=ids
        )
        for a, b in s.pairs:
            met[pair_key(a, b)] = met.get(pair_key(a, b), 0) + 1
        if s.bye is not None:
            byes[s.bye] = byes.get(s.bye, 0) + 1
        seatings.append(s)
    return seatings


def build_event(
    players: int,
    games: int,
    *,
    open_games: int = 0,
    name: str = "Bench event",
    seatings: list | None = None,
):
    """A running event of ``players`` checked-in entries with ``games`` games played and
    ``open_games`` more games drawn without results. Returns the event."""
    from tournaments.models import (
        Club,
        Entry,
        Event,
        GameResult,
        MatchPointFormat,
        Player,
        Round,
        Table,
    )
    from tournaments.outcome import game_outcome
    from tournaments.services import analyze

    fmt = MatchPointFormat.objects.get(code="acc")
    club = Club.objects.create(name=f"{name} club", slug=f"bench-{random.randrange(10**9)}")
    event = Event.objects.create(
        club=club,
        name=name,
        date="2026-11-22",
        games_planned=games + open_games + 1,
        match_point_format=fmt,
        status=Event.Status.RUNNING,
    )
    people = Player.objects.bulk_create(
        Player(name=f"Bench Player {i:05d}", home_club=club) for i in range(players)
    )
    entries = Entry.objects.bulk_create(
        Entry(event=event, player=p, checked_in=True) for p in people
    )
    ids = [e.pk for e in entries]
    if seatings is None:
        seatings = seat_games(ids, games + open_games)
    rng = random.Random(11)
    for number, seating in enumerate(seatings[: games + open_games], start=1):
        round_ = Round.objects.create(event=event, number=number, seed=number)
        tables = Table.objects.bulk_create(
            Table(round=round_, number=i, seat_a_id=a, seat_b_id=b)
            for i, (a, b) in enumerate(seating.pairs, start=1)
        )
        if number > games:
            continue  # drawn, waiting for its results
        results = []
        for table in tables:
            loser_score = rng.randint(40, 120)
            outcome = game_outcome(fmt, 121, loser_score)
            pair = (table.seat_a_id, table.seat_b_id)
            winner, loser = pair if rng.random() < 0.5 else pair[::-1]
            results.append(
                GameResult(
                    table=table,
                    winner_id=winner,
                    loser_id=loser,
                    loser_score=loser_score,
                    winner_points=outcome.winner_points,
                    loser_points=outcome.loser_points,
                    margin=outcome.margin,
                    skunk_level=outcome.skunk_level,
                )
            )
        GameResult.objects.bulk_create(results, batch_size=5000)
    # Fresh statistics after the bulk build: the planner must not plan from the empty tables.
    analyze(Player, Entry, Round, Table, GameResult)
    return event
