"""The Stoppa checker in the engine (no Django): what the page, the API and the CLI share."""

from __future__ import annotations

import pytest

from games.stoppa import StoppaError
from games.stoppa.checker import compare_contest, engine_attr, run_stop

# Six players, dealer P1, so P2 leads: the stop phase of the engine's worked example.
STOP_HANDS = [
    ("P2", "Ad Ac As Js Ns 3d"),
    ("P3", "Ab 2d 3c 5s 5b Nb"),
    ("P4", "4d 2c Jc 3b 2s 3s"),
    ("P5", "4s 7s 2b Nc 4b 7b"),
    ("P6", "5d 6d 6c 6s 6b Jb"),
    ("P1", "7d Jd Nd 4c 5c 7c"),
]
STOP_LOG = [
    "P2: Ad Ac As",
    "P3: Ab",
    "P3: 2d",
    "P3: 3c",
    "P4: 4d",
    "P6: 5d",
    "P6: 6d 6c 6s 6b",
    "P1: 7d",
    "P1: Jd",
    "P1: Nd",
    "P1: 4c",
    "P1: 5c",
    "P1: 7c",
]


def test_the_punto_grosso_goes_to_points_when_the_counts_tie():
    result = compare_contest(
        "grosso",
        [("A", "6d 7s Ab 5d 4d 7c Ac Kc"), ("B", ["7d", "5b", "Jb", "3d", "6c", "2c", "Ad", "4c"])],
        table_size=5,
    )
    assert (result["winner"], result["decided_by"]) == ("B", "points")
    assert [row["player"] for row in result["ranking"]] == ["B", "A"]


def test_a_stop_phase_is_replayed_and_paid():
    result = run_stop(STOP_HANDS, STOP_LOG)
    assert result["closer"] == "P1" and not result["simulated"]
    assert result["payments"] == {"P1": 42, "P2": -6, "P3": -6, "P4": -12, "P5": -18, "P6": 0}
    played_out = run_stop(STOP_HANDS, None)
    assert played_out["simulated"] and sum(played_out["payments"].values()) == 0


@pytest.mark.parametrize(
    ("hands", "code", "where"),
    [
        ([("A", "7d"), ("A", "6d")], "duplicate_player", "hands.1.player"),
        ([("A", "7d"), ("B", "7d")], "duplicate_card", "hands.1.cards"),
        ([("A", "")], "empty_hand", "hands.0.cards"),
        ([("A", "7d"), ("B", "6d 5d")], "wrong_iteration_size", "hands.1.cards"),
    ],
)
def test_bad_hands_name_the_input(hands, code, where):
    with pytest.raises(StoppaError) as caught:
        compare_contest("piccolo", hands)
    assert (caught.value.code, caught.value.where) == (code, where)


def test_engine_places_read_as_api_fields():
    assert engine_attr("stop.log[3]") == "log.3"
    assert engine_attr("hands.1.cards") == "hands.1.cards"
    assert engine_attr("") is None
