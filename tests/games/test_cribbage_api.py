"""The cribbage engine through the REST API: breakdowns as JSON, bad cards as HTTP 400."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "games" / "cribbage" / "example_game.json"


def test_hand_breakdown(api):
    response = api.post(
        "/api/v1/cribbage/hand", {"hand": "5H 5C 5S JD", "starter": "5D"}, format="json"
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["total"], body["fifteens"], body["pairs"], body["nobs"]) == (29, 16, 12, 1)
    assert "15 for 2: 5H JD" in [item["text"] for item in body["items"]]


def test_hand_as_a_list_and_crib_rules(api):
    # Four hearts with a spade starter: 4 for a hand flush, nothing for a crib.
    hand = ["2H", "4H", "6H", "8H"]
    as_hand = api.post(
        "/api/v1/cribbage/hand", {"hand": hand, "starter": "KS"}, format="json"
    ).json()
    as_crib = api.post(
        "/api/v1/cribbage/hand", {"hand": hand, "starter": "KS", "crib": True}, format="json"
    ).json()
    assert as_hand["flush"] == 4 and as_crib["flush"] == 0


@pytest.mark.parametrize(
    ("payload", "code", "attr", "token"),
    [
        ({"hand": "5H 5C 5X JD", "starter": "5D"}, "bad_card", "hand", "5X"),
        ({"hand": "5H 5C 5S JD", "starter": "1Z"}, "bad_card", "starter", "1Z"),
        ({"hand": "5H 5C 5S JD", "starter": "5H"}, "duplicate_card", None, "5H"),
        ({"hand": "5H 5C 5S", "starter": "5D"}, "wrong_count", None, "3"),
    ],
)
def test_bad_cards_are_400_naming_the_token(api, payload, code, attr, token):
    # code: the engine's stable code (issue #15; it was bad_card for every card problem)
    response = api.post("/api/v1/cribbage/hand", payload, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert error["code"] == code and error["attr"] == attr
    assert token in error["detail"]


def test_play_and_claim(api):
    play = api.post("/api/v1/cribbage/play", {"pile": "5H 10S"}, format="json").json()
    assert (play["count"], play["total"]) == (15, 2)
    over = api.post("/api/v1/cribbage/play", {"pile": "10H 10S 10D 5C"}, format="json")
    assert over.status_code == 400 and over.json()["errors"][0]["attr"] == "pile"
    claim = api.post(
        "/api/v1/cribbage/claim",
        {"kind": "hand", "cards": "5H 5C 5S JD", "starter": "5D", "claimed": 20},
        format="json",
    ).json()
    assert (claim["true"], claim["difference"], claim["overlooked_points"]) == (29, -9, 9)


def test_whole_game_report(api):
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    report = api.post("/api/v1/cribbage/game", record, format="json").json()
    assert report["valid"] and report["finished"] and report["loser_score"] == 59
    broken = api.post("/api/v1/cribbage/game", {"players": ["Ann"], "deals": "x"}, format="json")
    assert broken.status_code == 200
    assert not broken.json()["valid"] and broken.json()["problems"]


def test_malformed_json_is_400(api):
    response = api.post("/api/v1/cribbage/hand", "{not json", content_type="application/json")
    assert response.status_code == 400
