"""The results API: report, confirm and dispute with a key; rulings with a TD token."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from results import services
from results.models import Dispute
from tests.factories import ClubFactory, UserFactory
from tournaments.models import AuditEntry, GameResult

pytestmark = pytest.mark.django_db


def test_report_and_confirm(night):
    event, table, key_a, key_b = night
    api = APIClient()
    where = {"game": 1, "table": table.number}
    first = api.post(
        "/api/v1/results/report",
        {"key": key_a, "winner": "me", "loser_score": 88, **where},
        format="json",
    )
    assert first.status_code == 201 and first.json()["state"] == "pending"
    again = api.post(
        "/api/v1/results/report",
        {"key": key_a, "winner": "me", "loser_score": 88, **where},
        format="json",
    )
    assert again.status_code == 200 and again.json()["state"] == "duplicate"
    confirmed = api.post(
        "/api/v1/results/confirm",
        {"key": key_b, "winner": "opponent", "loser_score": 88, **where},
        format="json",
    )
    assert confirmed.status_code == 201 and confirmed.json()["state"] == "confirmed"
    assert GameResult.objects.get(table=table).skunk_level == 1


def test_confirm_of_a_changed_report_is_refused(night):
    """Hank reports "I won, 90", then "my opponent won, 60": Luca's confirmation of what he
    saw (by version or by values) is refused and records nothing."""
    event, table, key_a, key_b = night
    api = APIClient()
    where = {"game": 1, "table": table.number}
    seen = api.post(
        "/api/v1/results/report",
        {"key": key_a, "winner": "me", "loser_score": 90, **where},
        format="json",
    ).json()["submission"]
    changed = api.post(
        "/api/v1/results/report",
        {"key": key_a, "winner": "opponent", "loser_score": 60, **where},
        format="json",
    ).json()["submission"]
    name = table.seat_a.player.name
    for named in ({"submission": seen}, {"winner": "opponent", "loser_score": 90}):
        refused = api.post(
            "/api/v1/results/confirm", {"key": key_b, **where, **named}, format="json"
        )
        assert refused.status_code == 400
        error = refused.json()["errors"][0]
        assert error["code"] == "report_changed"
        assert error["detail"] == f"{name} changed the report: check it again."
    assert not GameResult.objects.filter(table=table).exists()
    assert not AuditEntry.objects.filter(table=table, action="confirmed").exists()
    # An old client that names nothing is told what is missing.
    bare = api.post("/api/v1/results/confirm", {"key": key_b, **where}, format="json")
    assert bare.status_code == 400
    assert bare.json()["errors"][0] == {
        "code": "required",
        "detail": "Name what you confirm: the version or its result.",
        "attr": "submission",
    }
    ok = api.post(
        "/api/v1/results/confirm", {"key": key_b, "submission": changed, **where}, format="json"
    )
    assert ok.status_code == 201 and ok.json()["state"] == "confirmed"
    assert GameResult.objects.get(table=table).winner_id == table.seat_b_id


def test_confirm_is_documented_with_its_refusals(client):
    schema = client.get("/api/v1/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/results/confirm"]["post"]
    assert "report_changed" in operation["description"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    fields = schema["components"]["schemas"][body.rsplit("/", 1)[1]]["properties"]
    assert {"submission", "winner", "loser_score", "forfeit"} <= set(fields)


@pytest.mark.parametrize(
    ("payload", "status", "code"),
    [
        ({"loser_score": 121}, 400, "loser_reached_target"),
        ({"table": 99}, 400, "unknown_game"),
        ({"key": "bogus"}, 404, "not_found"),
        ({"winner": "nobody"}, 400, "invalid_choice"),
    ],
)
def test_bad_reports(night, payload, status, code):
    event, table, key_a, _ = night
    body = {
        "key": key_a,
        "game": 1,
        "table": table.number,
        "winner": "me",
        "loser_score": 90,
    } | payload
    response = APIClient().post("/api/v1/results/report", body, format="json")
    assert response.status_code == status
    assert response.json()["errors"][0]["code"] == code


def test_dispute_then_a_token_ruling(night, td_user):
    event, table, key_a, key_b = night
    api = APIClient()
    where = {"game": 1, "table": table.number}
    api.post(
        "/api/v1/results/report",
        {"key": key_a, "winner": "me", "loser_score": 88, **where},
        format="json",
    )
    assert (
        api.post(
            "/api/v1/results/dispute", {"key": key_b, "reason": "no", **where}, format="json"
        ).status_code
        == 201
    )
    assert Dispute.objects.get(table=table).is_open
    url = f"/api/v1/results/events/{event.pk}/rulings"
    assert api.post(
        url, {**where, "winner": table.seat_b_id, "loser_score": 100}, format="json"
    ).status_code in (401, 403)
    stranger = UserFactory(username="far-away")
    ClubFactory().directors.add(stranger)
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=stranger).key}")
    assert (
        api.post(
            url, {**where, "winner": table.seat_b_id, "loser_score": 100}, format="json"
        ).status_code
        == 404
    )
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=td_user).key}")
    ruled = api.post(
        url, {**where, "winner": table.seat_b_id, "loser_score": 100, "note": "card"}, format="json"
    )
    assert ruled.status_code == 201 and ruled.json()["margin"] == 21
    assert not Dispute.objects.get(table=table).is_open


def test_a_flood_is_429(night):
    event, table, key_a, _ = night
    api = APIClient()
    codes = [
        api.post(
            "/api/v1/results/report",
            {"key": key_a, "game": 1, "table": table.number, "winner": "me", "loser_score": 60 + i},
            format="json",
        ).status_code
        for i in range(services.SUBMISSIONS_PER_MINUTE + 1)
    ]
    assert codes[-1] == 429 and set(codes[:-1]) == {201}


def test_a_ruling_takes_http_basic_like_every_td_route(night, td_user):
    """Issue 34, item 14: the rulings route answered 401 to HTTP Basic, which the README and
    every other TD route accept."""
    import base64

    event, table, _key_a, _key_b = night
    api = APIClient()
    basic = base64.b64encode(f"{td_user.username}:secret-pass-123".encode()).decode()
    api.credentials(HTTP_AUTHORIZATION=f"Basic {basic}")
    url = f"/api/v1/results/events/{event.pk}/rulings"
    ruled = api.post(
        url,
        {"game": 1, "table": table.number, "winner": table.seat_a_id, "loser_score": 90},
        format="json",
    )
    # Signed in: the ruling reaches the desk's own rule (no dispute at this table yet).
    assert ruled.status_code == 400, ruled.content
    assert ruled.json()["errors"][0]["code"] == "not_disputed"
    wrong = base64.b64encode(f"{td_user.username}:not-the-password".encode()).decode()
    api.credentials(HTTP_AUTHORIZATION=f"Basic {wrong}")
    assert api.post(url, {"game": 1}, format="json").status_code == 401
