"""verify_deal and the documented record (spec 10.3, games/stoppa/README.md)."""

import copy
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.stoppa import RECORD_SCHEMA, random_record, random_session, verify_deal

README = Path(__file__).resolve().parents[2] / "games" / "stoppa" / "README.md"


def _readme_json() -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(b) for b in re.findall(r"```json\n(.*?)\n```", README.read_text(), re.S)]


def _examples() -> tuple[dict, dict, dict]:  # type: ignore[type-arg]
    ex1, ex2, report = _readme_json()
    return ex1, ex2, report


def test_readme_example_1_six_players() -> None:
    ex1 = _examples()[0]
    r = verify_deal(ex1)
    assert r.ok and not r.warnings, r.errors
    assert dict(r.settlement.nets) == {
        "P1": 37,
        "P2": 31,
        "P3": -14,
        "P4": -21,
        "P5": -21,
        "P6": -12,
    }
    assert r.settlement.piccoli[0].ranking[1].reason == "fewer cards of one suit"
    assert all(c.ok for c in r.checks) and len(r.checks) == 3 + 1 + 6 + 6


def test_readme_example_2_misera_and_priority() -> None:
    r = verify_deal(_examples()[1])
    assert r.ok, r.errors
    g = r.settlement
    assert [c.decided_by for c in g.contests] == [
        "points",
        "uncontested",
        "count",
        "no_bets",
        "priority",
    ]
    assert g.grosso.ranking[1].reason == "later in priority"
    assert g.stop is None and g.declarations.cancels_stop
    assert dict(g.nets) == {"Ann": 25, "Bea": -14, "Cid": 3, "Dan": -14}


def test_readme_example_3_report() -> None:
    ex1, _, documented = _examples()
    bad = copy.deepcopy(ex1)
    bad["piccoli"][0]["winner"] = "P3"
    bad["nets"]["P3"], bad["nets"]["P5"] = -12, -23
    report = verify_deal(json.dumps(bad)).to_dict()
    report.pop("settlement")
    report["checks"] = [c for c in report["checks"] if not c["ok"]]
    assert report == documented


def test_schema_accepts_examples_and_random_records() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator.check_schema(RECORD_SCHEMA)
    ex1, ex2, _ = _examples()
    rng = random.Random(3)
    for record in [
        ex1,
        ex2,
        *(random_record([f"p{i}" for i in range(n)], "p0", rng) for n in range(3, 7)),
    ]:
        jsonschema.validate(record, RECORD_SCHEMA)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**ex1, "players": ["a", "b"]}, RECORD_SCHEMA)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_full_simulated_session_per_table_size(players: int) -> None:
    names = [f"s{i}" for i in range(players)]
    games = random_session(names, names[-1], random.Random(players))
    assert [g["dealer"] for g in games] == names[-1:] + names[:-1]  # one full giro
    totals = dict.fromkeys(names, 0)
    for g in games:
        r = verify_deal(g)
        assert r.ok, r.errors
        for p, n in r.settlement.nets.items():
            totals[p] += n
    assert sum(totals.values()) == 0


def _mutate(record: dict, path: str, value: object) -> dict:  # type: ignore[type-arg]
    out = copy.deepcopy(record)
    node = out
    keys = path.split(".")
    for k in keys[:-1]:
        node = node[int(k)] if isinstance(node, list) else node[k]
    last = keys[-1]
    if value is KeyError:
        del node[last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return out


@pytest.mark.parametrize(
    ("path", "value", "code", "where"),
    [
        ("players", ["P1", "P2"], "unsupported_player_count", "players"),
        ("players", ["P1", "P1", "P3", "P4", "P5", "P6"], "duplicate_player", "players"),
        ("dealer", "P9", "unknown_player", "dealer"),
        ("removed_king", "Kd", "removed_king_not_allowed", "removed_king"),
        ("settings.ante", 0, "bad_stakes", "settings"),
        ("settings.cards_per_payment", 5, "bad_setting", "settings"),
        ("deal.iterations.0.P2", "Ad Ac", "wrong_iteration_size", "deal.iterations[0].P2"),
        ("deal.iterations.0.P2", "Ad Ac Kd", "card_not_in_deck", "deal.iterations[0].P2"),
        ("deal.iterations.0.P2", "Ad Ac 2d", "duplicate_card", "deal.iterations[0].P3"),
        ("deal.iterations.0.P2", "Ad Ac 9s", "bad_card", "deal.iterations[0].P2"),
        ("piccoli", [], "wrong_contest_count", "piccoli"),
        (
            "piccoli.0.contributions",
            {"P3": 2, "P5": 3},
            "unequal_showdown_contributions",
            "piccoli[0]",
        ),
        ("grosso.showdown", ["P2"], "folded_with_full_bet", "grosso"),
        ("stop.log.4", {"player": "P4", "cards": "5s"}, "card_not_held", "stop.log[4]"),
        ("stop.log.4", {"player": "P4", "cards": "3b"}, "illegal_rank", "stop.log[4]"),
        ("stop", KeyError, "stop_missing", "stop"),
        (
            "declarations",
            [{"player": "P4", "kind": "misera"}],
            "invalid_declaration",
            "declarations[0]",
        ),
        ("piccoli.0.winner", "P3", "winner_mismatch", "piccoli[0].winner"),
        ("grosso.winner", "P6", "winner_mismatch", "grosso.winner"),
        ("stop.closer", "P6", "closer_mismatch", "stop.closer"),
        ("stop.payments.P4", -6, "payment_mismatch", "stop.payments.P4"),
        ("nets.P1", 38, "nets_not_zero", "nets"),
        ("deal", {"iterations": [{}]}, "wrong_iteration_count", "deal"),
        ("players", "P1 P2 P3", "bad_record", "players"),
    ],
)
def test_bad_records_are_reported_with_code_and_place(
    path: str, value: object, code: str, where: str
) -> None:
    report = verify_deal(_mutate(_examples()[0], path, value))
    assert not report.ok
    assert report.first_error is not None
    assert (report.first_error.code, report.first_error.where) == (code, where)
    assert report.first_error.message
    json.dumps(report.to_dict())


def test_stop_after_declaration_and_cards_left_mode() -> None:
    ex1, ex2, _ = _examples()
    bad = copy.deepcopy(ex2)
    bad["stop"] = ex1["stop"]
    assert verify_deal(bad).first_error.code == "stop_after_declaration"
    short = copy.deepcopy(ex1)
    short["stop"] = {
        "closer": "P1",
        "cards_left": {"P2": 3, "P3": 3, "P4": 5, "P5": 6, "P6": 1},
        "payments": {"P1": 42, "P2": -6, "P3": -6, "P4": -12, "P5": -18},
    }
    assert verify_deal(short).ok
    short["stop"]["cards_left"]["P5"] = 7
    assert verify_deal(short).first_error.code == "bad_cards_left"
    short["stop"]["cards_left"]["P5"] = 0
    assert verify_deal(short).first_error.code == "two_closers"


def test_missed_play_is_a_warning_and_undeclared_misera() -> None:
    ex1 = copy.deepcopy(_examples()[0])
    ex1["stop"]["log"][4] = {"player": "P5", "cards": "4s"}
    for k in ("payments", "closer"):
        ex1["stop"].pop(k)
    ex1.pop("nets")
    r = verify_deal(ex1)
    assert r.ok and [w.code for w in r.warnings] == ["missed_play"]
    ex2 = copy.deepcopy(_examples()[1])
    ex2["declarations"] = []
    r = verify_deal(ex2)
    assert r.first_error.code == "stop_missing"


@pytest.mark.parametrize(
    "junk",
    [
        "",
        "{",
        "[]",
        "null",
        "42",
        '{"players": 3}',
        b"\xff",
        '{"players": ["a","b","c"], "dealer": "a", "deal": 1}',
    ],
)
def test_junk_never_raises(junk: str) -> None:
    r = verify_deal(junk)
    assert not r.ok and r.errors[0].code in {
        "bad_record",
        "unsupported_player_count",
        "removed_king_required",
    }


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from(["P1", "P2", "7d", "Kd", ""]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["P1", "P2", "log", "cards", "player"]), inner, max_size=3
        )
    ),
    max_leaves=6,
)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(
        [
            "players",
            "dealer",
            "removed_king",
            "settings",
            "deal",
            "piccoli",
            "grosso",
            "declarations",
            "stop",
            "nets",
            "extra",
        ]
    ),
    json_values,
)
def test_any_field_corruption_gives_a_report_not_a_trace(field: str, value: object) -> None:
    record = copy.deepcopy(_examples()[0])
    record[field] = value
    r = verify_deal(record)
    assert isinstance(r.ok, bool)
    json.dumps(r.to_dict())
    if not r.ok:
        assert r.errors[0].code and r.errors[0].message
