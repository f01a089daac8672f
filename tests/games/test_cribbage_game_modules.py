"""The whole-game engine split by concern keeps its old import path (`games.cribbage.game`)."""

from games.cribbage import game, game_deal, game_report


def test_game_module_re_exports_the_report_types_and_deal_sizes():
    assert game.Problem is game_report.Problem
    assert game.GameEvent is game_report.GameEvent
    assert game.GameReport is game_report.GameReport
    assert game.Loser is game_report.Loser
    assert game.PROBLEM_CODES is game_report.PROBLEM_CODES
    assert game.DEALT_SIZE == {2: 6, 3: 5, 4: 5}
    assert game.DEALT_SIZE is game_deal.DEALT_SIZE
    assert game.HAND_SIZE == 4


def test_verify_game_from_the_old_path_reports_a_malformed_record():
    report = game.verify_game({"players": ["Ann"], "deals": []})
    assert [problem.code for problem in report.problems] == ["malformed"]
    assert report.valid is False
