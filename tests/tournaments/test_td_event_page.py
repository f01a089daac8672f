"""The TD's event page shows only the buttons that lead somewhere, and the desk's badge."""

from __future__ import annotations

import pytest
from django.urls import reverse

from results import services as result_services
from tests.factories import event_with_field
from tournaments import selectors, services
from tournaments.models import AuditEntry, Event, GameResult

pytestmark = pytest.mark.django_db


def _night(td_user, players: int = 4, **kwargs) -> Event:
    event = event_with_field(players, name="Serata di Cribbage", **kwargs)
    event.club.directors.add(td_user)
    return event


def _page(td_client, event) -> str:
    response = td_client.get(reverse("td-event", args=[event.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _play(event, round_) -> None:
    for table in round_.tables.filter(seat_b__isnull=False):
        services.record_result(event, table=table, winner=table.seat_a, loser_score=90)


def _actions(event):
    event.refresh_from_db()
    latest = selectors.latest_round(event)
    return selectors.td_actions(event, latest, has_bracket=False)


def test_a_draft_event_offers_the_first_draw_and_no_public_page(td_client, td_user):
    event = _night(td_user, games_planned=2)
    event.status = Event.Status.DRAFT
    event.save(update_fields=["status"])
    body = _page(td_client, event)
    assert "Start: draw game 1" in body
    assert f'href="{reverse("event", args=[event.pk])}"' not in body  # a 404 until then
    assert "Cut to the playoff" not in body  # nothing played yet
    assert "Finish event" not in body
    actions = _actions(event)
    assert (actions.draw, actions.cut, actions.finish, actions.public) == (
        True,
        False,
        False,
        False,
    )


def test_a_game_under_way_says_why_the_next_cannot_be_drawn(td_client, td_user):
    event = _night(td_user, games_planned=2)
    services.draw_next_game(event)
    body = _page(td_client, event)
    assert "Draw game 2" not in body
    assert "Game 1 is under way" in body
    assert "Finish event" not in body
    assert f'href="{reverse("event", args=[event.pk])}"' in body  # running: public


def test_when_every_planned_game_is_drawn_no_draw_button_remains(td_client, td_user):
    event = _night(td_user, games_planned=2, kind=Event.Kind.SANCTIONED)
    for _ in range(2):
        _play(event, services.draw_next_game(event))
    body = _page(td_client, event)
    assert "Draw game 3" not in body
    assert "Cut to the playoff" in body  # the qualifying is complete
    assert "Finish event" in body
    assert _actions(event).all_drawn


def test_a_finished_event_shows_final_standings_and_no_draw(td_client, td_user):
    event = _night(td_user, games_planned=3)
    _play(event, services.draw_next_game(event))
    services.finish_event(event)
    body = _page(td_client, event)
    assert "Final standings" in body and "Provisional standings" not in body
    assert "Draw game" not in body and "Finish event" not in body


def test_the_desk_badge_counts_disputes_on_the_event_and_game_pages(td_client, td_user):
    event = _night(td_user, players=6)
    round_ = services.draw_next_game(event)
    disputed, waiting, confirmed = list(round_.tables.order_by("number"))
    key = result_services.key_for
    result_services.submit(
        key(disputed.seat_a).key, table=disputed, winner=disputed.seat_a, loser_score=95
    )
    result_services.submit(
        key(disputed.seat_b).key, table=disputed, winner=disputed.seat_b, loser_score=100
    )
    result_services.dispute(key(disputed.seat_a).key, table=disputed, reason="he pegged 3 twice")
    result_services.submit(
        key(waiting.seat_a).key, table=waiting, winner=waiting.seat_b, loser_score=80
    )
    result_services.submit(
        key(confirmed.seat_a).key, table=confirmed, winner=confirmed.seat_a, loser_score=70
    )
    result_services.confirm_opponent(
        key(confirmed.seat_b).key, table=confirmed, winner=confirmed.seat_a, loser_score=70
    )

    marks = result_services_marks(event, round_)
    assert marks.disputes == 1 and marks.attention == 1
    assert marks.tables == {
        disputed.pk: "disputed",
        waiting.pk: "waiting",
        confirmed.pk: "players",
    }
    body = _page(td_client, event)
    assert 'id="desk-link"' in body and "1 table needs you" in body
    game = td_client.get(reverse("td-game", args=[event.pk, 1]) + "?show=all").content.decode()
    assert "1 table needs you" in game
    assert game.count(">disputed<") == 1
    assert "reported, waiting for the opponent" in game
    assert "reported by the players" in game


def result_services_marks(event, round_):
    from tournaments import hooks

    return hooks.desk_marks(event.pk, round_.pk)


def test_withdraw_asks_first_by_a_prompt_the_browser_shows(td_client, td_user):
    event = _night(td_user)
    body = _page(td_client, event)
    # data-confirm is read by static/js/pegboard.js on click; hx-confirm on a button in an
    # hx-post form was never asked.
    assert "hx-confirm" not in body
    assert body.count('data-confirm="Withdraw this player') == 4


def test_withdrawing_a_player_at_an_open_table_offers_the_forfeit(td_client, td_user):
    """A player who leaves mid-game: the row says their table is open and offers the
    opponent's forfeit win in the same step (it used to stay open without a word)."""
    event = _night(td_user)
    table = services.draw_next_game(event).tables.order_by("number").first()
    gone, opponent = table.seat_a, table.seat_b
    body = _page(td_client, event)
    assert f"Withdraw, forfeit table {table.number}" in body
    assert (
        f"Withdraw this player and give {opponent.player.name} the forfeit win at table "
        f"{table.number}?" in body
    )
    assert f"Table {table.number} stays open: enter its result on the game page." in body
    row = td_client.post(
        reverse("td-entry", args=[event.pk, gone.pk]),
        {"action": "withdraw_forfeit"},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert "withdrawn" in row and "still has no result" not in row
    result = GameResult.objects.get(table=table)
    assert (result.winner_id, result.kind) == (opponent.pk, GameResult.Kind.FORFEIT)
    audit = AuditEntry.objects.get(table=table, action="withdrawn")
    assert audit.reason == f"{gone.player.name} withdrew."


def test_a_plain_withdrawal_says_the_table_stays_open_and_forfeits_it_later(td_client, td_user):
    event = _night(td_user)
    table = services.draw_next_game(event).tables.order_by("number").first()
    gone, opponent = table.seat_b, table.seat_a
    url = reverse("td-entry", args=[event.pk, gone.pk])
    row = td_client.post(url, {"action": "withdraw"}, headers={"HX-Request": "true"})
    body = row.content.decode()
    assert f"Game 1, table {table.number} still has no result" in body
    assert f"Forfeit win to {opponent.player.name}" in body
    assert not GameResult.objects.filter(table=table).exists()
    td_client.post(url, {"action": "forfeit_open"}, headers={"HX-Request": "true"})
    assert GameResult.objects.get(table=table).winner_id == opponent.pk
    assert "still has no result" not in _page(td_client, event)
