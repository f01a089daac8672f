"""Concurrent reports on PostgreSQL: exactly one stored outcome, no duplicate, no error."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from results import services
from results.models import Submission
from tests.conftest import require_service
from tests.factories import event_with_field
from tournaments import services as tournament_services
from tournaments.models import GameResult

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def run_together(*calls):
    """Start every call at the same moment, each on its own connection; return outcomes."""
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def worker(i, call):
        try:
            barrier.wait()
            outcomes[i] = call()
        except Exception as exc:  # the assertion below names it
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return outcomes


@pytest.fixture
def game():
    require_service("PostgreSQL", connection.vendor == "postgresql", "set DATABASE_URL")
    event = event_with_field(4)
    table = tournament_services.draw_next_game(event).tables.order_by("number").first()
    return event, table, services.key_for(table.seat_a).key, services.key_for(table.seat_b).key


def test_both_players_report_at_the_same_moment(game):
    event, table, key_a, key_b = game
    outcomes = run_together(
        lambda: services.submit(key_a, table=table.pk, winner=table.seat_a_id, loser_score=95),
        lambda: services.submit(key_b, table=table.pk, winner=table.seat_a_id, loser_score=95),
    )
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert sorted(o.state for o in outcomes) == ["confirmed", "pending"]
    assert GameResult.objects.filter(table=table).count() == 1
    assert Submission.objects.filter(table=table, status="confirmed").count() == 1


def test_a_double_tap_from_one_phone(game):
    event, table, key_a, _ = game
    outcomes = run_together(
        *[
            lambda: services.submit(key_a, table=table.pk, winner=table.seat_a_id, loser_score=90)
            for _ in range(4)
        ]
    )
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert sorted(o.state for o in outcomes) == ["duplicate", "duplicate", "duplicate", "pending"]
    assert Submission.objects.filter(table=table).count() == 1


def test_desk_corrections_race_game_page_entries_without_a_deadlock():
    """20 desk corrections against 20 game-page entries used to deadlock (the desk locked the
    table then the event, the game page the event then the table). One order: event, table."""
    require_service("PostgreSQL", connection.vendor == "postgresql", "set DATABASE_URL")
    from tests.factories import UserFactory

    event = event_with_field(40)
    td = UserFactory(username="race-td")
    tables = list(
        tournament_services.draw_next_game(event).tables.filter(seat_b__isnull=False)[:20]
    )
    for table in tables:
        tournament_services.record_result(event, table=table, winner=table.seat_a, loser_score=90)
    calls = []
    for table in tables:
        calls.append(
            lambda t=table: services.correct(
                event, table=t.pk, user=td, winner=t.seat_b_id, loser_score=80, reason="desk"
            )
        )
        calls.append(
            lambda t=table: tournament_services.record_result(
                event, table=t.pk, winner=t.seat_a_id, loser_score=70, reason="game page"
            )
        )
    outcomes = run_together(*calls)
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    # Every table ends on one of the two versions, each change in the audit log.
    for table in tables:
        result = GameResult.objects.get(table=table)
        assert (result.winner_id, result.loser_score) in {
            (table.seat_b_id, 80),
            (table.seat_a_id, 70),
        }


def _hold_event(lock, held: threading.Event, release: threading.Event, event_id: int):
    """Hold the event's row in ``lock`` mode on a connection of its own until ``release``."""
    from django.db import transaction

    from tournaments.models import Event

    try:
        with transaction.atomic():
            event = Event.objects.get(pk=event_id)
            lock(event)
            held.set()
            release.wait(10)
    finally:
        connections.close_all()


def test_reports_at_other_tables_do_not_wait_for_a_report_in_flight():
    """A report holds the event in share mode: a confirmation at another table commits while
    the first report's transaction is still open (the exclusive lock queued every report)."""
    require_service("PostgreSQL", connection.vendor == "postgresql", "set DATABASE_URL")
    event = event_with_field(4)
    first, second = tournament_services.draw_next_game(event).tables.order_by("number")
    keys = {
        t.pk: (services.key_for(t.seat_a).key, services.key_for(t.seat_b).key)
        for t in (first, second)
    }
    held, release = threading.Event(), threading.Event()
    holder = threading.Thread(
        target=_hold_event, args=(tournament_services.shared_event_lock, held, release, event.pk)
    )
    holder.start()
    assert held.wait(10)
    try:
        key_a, key_b = keys[second.pk]
        outcomes = run_together(
            lambda: services.submit(key_a, table=second.pk, winner=second.seat_a_id, loser_score=80)
        )
        assert outcomes[0].state == "pending", outcomes
        done = run_together(
            lambda: services.submit(key_b, table=second.pk, winner=second.seat_a_id, loser_score=80)
        )
        assert done[0].state == "confirmed", done  # wrote the result and bumped the version
    finally:
        release.set()
        holder.join(10)
    assert GameResult.objects.filter(table=second).count() == 1


def test_a_td_action_waits_for_a_report_in_flight():
    """The share lock still keeps the TD's exclusive actions (a redraw, the finish) apart
    from the reports: the TD's lock is granted only once the report's transaction ends."""
    require_service("PostgreSQL", connection.vendor == "postgresql", "set DATABASE_URL")
    event = event_with_field(4)
    tournament_services.draw_next_game(event)
    held, release = threading.Event(), threading.Event()
    holder = threading.Thread(
        target=_hold_event, args=(tournament_services.shared_event_lock, held, release, event.pk)
    )
    holder.start()
    assert held.wait(10)
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SET lock_timeout = '200ms'")
            from django.db import OperationalError, transaction

            with pytest.raises(OperationalError, match="lock timeout"), transaction.atomic():
                tournament_services.locked_event(event)
            cursor.execute("SET lock_timeout = 0")
    finally:
        release.set()
        holder.join(10)
    from django.db import transaction

    with transaction.atomic():
        assert tournament_services.locked_event(event).pk == event.pk


def test_reports_at_every_table_at_once_keep_one_audit_chain():
    """Issue 27: reports hold the event only in share mode, so two of them could chain onto
    the same head; the head's lock (``FOR NO KEY UPDATE``, taken to append) makes them take
    turns for the append only. 16 players report at 8 tables at the same moment."""
    require_service("PostgreSQL", connection.vendor == "postgresql", "set DATABASE_URL")
    from tournaments.audit_chain import verify_chain
    from tournaments.models import AuditEntry

    event = event_with_field(16)
    tables = list(tournament_services.draw_next_game(event).tables.filter(seat_b__isnull=False))
    calls = []
    for table in tables:
        for seat in (table.seat_a, table.seat_b):
            key = services.key_for(seat).key
            calls.append(
                lambda k=key, t=table: services.submit(
                    k, table=t.pk, winner=t.seat_a_id, loser_score=90
                )
            )
    outcomes = run_together(*calls)
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert GameResult.objects.filter(table__round__event=event).count() == len(tables)
    check = verify_chain(event)
    assert check.intact, check.first_mismatch
    assert check.entries == AuditEntry.objects.filter(event=event).count() == 3 * len(tables)
