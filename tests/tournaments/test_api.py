"""REST API: events and standings for everyone, results for the event's TD, errors as 400."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory, event_with_field
from tournaments import services
from tournaments.models import GameResult

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(td_user):
    event = event_with_field(4)
    event.club.directors.add(td_user)
    round_ = services.draw_next_game(event)
    return event, round_


def test_events_and_standings_are_public(api, night, django_capture_on_commit_callbacks):
    event, round_ = night
    table = round_.tables.order_by("number").first()
    with django_capture_on_commit_callbacks(execute=True):
        services.record_result(event, table=table, winner=table.seat_a, loser_score=95)
    listing = api.get(reverse("api-events")).json()
    assert [e["id"] for e in listing["results"]] == [event.pk]
    detail = api.get(reverse("api-event", args=[event.pk])).json()
    assert (detail["entry_count"], detail["game_count"]) == (4, 1)
    games = api.get(detail["games_url"]).json()["results"]
    assert [g["number"] for g in games] == [1]
    standings = api.get(detail["standings_url"]).json()["results"]
    assert standings[0]["entry"] == table.seat_a_id
    assert standings[0]["display"] == "2/1 +26"


def test_unpublished_standings_are_for_the_td_only(api, night, td_user):
    event, _ = night
    services.set_standings_published(event, False)
    assert api.get(reverse("api-standings", args=[event.pk])).status_code == 404
    api.force_authenticate(td_user)
    assert api.get(reverse("api-standings", args=[event.pk])).status_code == 200


def test_td_posts_a_result(api, night, td_user):
    event, round_ = night
    table = round_.tables.order_by("number").first()
    api.force_authenticate(td_user)
    response = api.post(
        reverse("api-results", args=[event.pk]),
        {"game": 1, "table": table.number, "winner": table.seat_b_id, "loser_score": 60},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["winner_points"], body["margin"], body["spread"], body["skunk_level"]) == (
        3,
        61,
        "+61",
        2,
    )


def test_posting_needs_the_events_td(api, night):
    event, _ = night
    url = reverse("api-results", args=[event.pk])
    payload = {"game": 1, "table": 1, "winner": 1, "loser_score": 60}
    assert api.post(url, payload, format="json").status_code in (401, 403)
    stranger = UserFactory(username="elsewhere")
    ClubFactory().directors.add(stranger)
    api.force_authenticate(stranger)
    assert api.post(url, payload, format="json").status_code == 404
    assert not GameResult.objects.exists()


@pytest.mark.parametrize(
    ("change", "code", "attr"),
    [
        ({"loser_score": 121}, "loser_reached_target", "loser_score"),
        ({"loser_score": -1}, "negative_score", "loser_score"),
        ({"table": 99}, "unknown_table", "table"),
        ({"winner": 0}, "winner_not_at_table", "winner"),
        ({"loser_score": "lots"}, "invalid", "loser_score"),
    ],
)
def test_bad_results_are_400_with_a_code(api, night, td_user, change, code, attr):
    event, round_ = night
    table = round_.tables.order_by("number").first()
    api.force_authenticate(td_user)
    payload = {
        "game": 1,
        "table": table.number,
        "winner": table.seat_a_id,
        "loser_score": 100,
    } | change
    response = api.post(reverse("api-results", args=[event.pk]), payload, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["code"], error["attr"]) == (code, attr) and error["detail"]
    assert not GameResult.objects.exists()


def test_unknown_api_path_is_json_404(api):
    response = api.get("/api/v1/nothing-here/")
    assert response.status_code == 404 and response.json()["errors"][0]["code"] == "not_found"


def test_openapi_schema_is_served(api):
    response = api.get(reverse("api-schema"), HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert "/api/v1/events/{event_id}/results/" in response.content.decode()
