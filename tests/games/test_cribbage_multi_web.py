"""Three- and four-handed records through the web face: the whole-game API and the command."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from games.cribbage import simulate_game


@pytest.mark.parametrize(("players", "sides", "losers"), [(3, 3, 2), (4, 2, 1)])
def test_api_checks_a_three_or_four_handed_record(api, players, sides, losers):
    record = simulate_game(11, players=players, target=61)
    report = api.post("/api/v1/cribbage/game", record, format="json").json()
    assert report["valid"] and report["finished"] and report["problems"] == []
    assert len(report["scores"]) == sides and len(report["losers"]) == losers
    assert report["scores"][report["winner"]] == 61
    assert report["loser_score"] == record["result"]["loser_score"]
    if players == 4:
        assert report["sides"] == [[0, 2], [1, 3]]
        assert len(report["winner_players"]) == 2


def test_api_reports_a_three_handed_declared_result_that_differs(api):
    record = simulate_game(11, players=3, target=61)
    replayed = api.post("/api/v1/cribbage/game", record, format="json").json()["scores"]
    wrong = [score + 1 if score < 61 else score for score in replayed]
    record["result"]["scores"] = wrong
    report = api.post("/api/v1/cribbage/game", record, format="json").json()
    problem = next(p for p in report["problems"] if p["code"] == "result_mismatch")
    assert problem["params"] == {
        "claimed": ", ".join(map(str, wrong)),
        "actual": ", ".join(map(str, replayed)),
    }
    assert problem["detail"] == (
        f"The declared result ({problem['params']['claimed']}) differs from the replay"
        f" ({problem['params']['actual']})."
    )


def test_api_names_the_player_out_of_turn_at_a_three_handed_table(api):
    record = simulate_game(2, players=3, target=61)
    deal = record["deals"][0]
    # the first two cards of the play laid the other way round: the second player jumps in
    first, second = deal["play"][0], deal["play"][1]
    assert first["card"] != "go" and second["card"] != "go"
    deal["play"][0], deal["play"][1] = second, first
    report = api.post("/api/v1/cribbage/game", record, format="json").json()
    problem = report["problems"][0]
    assert problem["code"] == "out_of_turn"
    assert problem["params"]["expected"] == (deal["dealer"] + 1) % 3
    assert not report["valid"]


def test_command_checks_a_three_handed_record_and_a_tables_scores(tmp_path, capsys):
    record = simulate_game(7, players=3, target=61)
    path = tmp_path / "three.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    call_command("cribbage", "game", str(path))
    out = capsys.readouterr().out
    assert "valid: True" in out and "scores: [37, 43, 61]" in out
    # both losers of a three-handed game, each with their skunk
    assert "  Player 1: 37 (none)" in out and "  Player 2: 43 (none)" in out
    call_command("cribbage", "table", "--players", "3", "121", "90", "40")
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "winner: side 0 (seat 0) on 121",
        "side 1: 90, 31 behind, skunk",
        "side 2: 40, 81 behind, double skunk",
    ]
    call_command("cribbage", "table", "--players", "4", "95", "121")
    assert capsys.readouterr().out.splitlines()[0] == "winner: side 1 (seats 1 and 3) on 121"
    with pytest.raises(CommandError, match="several_winners"):
        call_command("cribbage", "table", "--players", "3", "121", "121", "40")
