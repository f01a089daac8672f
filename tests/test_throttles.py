"""The API's allowances (core/throttles.py): a player's private key counted by key, a TD by
their token's user, anyone else by address; 429 with the standard body and Retry-After."""

from __future__ import annotations

import hashlib

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from core.throttles import client_of
from results import api as results_api
from results import services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

HALL = "203.0.113.7"  # the one NAT address every phone of the hall shares
REPORT = "/api/v1/results/report"


@pytest.fixture
def rates(settings):
    """Small allowances: ``rates(key=2)`` sets the named scopes (per minute), the rest stay."""

    def set_rates(**per_minute: int) -> None:
        framework = dict(settings.REST_FRAMEWORK)
        framework["DEFAULT_THROTTLE_RATES"] = {
            **framework["DEFAULT_THROTTLE_RATES"],
            **{scope: f"{n}/minute" for scope, n in per_minute.items()},
        }
        settings.REST_FRAMEWORK = framework  # DRF reloads its settings on the change

    return set_rates


def report(api: APIClient, key: str, table, *, address: str = HALL, score: int = 90):
    return api.post(
        REPORT,
        {"key": key, "game": 1, "table": table.number, "winner": "me", "loser_score": score},
        format="json",
        REMOTE_ADDR=address,
    )


def assert_throttled(response) -> None:
    """A 429 in the project's error shape, with when to try again."""
    assert response.status_code == 429, response.content[:300]
    body = response.json()
    assert body["type"] == "client_error"
    assert [error["code"] for error in body["errors"]] == ["throttled"]
    assert 1 <= int(response["Retry-After"]) <= 60


def test_thirty_keys_from_one_address_each_get_their_own_allowance(api, rates):
    rates(key=2, anon=1)  # the address's own allowance would be gone after one request
    keys = [f"phone-{n:02d}-key" for n in range(30)]
    codes = [
        api.post(
            REPORT,
            {"key": key, "game": 1, "table": 1, "winner": "me"},
            format="json",
            REMOTE_ADDR=HALL,
        )
        for key in keys
        for _ in range(2)
    ]
    # Every one of the 60 requests reached the view (an unknown key is a 404 there).
    assert {response.status_code for response in codes} == {404}
    assert_throttled(
        api.post(
            REPORT,
            {"key": keys[0], "game": 1, "table": 1, "winner": "me"},
            format="json",
            REMOTE_ADDR=HALL,
        )
    )


def test_one_key_over_its_limit_is_refused_while_another_from_the_address_passes(api, night, rates):
    _event, table, key_a, key_b = night
    rates(key=2)
    assert report(api, key_a, table).status_code == 201
    assert report(api, key_a, table).status_code == 200  # the same report again
    assert_throttled(report(api, key_a, table))
    confirmed = api.post(
        "/api/v1/results/confirm",
        {"key": key_b, "game": 1, "table": table.number, "winner": "opponent", "loser_score": 90},
        format="json",
        REMOTE_ADDR=HALL,
    )
    assert confirmed.status_code == 201 and confirmed.json()["state"] == "confirmed"


def test_a_tds_token_is_counted_by_its_user(night, td_user, rates):
    event, *_ = night
    rates(user=2, anon=1)
    ann, bob = td_user, UserFactory(username="bob")
    event.club.directors.add(bob)
    url = f"/api/v1/clubs/{event.club_id}/events/"
    clients = {}
    for user in (ann, bob):
        clients[user] = APIClient()
        clients[user].credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    assert [clients[ann].get(url, REMOTE_ADDR=HALL).status_code for _ in range(2)] == [200, 200]
    assert_throttled(clients[ann].get(url, REMOTE_ADDR=HALL))
    assert clients[bob].get(url, REMOTE_ADDR=HALL).status_code == 200


def test_an_anonymous_call_without_a_key_is_counted_by_address(api, rates):
    rates(anon=2)
    assert [api.get("/api/v1/events/", REMOTE_ADDR=HALL).status_code for _ in range(2)] == [
        200,
        200,
    ]
    assert_throttled(api.get("/api/v1/events/", REMOTE_ADDR=HALL))
    assert api.get("/api/v1/events/", REMOTE_ADDR="198.51.100.1").status_code == 200


def test_the_checkers_stay_limited_per_address_whatever_the_body_says(api, rates):
    rates(checker=2, key=100)
    hand = {"hand": "5H 5C 5S JD", "starter": "5D"}
    for n in range(2):
        response = api.post(
            "/api/v1/cribbage/hand", {**hand, "key": f"k{n}"}, format="json", REMOTE_ADDR=HALL
        )
        assert response.status_code == 200 and response.json()["total"] == 29
    # A key in the body buys nothing on a view that takes none.
    assert_throttled(
        api.post("/api/v1/cribbage/hand", {**hand, "key": "k9"}, format="json", REMOTE_ADDR=HALL)
    )
    other = api.post("/api/v1/cribbage/hand", hand, format="json", REMOTE_ADDR="198.51.100.1")
    assert other.status_code == 200


def test_the_key_is_counted_before_any_query(api, night, rates, monkeypatch):
    _event, table, key_a, _key_b = night
    rates(key=1)
    with CaptureQueriesContext(connection) as counted:
        assert report(api, key_a, table).status_code == 201
    with CaptureQueriesContext(connection) as refused:
        assert_throttled(report(api, key_a, table))
    assert len(refused) == 0  # refused on the key's text: no lookup of it
    # An allowed report makes exactly the queries it makes with no throttle at all.
    rates(key=100)
    with CaptureQueriesContext(connection) as throttled:
        assert report(api, key_a, table).status_code == 200  # the same report again
    monkeypatch.setattr(results_api.ReportView, "throttle_classes", [])
    with CaptureQueriesContext(connection) as unthrottled:
        assert report(api, key_a, table).status_code == 200
    assert len(throttled) == len(unthrottled) > 0
    assert len(counted) > 0


def test_the_counter_is_named_by_a_hash_of_the_key():
    class View:
        private_key_field = "key"
        kwargs = {"key": "s3cr3t-key-from-the-url"}

    class Anonymous:
        is_authenticated = False

    class Request:
        user = Anonymous()
        data = {"key": "ignored: the URL's key comes first"}

    scope, ident = client_of(Request(), View(), "203.0.113.7")
    assert scope == "key"
    assert ident == hashlib.sha256(b"s3cr3t-key-from-the-url").hexdigest()[:32]
    View.kwargs = {}
    assert (
        client_of(Request(), View(), HALL)[1]
        == (hashlib.sha256(b"ignored: the URL's key comes first").hexdigest()[:32])
    )
    Request.data = {"key": "x" * 65}  # no key is that long: counted by address
    assert client_of(Request(), View(), HALL) == ("anon", HALL)


def test_a_body_that_does_not_parse_is_still_a_400(api):
    response = api.post(REPORT, "{not json", content_type="application/json", REMOTE_ADDR=HALL)
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "parse_error"


def test_the_per_key_submission_limit_says_when_to_try_again(api, night):
    _event, table, key_a, _key_b = night
    codes = [
        report(api, key_a, table, score=60 + n) for n in range(services.SUBMISSIONS_PER_MINUTE + 1)
    ]
    assert_throttled(codes[-1])
    assert codes[-1]["Retry-After"] == str(services.keys.WINDOW_SECONDS)
