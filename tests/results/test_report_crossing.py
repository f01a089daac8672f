"""A report crosses from results to tournaments once: one call of
``tournaments.services.results.settle_table`` (a Stoppa sheet: of
``tournaments.stoppa.services.settle_session_table``) locks, checks, writes and audits,
whichever path the report takes (issue 25, item 5). The queries are counted too: no path takes more
than it did when results called tournaments step by step."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from results import services
from results.models import NetSheet, Submission
from tests.factories import UserFactory, event_with_field, stoppa_event_with_field
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, Event, GameResult
from tournaments.stoppa import services as stoppa_services

pytestmark = pytest.mark.django_db
CHAIN = 1  # statements an append to the audit chain adds (tournaments.audit_chain)

RESULTS = str(Path(services.__file__).parent.parent) + "/"
TOURNAMENT_SERVICES = (
    str(Path(tournament_services.__file__).parent) + "/",
    str(Path(stoppa_services.__file__)),
)


class Crossings:
    """Every call from results' code straight into tournaments' services (Stoppa's too), by
    name."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __enter__(self) -> Crossings:
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc) -> None:
        sys.setprofile(None)

    def _profile(self, frame, event, arg) -> None:
        if event != "call" or frame.f_back is None:
            return
        if frame.f_code.co_filename.startswith(TOURNAMENT_SERVICES) and (
            frame.f_back.f_code.co_filename.startswith(RESULTS)
        ):
            self.calls.append(frame.f_code.co_name)


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()  # throttle counters


@pytest.fixture
def tables():
    event = event_with_field(8)
    round_ = tournament_services.draw_next_game(event)
    return event, list(round_.tables.order_by("number"))


def key(entry) -> str:
    return services.key_for(entry).key


def crossing(action) -> tuple[list[str], int]:
    with CaptureQueriesContext(connection) as queries, Crossings() as crossed:
        action()
    return crossed.calls, len(queries.captured_queries)


def test_a_first_and_a_confirming_report_each_cross_once(tables):
    event, (table, *_rest) = tables
    calls, first_queries = crossing(
        lambda: services.submit(key(table.seat_a), table=table, winner=table.seat_a, loser_score=95)
    )
    assert calls == ["settle_table"]
    calls, confirming_queries = crossing(
        lambda: services.submit(key(table.seat_b), table=table, winner=table.seat_a, loser_score=95)
    )
    assert calls == ["settle_table"]
    result = GameResult.objects.get(table=table)
    assert (result.winner_id, result.loser_score, result.margin) == (table.seat_a_id, 95, 26)
    assert list(AuditEntry.objects.filter(table=table).values_list("action", flat=True)) == [
        "confirmed",
        "submitted",
        "submitted",
    ]
    # Before: 16 and 30 queries on SQLite (lock, check, audit values, write: step by step);
    # PostgreSQL takes the player's key-share lock of the event in one query more.
    share = int(connection.vendor == "postgresql")
    assert first_queries <= 16 + share and confirming_queries <= 30 + share


def test_a_confirmation_a_dispute_and_the_desk_each_cross_once(tables):
    event, (t1, t2, t3, _t4) = tables
    services.submit(key(t1.seat_a), table=t1, winner=t1.seat_a, loser_score=95)
    version = Submission.objects.get(table=t1)
    calls, confirm_queries = crossing(
        lambda: services.confirm_opponent(key(t1.seat_b), table=t1, version=version.pk)
    )
    assert calls == ["settle_table"] and GameResult.objects.filter(table=t1).exists()

    services.submit(key(t2.seat_a), table=t2, winner=t2.seat_a, loser_score=95)
    calls, dispute_queries = crossing(lambda: services.dispute(key(t2.seat_b), table=t2))
    assert calls == ["settle_table"]
    td = UserFactory()
    calls, rule_queries = crossing(
        lambda: services.rule(event, table=t2, user=td, winner=t2.seat_b, loser_score=90)
    )
    assert calls == ["settle_table"]
    calls, correct_queries = crossing(
        lambda: services.correct(
            event, table=t2, user=td, winner=t2.seat_a, loser_score=90, reason="Card"
        )
    )
    assert calls == ["settle_table"]
    assert GameResult.objects.get(table=t2).winner_id == t2.seat_a_id

    services.submit(key(t3.seat_a), table=t3, winner=t3.seat_a, loser_score=95)
    version = Submission.objects.get(table=t3)
    calls, accept_queries = crossing(
        lambda: services.accept_report(event, table=t3, version=version.pk, user=td)
    )
    assert calls == ["settle_table"] and GameResult.objects.filter(table=t3).exists()
    # Before, when the table was locked twice (in results, then again to write): 35, 18, 25,
    # 22 and 24 queries on SQLite; now 31, 18, 21, 18, 20 (a player's path takes one more on
    # PostgreSQL, its key-share lock of the event).
    share = int(connection.vendor == "postgresql")
    measured = (confirm_queries, dispute_queries, rule_queries, correct_queries, accept_queries)
    # Issue 27: each append to the audit chain reads the head under its lock.
    assert all(
        now <= most + CHAIN
        for now, most in zip(measured, (31 + share, 18 + share, 21, 18, 20), strict=True)
    ), measured


def test_the_desk_check_crosses_once(tables):
    event, (table, *_rest) = tables
    Event.objects.filter(pk=event.pk).update(confirmation=Event.Confirmation.DESK_CHECK)
    services.submit(key(table.seat_a), table=table, winner=table.seat_a, loser_score=95)
    calls, _queries = crossing(
        lambda: services.submit(key(table.seat_b), table=table, winner=table.seat_a, loser_score=95)
    )
    assert calls == ["settle_table"]
    assert not GameResult.objects.filter(table=table).exists()
    calls, _queries = crossing(
        lambda: services.check_agreed(event, table=table, user=UserFactory())
    )
    assert calls == ["settle_table"]
    assert GameResult.objects.get(table=table).loser_score == 95


def test_a_stoppa_report_and_a_confirmation_each_cross_once():
    event = stoppa_event_with_field(3, table_size=3, min_table_size=3)
    table = tournament_services.draw_next_game(event).stoppa_tables.get(number=1)
    seats = list(table.seats.order_by("position"))
    nets = {seats[0].entry_id: 7, seats[1].entry_id: -3, seats[2].entry_id: -4}
    calls, report_queries = crossing(
        lambda: services.report_nets(key(seats[0].entry), table=table.pk, nets=nets)
    )
    assert calls == ["settle_session_table"]
    sheet = NetSheet.objects.get(table=table)
    calls, confirm_queries = crossing(
        lambda: services.confirm_nets(key(seats[1].entry), table=table.pk, sheet=sheet.pk)
    )
    assert calls == ["settle_session_table"]
    table.refresh_from_db()
    assert not table.has_result
    calls, last_queries = crossing(
        lambda: services.confirm_nets(key(seats[2].entry), table=table.pk, sheet=sheet.pk)
    )
    assert calls == ["settle_session_table"]
    sheet.refresh_from_db()
    table.refresh_from_db()
    assert sheet.status == NetSheet.Status.RECORDED and table.has_result
    assert dict(table.seats.values_list("entry_id", "net")) == nets
    assert list(
        AuditEntry.objects.filter(event=event).order_by("pk").values_list("action", "actor")
    ) == [
        ("nets_reported", str(seats[0].entry.player)),
        ("nets_confirmed", str(seats[1].entry.player)),
        ("nets_confirmed", str(seats[2].entry.player)),
        ("stoppa_nets", "players of table 1"),
    ]
    # Before, when results called tournaments four times (lock, clean, check, then record,
    # which locked and checked again): 18, 17 and 28 queries on SQLite; now 18, 17 and 24.
    measured = (report_queries, confirm_queries, last_queries)
    # Issue 27: + the audit chain's head, read under its lock, per append (the last confirmation
    # appends twice: the player's confirmation, then the recorded nets).
    chained = (18 + CHAIN, 17 + CHAIN, 24 + 2 * CHAIN)
    assert all(now <= most for now, most in zip(measured, chained, strict=True)), measured
