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
