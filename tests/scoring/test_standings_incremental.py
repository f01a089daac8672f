"""The snapshot of the game in progress written from the snapshot before it plus that game's
results equals the snapshot written from every game's results, whatever happened before:
results arriving in any order, corrections of an old game, undo, withdrawals, late entries,
byes and forfeits, under the ACC chain and under a chain with Python tiebreakers."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import ServiceError
from scoring.models import Standing, StandingsSnapshot
from scoring.services import recompute_standings
from tests.factories import EntryFactory, event_with_field, stoppa_event_with_field
from tournaments import services
from tournaments.models import Entry, Event, GameResult, Table
from tournaments.stoppa import services as services_stoppa

pytestmark = pytest.mark.django_db

COLUMNS = (
    "snapshot__after_game",
    "entry_id",
    "rank",
    "tied",
    "separated_by",
    "game_points",
    "games_played",
    "games_won",
    "games_lost",
    "spread",
    "skunks_won",
    "skunks_suffered",
    "byes",
    "chips",
    "sessions_won",
    "best_session",
)

CHAINS = (
    [],  # the ACC chain, all SQL
    ["game_points", "head_to_head", "median_buchholz", "spread"],
    ["game_points", "games_won", "skunks_won", "spread", "draw"],
)


def rows(event: Event) -> list[tuple]:
    return list(
        Standing.objects.filter(event=event)
        .order_by("snapshot__after_game", "entry_id")
        .values_list(*COLUMNS)
    )


def assert_incremental_equals_full(event: Event) -> None:
    """Bring the standings up to date the normal way (the games' results versions say
    which snapshots changed), then write every snapshot again from nothing and from every
    game's results: nothing may differ, the snapshots' completeness and fingerprints
    included."""
    recompute_standings(event.pk)
    incremental = rows(event), snapshots(event)
    StandingsSnapshot.objects.filter(event=event).delete()
    recompute_standings(event.pk, incremental=False)
    assert (rows(event), snapshots(event)) == incremental


def snapshots(event: Event) -> list[tuple]:
    return list(
        StandingsSnapshot.objects.filter(event=event)
        .order_by("after_game")
        .values_list("after_game", "complete", "fingerprint")
    )


def open_tables(event: Event) -> list[Table]:
    return list(
        Table.objects.filter(round__event=event, result__isnull=True, seat_b__isnull=False)
        .select_related("round")
        .order_by("round__number", "number")
    )


def act(event: Event, action: str, pick: int) -> None:
    """One thing a club night does to its results; refused ones (ServiceError) change nothing."""
    try:
        if action == "draw":
            services.draw_next_game(event)
        elif action in ("play", "forfeit"):
            tables = open_tables(event)
            if tables:
                table = tables[pick % len(tables)]
                winner = table.seat_a_id if pick % 2 else table.seat_b_id
                if action == "forfeit":
                    services.record_result(event, table=table, winner=winner, forfeit=True)
                else:
                    score = (37, 60, 89, 90, 100, 118, 120)[pick % 7]
                    services.record_result(event, table=table, winner=winner, loser_score=score)
        elif action == "correct":
            results = list(
                GameResult.objects.filter(table__round__event=event, loser_id__isnull=False)
                .select_related("table")
                .order_by("table__round__number", "table__number")
            )
            if results:
                old = results[pick % len(results)]
                services.record_result(
                    event,
                    table=old.table,
                    winner=old.loser_id,
                    loser_score=(45, 95, 119)[pick % 3],
                    reason="Scorecard misread",
                )
        elif action == "undo":
            services.undo_last_result(event, reason="Wrong table")
        elif action == "withdraw":
            active = list(event.entries.filter(withdrawn=False).order_by("pk"))
            if len(active) > 4:
                services.withdraw_entry(active[pick % len(active)], forfeit_open=bool(pick % 2))
        elif action == "late_entry":
            EntryFactory(event=event)
    except ServiceError:
        pass


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(
            ["draw", "play", "play", "play", "forfeit", "correct", "undo", "withdraw", "late_entry"]
        ),
        st.integers(min_value=0, max_value=1000),
    ),
    min_size=4,
    max_size=14,
)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    actions=ACTIONS,
    players=st.integers(min_value=5, max_value=9),
    chain=st.sampled_from(CHAINS),
    checked_in_count=st.booleans(),
)
def test_incremental_snapshot_equals_the_full_recompute(actions, players, chain, checked_in_count):
    event = event_with_field(
        players,
        status=Event.Status.RUNNING,
        tiebreakers=chain,
        entrants=Event.Entrants.CHECKED_IN if checked_in_count else Event.Entrants.PLAYED,
    )
    services.draw_next_game(event)
    for action, pick in actions:
        act(event, action, pick)
        event.refresh_from_db()
        assert_incremental_equals_full(event)


def test_a_full_night_written_incrementally_equals_the_full_recompute():
    """Seven games of an odd field (a bye each game), every result arriving one by one, a
    correction of an old game, an undo and a withdrawal with forfeits: after each, the
    standings the normal way equal the ones from every game's results."""
    event = event_with_field(9, status=Event.Status.RUNNING)
    for number in range(1, 8):
        services.draw_next_game(event)
        for i, table in enumerate(open_tables(event)):
            winner = table.seat_a_id if (i + number) % 3 else table.seat_b_id
            services.record_result(event, table=table, winner=winner, loser_score=80 + i)
            assert_incremental_equals_full(event)
        if number == 5:
            act(event, "correct", 3)
            assert_incremental_equals_full(event)
        if number == 6:
            services.undo_last_result(event, reason="Wrong table")
            assert_incremental_equals_full(event)
            act(event, "play", 0)
        if number == 4:
            services.withdraw_entry(Entry.objects.filter(event=event).first(), forfeit_open=True)
            assert_incremental_equals_full(event)
    byes = Standing.objects.filter(event=event, snapshot__after_game=7, byes__gt=0)
    assert byes.exists()
    assert StandingsSnapshot.objects.filter(event=event).count() == 7


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    players=st.integers(min_value=3, max_value=10),
    sessions=st.integers(min_value=2, max_value=4),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_stoppa_sessions_written_incrementally_equal_the_full_recompute(players, sessions, seed):
    """Chips, sessions won and the best session (a net can be negative: the best of a player
    who lost every session is below zero) add up across sessions as from scratch."""
    event = stoppa_event_with_field(players, table_size=4, min_table_size=3, seed=seed)
    rng = random.Random(seed)
    for _ in range(sessions):
        round_ = services.draw_next_game(event)
        for table in round_.stoppa_tables.filter(number__isnull=False):
            members = list(table.seats.values_list("entry_id", flat=True))
            nets = {pk: rng.randint(-30, 30) for pk in members[:-1]}
            nets[members[-1]] = -sum(nets.values())
            services_stoppa.record_session_nets(event, table=table, nets=nets)
            assert_incremental_equals_full(event)
