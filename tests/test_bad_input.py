"""Bad input gets a 4xx with the standard error body, never a 500: deep JSON, huge bodies,
lone surrogates and NUL characters, absurd page numbers, forged cursors."""

from __future__ import annotations

import json

import pytest

from results import services as result_services
from tests.factories import event_with_field
from tournaments import services

pytestmark = pytest.mark.django_db

POST_ENDPOINTS = [
    "/api/v1/cribbage/hand",
    "/api/v1/cribbage/play",
    "/api/v1/cribbage/claim",
    "/api/v1/cribbage/game",
    "/api/v1/stoppa/piccolo",
    "/api/v1/stoppa/grosso",
    "/api/v1/stoppa/stop",
    "/api/v1/stoppa/payments",
    "/api/v1/stoppa/deck",
    "/api/v1/stoppa/deal",
    "/api/v1/results/report",
    "/api/v1/results/confirm",
    "/api/v1/results/dispute",
]


def raw_post(api, url, body: str):
    return api.generic("POST", url, body, content_type="application/json")


@pytest.mark.parametrize("url", POST_ENDPOINTS)
def test_json_nested_1500_deep_is_a_400(api, url):
    response = raw_post(api, url, "[" * 1500 + "]" * 1500)
    assert response.status_code == 400, response.content[:200]
    assert response.json()["errors"][0]["code"] == "parse_error"


@pytest.mark.parametrize("url", [*POST_ENDPOINTS[:3], "/api/v1/results/report"])
def test_a_lone_surrogate_or_a_nul_is_a_400(api, url):
    for text in ('"\\ud800"', '"abc\\u0000def"'):
        body = '{"hand": %s, "starter": %s, "key": %s, "winner": %s}' % ((text,) * 4)
        response = raw_post(api, url, body)
        assert response.status_code == 400, (text, response.content[:200])


def test_a_ten_megabyte_body_is_a_413_with_the_standard_body(api):
    body = json.dumps({"hand": "5H " * 3_500_000})
    response = raw_post(api, "/api/v1/cribbage/hand", body)
    assert response.status_code == 413
    assert response.json()["errors"][0]["code"] == "request_too_large"


def test_a_nul_in_a_private_link_is_a_404(client):
    assert client.get("/k/abc%00def/").status_code == 404
    assert client.post("/k/abc%00def/", {"winner": "me"}).status_code == 404


def test_absurd_page_numbers_are_capped_or_refused(api):
    event_with_field(2)
    capped = api.get("/api/v1/events/?limit=99999999999999999999")
    assert capped.status_code == 200
    refused = api.get("/api/v1/events/?offset=99999999999999999999")
    assert refused.status_code == 400


def test_forged_cursors_and_page_sizes_on_the_lists_are_4xx_or_capped(api):
    event = event_with_field(4)
    services.draw_next_game(event)
    for path in ("entries/", "games/", "games/1/tables/", "results/", "standings/"):
        url = f"/api/v1/events/{event.pk}/{path}"
        for cursor in ("%00", "cD05OTk5OTk5OTk5OTk5OTk5OTk5OTk5", "\u00e9", "cD0xLjIuMy40"):
            response = api.get(f"{url}?cursor={cursor}")
            assert response.status_code == 404, (url, cursor, response.content[:200])
            assert response.json()["errors"][0]["code"] == "not_found"
        response = api.get(f"{url}?page_size=99999999999999999999&after_game=99999999999")
        assert response.status_code == 200, (url, response.content[:200])


def test_out_of_range_numbers_in_results_are_400(api):
    event = event_with_field(2)
    table = services.draw_next_game(event).tables.get()
    key = result_services.key_for(table.seat_a).key
    for score in (-1, 10**20, -(10**20)):
        response = api.post(
            "/api/v1/results/report",
            {"key": key, "game": 1, "table": table.number, "winner": "me", "loser_score": score},
            format="json",
        )
        assert response.status_code == 400, (score, response.content[:300])


def test_with_the_cache_down_the_api_still_answers(api, monkeypatch):
    """Redis down: the throttles fail open instead of turning a report or a count into a 500."""
    from django.core.cache import cache as default_cache

    def down(*args, **kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(default_cache, "get", down)
    monkeypatch.setattr(default_cache, "set", down)
    response = api.post(
        "/api/v1/cribbage/hand", {"hand": "5H 5C 5S JD", "starter": "5D"}, format="json"
    )
    assert response.status_code == 200 and response.json()["total"] == 29
