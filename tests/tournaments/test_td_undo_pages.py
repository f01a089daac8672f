"""Undo on the TD's pages: reinstate a withdrawn player, re-open a finished event, undo the
last result entered."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import event_with_field
from tournaments import services
from tournaments.models import AuditEntry, Event, GameResult

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(td_user):
    event = event_with_field(4, name="Serata a Brașov", games_planned=2)
    event.club.directors.add(td_user)
    return event


def test_a_withdrawn_player_is_reinstated_from_their_row(td_client, night):
    entry = night.entries.select_related("player").first()
    services.withdraw_entry(entry)
    page = td_client.get(reverse("td-event", args=[night.pk])).content.decode()
    assert page.count('value="reinstate"') == 1
    url = reverse("td-entry", args=[night.pk, entry.pk])
    row = td_client.post(url, {"action": "reinstate"}, HTTP_HX_REQUEST="true")
    assert row.status_code == 200 and "checked in" in row.content.decode()
    entry.refresh_from_db()
    assert (entry.withdrawn, entry.checked_in) == (False, True)
    again = td_client.post(url, {"action": "reinstate"}, HTTP_HX_REQUEST="true")
    assert again.status_code == 400 and 'role="alert"' in again.content.decode()
    odd = td_client.post(url, {"action": "explode"}, HTTP_HX_REQUEST="true")
    assert odd.status_code == 400 and "Unknown action: explode" in odd.content.decode()


def test_a_finished_event_is_re_opened(td_client, night):
    round_ = services.draw_next_game(night)
    for table in round_.tables.all():
        services.record_result(night, table=table, winner=table.seat_a, loser_score=90)
    services.finish_event(night)
    page = td_client.get(reverse("td-event", args=[night.pk])).content.decode()
    assert "Re-open event" in page and "Final standings" in page
    response = td_client.post(reverse("td-reopen", args=[night.pk]), follow=True)
    night.refresh_from_db()
    assert night.status == Event.Status.RUNNING
    assert "The event is running again" in response.content.decode()
    assert "Draw game 2" in response.content.decode()
    refused = td_client.post(reverse("td-reopen", args=[night.pk]), follow=True)
    assert "Only a finished event can be re-opened." in refused.content.decode()


def test_the_last_result_is_undone_from_the_game_page(td_client, night):
    round_ = services.draw_next_game(night)
    first, second = round_.tables.order_by("number")
    services.record_result(night, table=first, winner=first.seat_a, loser_score=90)
    services.record_result(night, table=second, winner=second.seat_b, loser_score=77)
    game = td_client.get(reverse("td-game", args=[night.pk, 1])).content.decode()
    assert 'id="undo-last"' in game and "table 2" in game
    response = td_client.post(
        reverse("td-undo-result", args=[night.pk]), {"reason": "entered on the wrong card"}
    )
    assert response.status_code == 302 and response.url == reverse("td-game", args=[night.pk, 1])
    assert not GameResult.objects.filter(table=second).exists()
    assert GameResult.objects.filter(table=first).exists()
    undone = AuditEntry.objects.get(event=night, action="undone")
    assert undone.reason == "entered on the wrong card" and undone.table_id == second.pk
    page = td_client.get(response.url).content.decode()
    winner, loser = second.seat_b.player.name, second.seat_a.player.name
    assert f"Undone: game 1, table 2 ({winner} won, {loser} 77)" in page
    desk = td_client.get(reverse("results-desk", args=[night.pk])).content.decode()
    assert "result undone" in desk and f"{winner} won, {loser} 77" in desk
