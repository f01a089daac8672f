"""A game's results version moves with every write its standings read, whoever writes:
the services, the player's report (raw SQL), the admin's save, bulk and raw statements, a
swap of seats, Stoppa nets. The standings job trusts it to skip the games that did not
change, so a writer that forgot it would leave a stale snapshot."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.factories import EntryFactory, event_with_field, stoppa_event_with_field
from tournaments import services
from tournaments.models import GameResult, Round, Table
from tournaments.stoppa import services as services_stoppa

pytestmark = pytest.mark.django_db

REPORT = "/api/v1/results/report"
CONFIRM = "/api/v1/results/confirm"


def versions(event) -> dict[int, int]:
    return dict(Round.objects.filter(event=event).values_list("number", "results_version"))


def moved(before: dict[int, int], after: dict[int, int]) -> set[int]:
    return {n for n, v in after.items() if v != before.get(n)}


@pytest.fixture
def two_games():
    """A 4-player night with game 1 played out and game 2 drawn: (event, game 2's tables)."""
    event = event_with_field(4)
    services.draw_next_game(event)
    for table in Table.objects.filter(round__event=event, round__number=1):
        services.record_result(event, table=table, winner=table.seat_a_id, loser_score=90)
    services.draw_next_game(event)
    return event, list(Table.objects.filter(round__event=event, round__number=2).order_by("number"))


def test_a_result_its_correction_and_its_undo_move_only_their_game(two_games):
    event, tables = two_games
    table = tables[0]
    before = versions(event)
    services.record_result(event, table=table, winner=table.seat_b_id, loser_score=100)
    assert moved(before, (after := versions(event))) == {2}
    services.record_result(
        event, table=table, winner=table.seat_a_id, loser_score=60, reason="Misread"
    )
    assert moved(after, (again := versions(event))) == {2}
    services.undo_last_result(event, reason="Wrong table")
    assert moved(again, versions(event)) == {2}


def test_a_confirming_report_moves_its_game(two_games, api):
    """The report path writes the result in raw SQL within its 10 statements: the trigger
    rides in the INSERT (tests/results/test_report_queries.py counts them)."""
    from results import services as result_services

    event, tables = two_games
    table = tables[0]
    key_a = result_services.key_for(table.seat_a).key
    key_b = result_services.key_for(table.seat_b).key
    where = {"game": 2, "table": table.number}
    before = versions(event)
    api.post(REPORT, {"key": key_a, "winner": "me", "loser_score": 88, **where}, format="json")
    assert moved(before, versions(event)) == set()  # a first report is no result
    response = api.post(
        CONFIRM, {"key": key_b, "winner": "opponent", "loser_score": 88, **where}, format="json"
    )
    assert response.status_code == 201
    assert moved(before, versions(event)) == {2}
    assert GameResult.objects.filter(table=table).exists()


def test_the_admins_save_bulk_and_raw_statements_move_their_game(two_games):
    event, _tables = two_games
    result = GameResult.objects.filter(table__round__number=1, table__round__event=event).first()
    before = versions(event)
    result.loser_score = 101  # the admin's change form saves the model
    result.save()
    assert moved(before, (step := versions(event))) == {1}
    GameResult.objects.filter(pk=result.pk).update(loser_score=102)
    assert moved(step, (step2 := versions(event))) == {1}
    q = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {q(GameResult._meta.db_table)} WHERE id = %s", [result.pk])
    assert moved(step2, (step3 := versions(event))) == {1}
    result.pk = None
    GameResult.objects.bulk_create([result])
    assert moved(step3, versions(event)) == {1}


def test_seats_swapped_and_tables_added_move_their_game(two_games):
    event, tables = two_games
    before = versions(event)
    a = tables[0]
    Table.objects.filter(pk=a.pk).update(seat_a=a.seat_b_id, seat_b=a.seat_a_id)
    assert moved(before, (step := versions(event))) == {2}
    Table.objects.filter(pk=a.pk).update(note="by the window")  # what the standings ignore
    assert versions(event)[2] >= step[2]
    Table.objects.create(round=a.round, number=None, seat_a=EntryFactory(event=event))  # a bye
    assert versions(event)[2] > step[2]


def test_stoppa_nets_move_their_session():
    event = stoppa_event_with_field(4, table_size=4, min_table_size=3, seed=1)
    round_ = services.draw_next_game(event)
    table = round_.stoppa_tables.filter(number__isnull=False).first()
    members = list(table.seats.values_list("entry_id", flat=True))
    before = versions(event)
    nets = {pk: 10 for pk in members[:-1]}
    nets[members[-1]] = -sum(nets.values())
    services_stoppa.record_session_nets(event, table=table, nets=nets)
    assert moved(before, versions(event)) == {round_.number}
