"""Undo where the rules allow it: reinstate a withdrawn player, re-open a finished event,
take back the last result recorded."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from core.errors import ServiceError
from results import services as results_services
from results.models import Submission
from tests.factories import event_with_field
from tournaments import services
from tournaments.models import AuditEntry, Event, GameResult, Round

pytestmark = pytest.mark.django_db


def play(event, round_, *, loser_score=95):
    """Every open table of ``round_``: seat A wins, the loser on ``loser_score``."""
    for table in round_.tables.filter(seat_b__isnull=False, result__isnull=True).order_by("number"):
        services.record_result(event, table=table, winner=table.seat_a, loser_score=loser_score)


def seated(round_) -> set[int]:
    return {pk for pair in round_.tables.values_list("seat_a_id", "seat_b_id") for pk in pair if pk}


# --- reinstate_entry ------------------------------------------------------------------------


def test_a_withdrawn_player_comes_back_checked_in_and_is_drawn_again():
    event = event_with_field(8)
    play(event, services.draw_next_game(event))
    gone = event.entries.order_by("pk").first()
    services.withdraw_entry(gone)
    back = services.reinstate_entry(gone)
    assert (back.withdrawn, back.checked_in) == (False, True)
    assert gone.pk in seated(services.draw_next_game(event))


def test_reinstating_redraws_a_draft_that_left_them_out():
    event = event_with_field(8)
    play(event, services.draw_next_game(event))
    gone = event.entries.order_by("pk").first()
    services.withdraw_entry(gone)
    draft = services.draw_next_game(event, draft=True)
    assert gone.pk not in seated(draft) and len(seated(draft)) == 7
    services.reinstate_entry(gone)
    redrawn = event.rounds.get(number=2)
    assert redrawn.status == Round.Status.DRAFT and gone.pk in seated(redrawn)
    services.release_game(redrawn)  # the field matches the draft again


def test_only_a_withdrawn_player_is_reinstated():
    event = event_with_field(4)
    entry = event.entries.first()
    with pytest.raises(ServiceError) as caught:
        services.reinstate_entry(entry)
    assert caught.value.code == "not_withdrawn"
    assert entry.player.name in caught.value.message


def test_a_player_walked_over_in_the_bracket_cannot_come_back():
    event = event_with_field(8, kind=Event.Kind.SANCTIONED)
    play(event, services.draw_next_game(event))
    bracket = services.create_playoff(event, qualifiers=4, best_of=[1])
    seeded = event.entries.get(pk=bracket.seeds[0])
    services.withdraw_entry(seeded)
    with pytest.raises(ServiceError) as caught:
        services.reinstate_entry(seeded)
    assert caught.value.code == "in_bracket"
    assert "walked over" in caught.value.message
    seeded.refresh_from_db()
    assert seeded.withdrawn


def test_no_reinstating_in_a_finished_event():
    event = event_with_field(4)
    play(event, services.draw_next_game(event))
    gone = event.entries.first()
    services.withdraw_entry(gone)
    services.finish_event(event)
    with pytest.raises(ServiceError) as caught:
        services.reinstate_entry(gone)
    assert caught.value.code == "event_finished"


# --- reopen_event ---------------------------------------------------------------------------


def test_a_finished_event_reopens_for_a_late_correction_and_another_game():
    event = event_with_field(4, games_planned=3)
    first = services.draw_next_game(event)
    play(event, first)
    services.finish_event(event)
    version = Event.objects.get(pk=event.pk).results_version
    reopened = services.reopen_event(event)
    assert reopened.status == Event.Status.RUNNING
    assert Event.objects.get(pk=event.pk).results_version == version + 1  # standings recompute
    table = first.tables.order_by("number").first()
    services.record_result(
        event, table=table, winner=table.seat_b, loser_score=100, reason="Card misread"
    )
    assert services.draw_next_game(event).number == 2


def test_only_a_finished_event_reopens():
    event = event_with_field(4)
    with pytest.raises(ServiceError) as caught:
        services.reopen_event(event)
    assert caught.value.code == "not_finished"


# --- undo_last_result -----------------------------------------------------------------------


def test_undo_takes_back_the_last_result_and_audits_it_by_name(td_user):
    event = event_with_field(8)
    round_ = services.draw_next_game(event)
    tables = list(round_.tables.order_by("number"))
    services.record_result(event, table=tables[0], winner=tables[0].seat_a, loser_score=95)
    services.record_result(event, table=tables[2], winner=tables[2].seat_b, loser_score=80)
    undone = services.undo_last_result(event, user=td_user, reason="Wrong table")
    assert undone.table.pk == tables[2].pk and undone.draft_removed is None
    assert not GameResult.objects.filter(table=tables[2]).exists()
    assert GameResult.objects.filter(table=tables[0]).exists()
    log = AuditEntry.objects.filter(event=event, action="undone").get()
    assert log.old == {
        "winner": tables[2].seat_b.player.name,
        "loser": tables[2].seat_a.player.name,
        "loser_score": 80,
        "forfeit": False,
    }
    assert (log.new, log.reason, log.actor, log.table_id) == (
        None,
        "Wrong table",
        "director",
        tables[2].pk,
    )
    # The table is open again: the game cannot be followed by the next draw until re-entered.
    assert [t.pk for t in event.game_kind.open_tables(round_)] == [t.pk for t in tables[1:]]
    services.record_result(event, table=tables[2], winner=tables[2].seat_a, loser_score=70)
    assert GameResult.objects.get(table=tables[2]).winner_id == tables[2].seat_a_id


def test_undo_without_a_reason_says_what_it_took_back():
    event = event_with_field(4)
    round_ = services.draw_next_game(event)
    table = round_.tables.order_by("number").first()
    services.record_result(event, table=table, winner=table.seat_a, forfeit=True)
    services.undo_last_result(event)
    log = AuditEntry.objects.get(event=event, action="undone")
    assert log.reason == f"Undone: {table.seat_a.player.name} won by forfeit"


def test_undo_works_on_the_latest_game_only():
    event = event_with_field(8)
    play(event, services.draw_next_game(event))
    second = services.draw_next_game(event)
    with pytest.raises(ServiceError) as caught:
        services.undo_last_result(event)
    assert caught.value.code == "later_game_released"
    assert "Game 2 is already released" in caught.value.message
    play(event, second)
    last = second.tables.filter(seat_b__isnull=False).order_by("number").last()
    assert services.undo_last_result(event).table.pk == last.pk


def test_undo_throws_away_a_draft_drawn_on_the_result():
    event = event_with_field(8)
    first = services.draw_next_game(event)
    play(event, first)
    services.draw_next_game(event, draft=True)
    undone = services.undo_last_result(event)
    assert undone.draft_removed == 2
    assert list(event.rounds.values_list("number", flat=True)) == [1]
    assert undone.table.round_id == first.pk


def test_undo_is_refused_when_finished_or_nothing_to_undo_or_after_the_cut():
    event = event_with_field(8, kind=Event.Kind.SANCTIONED)
    with pytest.raises(ServiceError) as caught:
        services.undo_last_result(event)
    assert caught.value.code == "no_results"
    play(event, services.draw_next_game(event))
    services.finish_event(event)
    with pytest.raises(ServiceError) as caught:
        services.undo_last_result(event)
    assert caught.value.code == "event_finished" and "re-open" in caught.value.message
    services.reopen_event(event)
    services.create_playoff(event, qualifiers=4, best_of=[1])
    with pytest.raises(ServiceError) as caught:
        services.undo_last_result(event)
    assert caught.value.code == "playoff_cut"


def test_undo_supersedes_the_players_reports_so_they_can_report_again():
    cache.clear()
    event = event_with_field(4)
    table = services.draw_next_game(event).tables.order_by("number").first()
    key_a = results_services.key_for(table.seat_a).key
    key_b = results_services.key_for(table.seat_b).key
    results_services.submit(key_a, table=table, winner=table.seat_a, loser_score=88)
    assert (
        results_services.confirm_opponent(
            key_b, table=table, winner=table.seat_a, loser_score=88
        ).state
        == "confirmed"
    )
    services.undo_last_result(event, reason="Reported the wrong game")
    statuses = set(Submission.objects.filter(table=table).values_list("status", flat=True))
    assert statuses == {Submission.Status.SUPERSEDED}
    # The same report again is a new report, not a double tap of the old one.
    again = results_services.submit(key_a, table=table, winner=table.seat_a, loser_score=88)
    assert again.state == "pending"
    assert (
        results_services.confirm_opponent(
            key_b, table=table, winner=table.seat_a, loser_score=88
        ).state
        == "confirmed"
    )
    assert GameResult.objects.get(table=table).loser_score == 88
