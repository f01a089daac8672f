"""The round clock through the TD's API, the public games list and the TD's pages (HTMX)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import ClubFactory, UserFactory, event_with_field
from tournaments import services
from tournaments.clock import unfinished_tables
from tournaments.models import AuditEntry, Club, GameResult, Round
from tournaments.services import clock as clock_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(td_user):
    event = event_with_field(4, name="Clock night")
    event.club.directors.add(td_user)
    return services.draw_next_game(event)


@pytest.fixture
def td(api, td_user):
    api.force_authenticate(td_user)
    return api


def clock_url(game: Round) -> str:
    return reverse("api-game-clock", args=[game.event_id, game.number])


def test_the_td_runs_the_clock_through_the_api(td, game):
    started = td.post(clock_url(game), {"action": "start", "minutes": 12}, format="json")
    assert started.status_code == 200, started.content
    body = started.json()
    assert (body["game"], body["state"], body["minutes"]) == (1, "running", 12)
    assert 719 <= body["seconds_left"] <= 720
    paused = td.post(clock_url(game), {"action": "pause"}, format="json").json()
    assert paused["state"] == "paused" and paused["ends_at"] is None
    extended = td.post(clock_url(game), {"action": "extend", "minutes": 3}, format="json").json()
    assert extended["minutes"] == 15
    assert td.get(clock_url(game)).json()["state"] == "paused"
    assert td.post(clock_url(game), {"action": "stop"}, format="json").json()["state"] == (
        "stopped"
    )
    actions = list(
        AuditEntry.objects.filter(event=game.event).order_by("pk").values_list("action", flat=True)
    )
    assert actions == ["clock_started", "clock_paused", "clock_extended", "clock_stopped"]


def test_a_refused_clock_action_is_a_400_with_its_code(td, game):
    refused = td.post(clock_url(game), {"action": "resume"}, format="json")
    assert refused.status_code == 400
    assert "clock_not_paused" in refused.content.decode()
    bad = td.post(clock_url(game), {"action": "start", "minutes": 999}, format="json")
    assert bad.status_code == 400 and "bad_minutes" in bad.content.decode()
    assert td.post(clock_url(game), {"action": "wind"}, format="json").status_code == 400


def test_another_club_s_td_and_a_stranger_get_nothing(api, game):
    assert api.post(clock_url(game), {"action": "start"}, format="json").status_code == 401
    other = UserFactory(username="elsewhere")
    ClubFactory().directors.add(other)
    api.force_authenticate(other)
    assert api.post(clock_url(game), {"action": "start"}, format="json").status_code == 404


def test_called_at_time_through_the_api(td, game):
    table = unfinished_tables(game).first()
    url = reverse("api-game-called-at-time", args=[game.event_id, 1])
    payload = {"table": table.number, "winner": table.seat_a_id, "loser_score": 110}
    early = td.post(url, payload, format="json")
    assert early.status_code == 400 and "clock_not_up" in early.content.decode()
    clock_services.start_clock(game, minutes=1, now=timezone.now() - timedelta(minutes=2))
    called = td.post(url, payload, format="json")
    assert called.status_code == 201, called.content
    assert (called.json()["winner"], called.json()["loser_score"]) == (table.seat_a_id, 110)
    missing = td.post(url, payload | {"table": 99}, format="json")
    assert missing.status_code == 400 and "unknown_table" in missing.content.decode()


def test_the_public_games_list_carries_each_game_s_clock(api, game):
    clock_services.start_clock(game, minutes=15)
    listed = api.get(reverse("api-games", args=[game.event_id])).json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    clock = rows[0]["clock"]
    assert (clock["state"], clock["minutes"]) == ("running", 15)
    assert clock["now"] and clock["ends_at"]


def test_the_td_page_buttons_answer_the_panel_over_htmx(td_client, game):
    url = reverse("td-clock", args=[game.event_id, 1])
    htmx = {"HTTP_HX_REQUEST": "true"}
    started = td_client.post(url, {"action": "start", "minutes": "10"}, **htmx)
    body = started.content.decode()
    assert started.status_code == 200 and 'id="td-clock"' in body
    assert 'value="pause"' in body and 'hx-trigger="every 5s' in body
    again = td_client.post(url, {"action": "start", "minutes": "10"}, **htmx).content.decode()
    assert "The clock of this game is on already." in again
    # Without JavaScript: a redirect to the game page, a refusal shown on it with a 400.
    assert td_client.post(url, {"action": "pause"}).status_code == 302
    refused = td_client.post(url, {"action": "pause"})
    assert refused.status_code == 400
    assert "The clock is not running." in refused.content.decode()


def test_at_time_the_td_page_lists_the_unfinished_tables_with_the_club_s_rule(td_client, game):
    first, second = unfinished_tables(game)
    services.record_result(game.event, table=second, winner=second.seat_a, loser_score=80)
    Club.objects.filter(pk=game.event.club_id).update(at_time=Club.AtTime.LOWER_COUNT)
    clock_services.start_clock(game, minutes=1, now=timezone.now() - timedelta(minutes=2))
    page = td_client.get(reverse("td-game", args=[game.event_id, 1])).content.decode()
    assert "Time: 1 table not finished" in page
    assert "Play on to a lower count; the first to reach it wins" in page
    assert f'id="at-time-{first.number}"' in page and f'id="at-time-{second.number}"' not in page
    call = reverse("td-call-at-time", args=[game.event_id, 1])
    htmx = {"HTTP_HX_REQUEST": "true"}
    missing = td_client.post(call, {"table": first.pk, "winner": first.seat_b_id}, **htmx)
    assert "Enter the loser&#x27;s score." in missing.content.decode()
    done = td_client.post(
        call, {"table": first.pk, "winner": first.seat_b_id, "loser_score": "88"}, **htmx
    )
    assert "Every table has finished." in done.content.decode()
    result = GameResult.objects.get(table=first)
    assert (result.winner_id, result.loser_score) == (first.seat_b_id, 88)
    row = AuditEntry.objects.get(event=game.event, table=first)
    assert row.action == "called_at_time" and "lower count" in row.reason
    # A second call of the same table (another TD's tab): refused above the list.
    twice = td_client.post(
        call, {"table": first.pk, "winner": first.seat_a_id, "loser_score": "90"}, **htmx
    ).content.decode()
    assert f"Table {first.number} has a result already." in twice
    assert GameResult.objects.get(table=first).winner_id == first.seat_b_id


def test_the_club_sets_its_minutes_and_rule(td_client, game):
    club = game.event.club
    url = reverse("td-clock-rule", args=[club.pk])
    saved = td_client.post(url, {"game_minutes": "20", "at_time": "td_decides"})
    assert saved.status_code == 302
    club.refresh_from_db()
    assert (club.game_minutes, club.at_time) == (20, Club.AtTime.TD_DECIDES)
    refused = td_client.post(url, {"game_minutes": "0", "at_time": "td_decides"})
    assert refused.status_code == 400
    page = td_client.get(reverse("td-club", args=[club.pk])).content.decode()
    assert 'id="clock-rule"' in page and 'value="20"' in page


def test_the_clock_survives_the_event_archive(game):
    import json

    from results.archive import export_event, import_event

    clock_services.start_clock(game, minutes=15)
    clock_services.pause_clock(game)
    data = json.loads(json.dumps(export_event(game.event)))
    assert data["games"][0]["clock"]["state"] == "paused"
    assert data["games"][0]["clock"]["minutes"] == 15
    copy = import_event(data, club=ClubFactory())
    imported = copy.rounds.get(number=1)
    assert (imported.clock_state, imported.clock_minutes) == (Round.Clock.PAUSED, 15)
    assert 899 <= imported.clock_left <= 900
    del data["games"][0]["clock"]  # an archive made before the clock
    assert import_event(data, club=ClubFactory()).rounds.get(number=1).clock_state == "off"
