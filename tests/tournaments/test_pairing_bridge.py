"""The bridge between the database and the pure generators: the Swiss order follows the
event's own ranking chain, not a fixed game points / wins / spread."""

from __future__ import annotations

import pytest

from scoring.selectors import standings_for_event
from tests.factories import event_with_field
from tournaments import pairing_bridge as bridge
from tournaments import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_the_swiss_order_is_the_events_ranking_chain():
    event = event_with_field(8, pairing=Event.Pairing.SWISS)
    first = services.draw_next_game(event)
    for table, loser_score in zip(first.tables.all(), (30, 60, 90, 120), strict=True):
        services.record_result(event, table=table, winner=table.seat_a, loser_score=loser_score)
    players = list(event.entries.values_list("pk", flat=True))

    order, scores = bridge.swiss_order(event, players)
    by_points = sorted(players, key=lambda pk: (-scores[pk], order.index(pk)))
    assert order == by_points  # the ACC chain: game points first
    assert sorted(scores.values()) == [0, 0, 0, 0, 2, 3, 3, 3]

    # A chain that ranks by a draw of lots alone: the Swiss order is that drawn order.
    services.set_ranking_chain(event, ["draw"])
    order, scores = bridge.swiss_order(event, players)
    assert order == [row.entry_id for row in standings_for_event(event.pk)]
    assert order != by_points
    second = services.draw_next_game(event)
    assert second.method == "swiss" and second.tables.count() == 4


def test_a_qualifying_event_keeps_its_table_movement_game_after_game():
    """The service used to reseed every game, so the movement broke after two or three games
    and the random draw seated the rest; the movement now runs the whole session."""
    event = event_with_field(24, games_planned=9)
    methods = []
    for _ in range(9):
        round_ = services.draw_next_game(event)
        methods.append(round_.method)
        for table in round_.tables.filter(seat_b__isnull=False):
            services.record_result(event, table=table, winner=table.seat_a, loser_score=100)
    assert methods == ["movement"] * 9
    pairs = [
        frozenset(p) for p in event.rounds.values_list("tables__seat_a_id", "tables__seat_b_id")
    ]
    assert len(pairs) == len(set(pairs)) == 9 * 12  # nobody met twice


@pytest.mark.django_db(transaction=True)
def test_the_seating_of_a_small_event_reads_results_by_index_in_a_busy_database():
    """The public page's seating read the whole results table (226k rows) on a busy database
    after a bulk load; with fresh statistics it reads a small event's results by index."""
    from django.db import connection

    from tests.conftest import require_service
    from tournaments import selectors
    from tournaments.models import GameResult, Round, Table
    from tournaments.services import analyze

    require_service("PostgreSQL", connection.vendor == "postgresql", "set DATABASE_URL")
    busy = event_with_field(400)
    entries = list(busy.entries.values_list("pk", flat=True))
    for number in range(1, 21):  # 4,000 results in another event
        round_ = Round.objects.create(event=busy, number=number, seed=number)
        tables = Table.objects.bulk_create(
            Table(round=round_, number=i, seat_a_id=a, seat_b_id=b)
            for i, (a, b) in enumerate(zip(entries[::2], entries[1::2], strict=True), start=1)
        )
        GameResult.objects.bulk_create(
            GameResult(
                table=t,
                winner_id=t.seat_a_id,
                loser_id=t.seat_b_id,
                loser_score=100,
                winner_points=2,
                margin=21,
            )
            for t in tables
        )
    analyze(GameResult, Table, Round)
    night = event_with_field(24)
    services.draw_next_game(night)
    query = selectors.rounds_with_tables(night, released_only=True).first().tables.all()
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "Seq Scan on tournaments_gameresult" not in plan, plan
