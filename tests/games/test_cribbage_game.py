"""Whole-game records: replay, problems with stable codes, game end, muggins, skunks."""

import copy
import json

import pytest

from games.cribbage import (
    GAME_RECORD_SCHEMA,
    PROBLEM_CODES,
    simulate_game,
    verify_game,
)


def codes(report):
    return [problem.code for problem in report.problems]


def small_deal(**changes):
    """A hand-checked 2-player deal: Bob (1) is pone, Ann (0) deals."""
    deal = {
        "dealer": 0,
        "hands": [["5H", "5C", "5S", "JD"], ["2C", "3C", "4D", "9S"]],
        "crib": ["KH", "QS", "7D", "AC"],
        "starter": "5D",
        "play": [
            {"by": 1, "card": "9S", "claim": 0},  # 9
            {"by": 0, "card": "5H", "claim": 0},  # 14
            {"by": 1, "card": "2C", "claim": 0},  # 16
            {"by": 0, "card": "5C", "claim": 0},  # 21
            {"by": 1, "card": "4D", "claim": 0},  # 25
            {"by": 0, "card": "5S", "claim": 1},  # 30: nobody can lay a card: 1 for the go
            {"by": 1, "card": "3C", "claim": 0},  # new count 3
            {"by": 0, "card": "JD", "claim": 1},  # 13, last card
        ],
        "show": [
            {"by": 1, "claim": 6},  # 2-3-4-5 run 4, 2+4+9 fifteen 2
            {"by": 0, "claim": 29},
            {"by": 0, "crib": True, "claim": 4},  # K+5, Q+5
        ],
    }
    deal.update(changes)
    return deal


def record(deals, **changes):
    data = {"target": 121, "muggins": False, "players": ["Ann", "Bob"], "deals": deals}
    data.update(changes)
    return data


def test_hand_checked_deal_replays_cleanly():
    report = verify_game(record([small_deal()]))
    assert codes(report) == ["game_unfinished"]
    assert report.valid
    assert report.claims_correct
    play = [event for event in report.events if event.phase == "play"]
    assert [event.true for event in play] == [0, 0, 0, 0, 0, 1, 0, 1]
    assert [event.count for event in play][5:] == [30, 3, 13]
    show = [event for event in report.events if event.phase == "show"]
    assert [(event.player, event.what) for event in show] == [(1, "hand"), (0, "hand"), (0, "crib")]
    assert show[1].true == 29
    assert report.scores == (1 + 1 + 29 + show[2].true, show[0].true)
    json.dumps(report.to_dict())


def test_simulated_games_verify_cleanly_for_2_3_4_players():
    for seed in range(12):
        for players in (2, 3, 4):
            for target in (121, 61):
                data = simulate_game(seed, players=players, target=target)
                report = verify_game(data)
                assert report.problems == (), [p.to_dict() for p in report.problems]
                assert report.finished
                assert report.scores[report.winner] == target
                assert report.loser_score == data["result"]["loser_score"]
                assert all(loser.score < target for loser in report.losers)
                assert len(report.losers) == (2 if players == 3 else 1)


def test_four_players_score_as_two_teams():
    report = verify_game(simulate_game(3, players=4))
    assert report.sides == ((0, 2), (1, 3))
    assert len(report.scores) == 2
    for event in report.events:
        assert event.side == event.player % 2


def test_game_ends_at_the_target_and_nothing_after_counts():
    data = simulate_game(5)
    last_deal = data["deals"][-1]
    # add more to the record after the winning moment
    last_deal.setdefault("show", []).append({"by": 0, "crib": True, "claim": 0})
    data["deals"].append(copy.deepcopy(last_deal))
    report = verify_game(data)
    assert report.finished
    assert "after_game_end" in codes(report)
    problem = next(p for p in report.problems if p.code == "after_game_end")
    assert problem.deal == len(data["deals"]) - 2
    assert report.ended_at["deal"] == len(data["deals"]) - 2


def test_pone_counts_out_before_the_dealer():
    # find a simulated game won by the pone's hand in the show, then record the dealer's hand
    # and crib after it: they are not scored, even if they would take the dealer past 121
    for seed in range(300):
        data = simulate_game(seed)
        last = data["deals"][-1]
        shows = last["show"]
        if len(shows) == 1 and shows[0]["by"] != last["dealer"]:
            break
    else:
        pytest.fail("no game won by the pone's count in 300 seeds")
    dealer = last["dealer"]
    shows.append({"by": dealer, "claim": 29})
    shows.append({"by": dealer, "crib": True, "claim": 29})
    report = verify_game(data)
    assert report.winner == 1 - dealer
    assert report.ended_at["phase"] == "show" and report.ended_at["player"] == 1 - dealer
    assert report.scores[dealer] < 121
    assert [p.code for p in report.problems] == ["after_game_end"]
    assert (report.problems[0].phase, report.problems[0].event) == ("show", 1)
    last_events = [e for e in report.events if e.deal == len(data["deals"]) - 1]
    assert last_events[-1].player == 1 - dealer


def test_muggins_gives_overlooked_points_to_the_opponent():
    deal = small_deal()
    deal["show"][1]["claim"] = 20  # Ann claims 20 of 29
    off = verify_game(record([deal]))
    on = verify_game(record([deal], muggins=True))
    assert "claim_mismatch" in codes(off)
    assert off.scores[0] == on.scores[0]
    assert on.scores[1] == off.scores[1] + 9
    event = next(e for e in on.events if e.phase == "show" and e.player == 0 and e.what == "hand")
    assert (event.true, event.claimed, event.difference) == (29, 20, -9)
    assert (event.muggins_side, event.muggins_points) == (1, 9)


def test_over_claims_are_not_credited():
    deal = small_deal()
    deal["show"][0]["claim"] = 9
    report = verify_game(record([deal]))
    event = next(e for e in report.events if e.phase == "show" and e.player == 1)
    assert event.credited == event.true
    assert event.difference == 9 - event.true
    assert report.valid and not report.claims_correct


@pytest.mark.parametrize(
    ("mutate", "code", "phase", "event"),
    [
        (lambda d: d["hands"][0].__setitem__(0, "2C"), "card_twice", "hands", 1),
        (lambda d: d["hands"][1].pop(), "wrong_hand_size", "hands", 1),
        (lambda d: d["hands"][1].__setitem__(0, "ZZ"), "bad_card", "hands", 1),
        (lambda d: d.__setitem__("starter", "5H"), "card_twice", "starter", None),
        (lambda d: d["play"].insert(5, {"by": 1, "card": "go"}), "illegal_go", "play", 5),
        (lambda d: d["play"].__setitem__(1, {"by": 1, "card": "2C"}), "out_of_turn", "play", 1),
        (
            lambda d: d["play"].__setitem__(0, {"by": 1, "card": "AS"}),
            "card_not_in_hand",
            "play",
            0,
        ),
        (lambda d: d["play"].__setitem__(3, {"by": 0, "card": "5H"}), "card_twice", "play", 3),
        (lambda d: d["play"].__setitem__(5, {"by": 0, "card": "JD"}), "past_31", "play", 5),
        (lambda d: d["play"].pop(), "cards_unplayed", "play", 7),
        (lambda d: d["play"].__setitem__(0, "9S"), "malformed", "play", 0),
        (lambda d: d["play"][0].__setitem__("claim", -3), "malformed", "play", 0),
        (lambda d: d["show"].reverse(), "show_order", "show", None),
        (lambda d: d.__setitem__("hands", "nope"), "malformed", "hands", None),
        (lambda d: d.__setitem__("dealer", 7), "malformed", "deals", None),
        (
            lambda d: d.__setitem__(
                "dealt",
                [["5H", "5C", "5S", "JD", "KH", "QS"], ["2C", "3C", "4D", "9S", "7D", "8D"]],
            ),
            "discard_mismatch",
            "dealt",
            1,
        ),
        (lambda d: d["play"][1].__setitem__("claim", 2), "claim_mismatch", "play", 1),
    ],
)
def test_bad_records_name_the_deal_and_event(mutate, code, phase, event):
    deal = small_deal()
    mutate(deal)
    report = verify_game(record([small_deal(dealer=1), deal]))
    problems = [p for p in report.problems if p.deal == 1]
    assert code in [p.code for p in problems], [p.to_dict() for p in report.problems]
    problem = next(p for p in problems if p.code == code)
    assert problem.phase == phase
    assert problem.event == event
    assert problem.code in PROBLEM_CODES
    assert problem.message


def test_deal_must_pass_to_the_left():
    report = verify_game(record([small_deal(dealer=1), small_deal(dealer=1)]))
    assert "wrong_dealer" in codes(report)


def test_his_heels_scores_2_for_the_dealer():
    deal = small_deal(starter="JS", heels=2)
    deal["hands"][0][3] = "JD"
    report = verify_game(record([deal]))
    heels = report.events[0]
    assert (heels.phase, heels.what, heels.true, heels.player) == ("starter", "heels", 2, 0)


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "x",
        {},
        {"players": ["a"]},
        {"players": ["a", "b"], "deals": "x"},
        {"players": ["a", "b"], "deals": [], "target": 100},
        {"players": ["a", "b"], "deals": [None, 3, {"dealer": "x"}, {"dealer": 0}]},
        {
            "players": ["a", "b"],
            "deals": [{"dealer": 0, "hands": [[], []], "crib": 5, "starter": None}],
        },
        {"players": ["a", "b"], "deals": [], "muggins": "yes"},
        {"players": ["a", "b"], "deals": [], "result": {"winner": 9}},
    ],
)
def test_malformed_records_give_reports_not_exceptions(data):
    report = verify_game(data)
    assert not report.valid or codes(report) == ["game_unfinished"]
    assert report.problems
    json.dumps(report.to_dict())


def test_declared_result_is_checked():
    data = simulate_game(7)
    data["result"]["loser_score"] += 1
    assert "result_mismatch" in codes(verify_game(data))


def test_skunk_reported():
    for seed in range(40):
        report = verify_game(simulate_game(seed, target=61))
        assert report.skunk == (1 if report.loser_score <= 30 else 0)


def test_schema_accepts_simulated_records_and_readme_example():
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator.check_schema(GAME_RECORD_SCHEMA)
    validator = jsonschema.Draft202012Validator(GAME_RECORD_SCHEMA)
    for players in (2, 3, 4):
        validator.validate(simulate_game(1, players=players))
    validator.validate(record([small_deal()]))


def test_example_game_in_the_package_verifies():
    from pathlib import Path

    import games.cribbage

    path = Path(games.cribbage.__file__).with_name("example_game.json")
    report = verify_game(json.loads(path.read_text()))
    assert report.problems == ()
    assert (report.scores, report.winner, report.loser_score) == ((59, 61), 1, 59)
    assert report.ended_at["deal"] == 6
