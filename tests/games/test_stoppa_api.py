"""The Stoppa engine through the REST API: the spec's worked examples as JSON, engine errors as
HTTP 400 with the engine's code and the field that caused them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "games" / "stoppa" / "README.md"

# Spec 8.6: six players, dealer P1, so P2 leads.
STOP_HANDS = [
    {"player": "P2", "cards": "Ad Ac As Js Ns 3d"},
    {"player": "P3", "cards": "Ab 2d 3c 5s 5b Nb"},
    {"player": "P4", "cards": "4d 2c Jc 3b 2s 3s"},
    {"player": "P5", "cards": "4s 7s 2b Nc 4b 7b"},
    {"player": "P6", "cards": "5d 6d 6c 6s 6b Jb"},
    {"player": "P1", "cards": "7d Jd Nd 4c 5c 7c"},
]
STOP_LOG = [
    {"player": p, "cards": c}
    for p, c in [
        ("P2", "Ad Ac As"),
        ("P3", "Ab"),
        ("P3", "2d"),
        ("P3", "3c"),
        ("P4", "4d"),
        ("P6", "5d"),
        ("P6", "6d 6c 6s 6b"),
        ("P1", "7d"),
        ("P1", "Jd"),
        ("P1", "Nd"),
        ("P1", "4c"),
        ("P1", "5c"),
        ("P1", "7c"),
    ]
]
STOP_PAYMENTS = {"P1": 42, "P2": -6, "P3": -6, "P4": -12, "P5": -18, "P6": 0}


def readme_records() -> list[dict]:
    """The deal records of games/stoppa/README.md (examples 1 and 2)."""
    blocks = re.findall(r"```json\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    return [json.loads(b) for b in blocks if '"players"' in b]


def post(api, what, body):
    return api.post(f"/api/v1/stoppa/{what}", body, format="json")


def first_error(response):
    assert response.status_code == 400, response.content
    return response.json()["errors"][0]


@pytest.mark.parametrize(
    ("a", "b", "winner", "decided_by", "keys", "reason"),
    [
        ("Kc Jc 3c", "As 7b 5b", "A", "count", [(3, 33), (2, 36)], "fewer cards of one suit"),
        ("7d 5d 6c", "Jc 7s 6s", "B", "points", [(2, 39), (2, 36)], "lower points"),
        ("Kd Ac 6c", "7b 3b Jc", "A", "priority", [(2, 34), (2, 34)], "later in priority"),
    ],
)
def test_the_three_piccolo_comparisons_of_the_spec(api, a, b, winner, decided_by, keys, reason):
    body = {"hands": [{"player": "A", "cards": a}, {"player": "B", "cards": b}]}
    response = post(api, "piccolo", body)
    assert response.status_code == 200
    data = response.json()
    assert (data["winner"], data["decided_by"], data["order"]) == (winner, decided_by, ["A", "B"])
    ranking = data["ranking"]
    assert [(s["eval"]["count"], s["eval"]["points"]) for s in ranking] == keys
    assert ranking[0]["player"] == winner and ranking[0]["reason"] == ""
    assert (ranking[1]["reason_code"], ranking[1]["reason"]) == (decided_by, reason)


def test_piccolo_names_default_and_italian_names(api):
    body = {
        "hands": [
            {"cards": ["re di coppe", "fante di coppe", "tre di coppe"]},
            {"cards": "asso di spade, sette di bastoni, cinque di bastoni"},
        ]
    }
    data = post(api, "piccolo", body).json()
    assert data["hands"] == {"A": ["Kc", "Jc", "3c"], "B": ["As", "7b", "5b"]}
    assert (data["winner"], data["decided_by"]) == ("A", "count")
    alone = post(api, "piccolo", {"hands": [{"player": "Ann", "cards": "7d"}]}).json()
    assert (alone["winner"], alone["decided_by"]) == ("Ann", "uncontested")


def test_grosso_example_b_wins_50_to_47(api):
    body = {
        "hands": [
            {"player": "A", "cards": "6d 7s Ab | 5d 4d 7c | Ac Kc"},
            {"player": "B", "cards": ["7d", "5b", "Jb", "3d", "6c", "2c", "Ad", "4c"]},
        ],
        "table_size": 5,
    }
    data = post(api, "grosso", body).json()
    assert (data["winner"], data["decided_by"]) == ("B", "points")
    b, a = data["ranking"]
    assert (b["player"], b["eval"]["count"], b["eval"]["points"]) == ("B", 3, 50)
    assert b["eval"]["cards"] == ["7d", "Ad", "3d"]
    assert (a["player"], a["eval"]["points"], a["reason"]) == ("A", 47, "lower points")


@pytest.mark.parametrize(
    ("what", "body", "code", "attr", "token"),
    [
        (
            "piccolo",
            {"hands": [{"cards": "Kc Jc 3c"}, {"cards": "As 8b 5b"}]},
            "bad_card",
            "hands.1.cards",
            "8b",
        ),
        (
            "piccolo",
            {"hands": [{"cards": "Kc Jc 3c"}, {"cards": "As 7b 3c"}]},
            "duplicate_card",
            "hands.1.cards",
            "3c",
        ),
        (
            "piccolo",
            {"hands": [{"cards": "Kc Jc 3c"}, {"cards": "As 7b"}]},
            "wrong_iteration_size",
            "hands.1.cards",
            "B has 2",
        ),
        (
            "piccolo",
            {"hands": [{"cards": "Kc Jc 3c 4c"}]},
            "wrong_iteration_size",
            "hands.0.cards",
            "A has 4",
        ),
        (
            "piccolo",
            {"hands": [{"cards": "Kc Jc 3c"}, {"cards": "As 7b 5b"}], "table_size": 6},
            "card_not_in_deck",
            "hands.0.cards",
            "Kc",
        ),
        (
            "piccolo",
            {"hands": [{"cards": "Kd Jc 3c"}], "table_size": 3, "removed_king": "d"},
            "card_not_in_deck",
            "hands.0.cards",
            "Kd",
        ),
        (
            "piccolo",
            {"hands": [{"cards": "Kc"}], "table_size": 3},
            "removed_king_required",
            "removed_king",
            "King",
        ),
        (
            "piccolo",
            {"hands": [{"cards": "Kc"}], "table_size": 7},
            "unsupported_player_count",
            "table_size",
            "7",
        ),
        (
            "piccolo",
            {"hands": [{"player": "X", "cards": "Kc"}, {"player": "X", "cards": "Jc"}]},
            "duplicate_player",
            "hands.1.player",
            "X",
        ),
        (
            "grosso",
            {"hands": [{"cards": "6d 7s Ab"}, {"cards": "7d 5b"}], "table_size": 5},
            "wrong_iteration_size",
            "hands.0.cards",
            "8 cards",
        ),
        ("grosso", {"hands": [{"cards": ""}]}, "empty_hand", "hands.0.cards", "no cards"),
        ("deck", {"players": 2}, "unsupported_player_count", "players", "2"),
        (
            "deck",
            {"players": 4, "removed_king": "Kd"},
            "removed_king_not_allowed",
            "removed_king",
            "3-player",
        ),
    ],
)
def test_engine_errors_are_400_with_code_and_attr(api, what, body, code, attr, token):
    error = first_error(post(api, what, body))
    assert (error["code"], error["attr"]) == (code, attr)
    assert token in error["detail"]


def test_stop_phase_example_of_the_spec(api):
    response = post(api, "stop", {"hands": STOP_HANDS, "log": STOP_LOG})
    assert response.status_code == 200
    data = response.json()
    assert data["closer"] == "P1" and not data["simulated"] and data["warnings"] == []
    assert data["remaining"] == {"P2": 3, "P3": 3, "P4": 5, "P5": 6, "P6": 1, "P1": 0}
    assert data["payments"] == STOP_PAYMENTS
    kinds = [p["kind"] for p in data["plays"]]
    assert kinds[:2] == ["open", "aces_on_ace"] and kinds[6] == "all_of_rank"
    assert data["plays"][9]["need_after"] is None  # the Cavallo closes at 6 players
    per3 = post(api, "stop", {"hands": STOP_HANDS, "log": STOP_LOG, "cards_per_payment": 3})
    assert per3.json()["payments"]["P5"] == -12


def test_stop_missed_play_is_a_warning_and_bad_plays_are_400(api):
    log = [dict(p) for p in STOP_LOG]
    log[4] = {"player": "P5", "cards": "4s"}  # spec 8.6: P4 holds the 4 of coins
    data = post(api, "stop", {"hands": STOP_HANDS, "log": log}).json()
    assert data["closer"] == "P1" and data["remaining"]["P4"] == 6
    assert [w["code"] for w in data["warnings"]] == ["missed_play"]
    assert "P4 could play a 4 before P5" in data["warnings"][0]["message"]
    wrong = [dict(p) for p in STOP_LOG]
    wrong[3] = {"player": "P3", "cards": "5s"}
    error = first_error(post(api, "stop", {"hands": STOP_HANDS, "log": wrong}))
    assert (error["code"], error["attr"]) == ("illegal_rank", "log.3")
    unheld = [dict(p) for p in STOP_LOG]
    unheld[0] = {"player": "P2", "cards": "Ad Ac Ab"}
    error = first_error(post(api, "stop", {"hands": STOP_HANDS, "log": unheld}))
    assert (error["code"], error["attr"]) == ("card_not_held", "log.0")
    short = post(api, "stop", {"hands": STOP_HANDS, "log": STOP_LOG[:-1]})
    assert first_error(short)["code"] == "incomplete"


def test_stop_without_a_log_is_played_out(api):
    data = post(api, "stop", {"hands": STOP_HANDS}).json()
    assert data["simulated"] and data["closer"] in data["payments"]
    assert sum(data["payments"].values()) == 0 and data["payments"][data["closer"]] >= 0


def test_deck_and_payments(api):
    deck = post(api, "deck", {"players": 3, "removed_king": "d"}).json()
    assert (deck["deck_size"], deck["per_player"], deck["schedule"]) == (39, 13, [3, 3, 3, 3, 1])
    assert (deck["removed"], deck["pot"], deck["grosso_value"]) == (["Kd"], 18, 13)
    six = post(api, "deck", {"players": 6}).json()
    assert (six["deck_size"], six["top_rank"], six["grosso_value"]) == (36, "N", 34)
    pay = post(api, "payments", {"closer": "P2", "cards_left": {"P3": 4, "P4": 7, "P1": 1}})
    assert pay.json() == {"P2": 30, "P3": -12, "P4": -18, "P1": 0}
    two = post(api, "payments", {"closer": "P2", "cards_left": {"P3": 0}})
    assert (first_error(two)["code"], first_error(two)["attr"]) == ("two_closers", "cards_left")


def test_deal_reports_the_readme_examples(api):
    ex1, ex2 = readme_records()
    report = post(api, "deal", ex1).json()
    assert report["ok"] and report["errors"] == []
    assert report["settlement"]["nets"] == ex1["nets"]
    assert post(api, "deal", ex2).json()["settlement"]["nets"] == ex2["nets"]
    ex1["piccoli"][0]["winner"] = "P3"
    ex1["nets"]["P3"], ex1["nets"]["P5"] = -12, -23
    bad = post(api, "deal", ex1)
    assert bad.status_code == 200
    assert [e["code"] for e in bad.json()["errors"]] == [
        "winner_mismatch",
        "net_mismatch",
        "net_mismatch",
    ]


def test_a_bad_record_is_a_report_not_an_error(api):
    report = post(api, "deal", {"players": ["A", "B", "C", "D"], "dealer": "A"})
    assert report.status_code == 200 and not report.json()["ok"]
    assert report.json()["errors"][0]["code"] == "bad_record"
    listed = post(api, "deal", ["not", "an", "object"])
    assert listed.status_code == 200 and listed.json()["errors"][0]["code"] == "bad_record"


def test_schema_lists_the_stoppa_endpoints(api):
    schema = api.get("/api/v1/schema/", {"format": "json"}).json()
    for what in ("piccolo", "grosso", "stop", "payments", "deck", "deal"):
        assert f"/api/v1/stoppa/{what}" in schema["paths"]
    body = schema["paths"]["/api/v1/stoppa/deal"]["post"]["requestBody"]
    record = body["content"]["application/json"]["schema"]
    assert record["properties"]["version"] == {"enum": [1]}
    assert record["properties"]["stop"]["nullable"] is True
