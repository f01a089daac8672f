"""Game points, spread and skunk level derived from the loser's score (ACC boundaries)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.outcome import OutcomeError, format_spread, game_outcome, skunk_level

ACC = SimpleNamespace(win=2, skunk=3, double_skunk=3, triple_skunk=3)
LONG = SimpleNamespace(win=3, skunk=4, double_skunk=4, triple_skunk=4)
FREE_TRIPLE = SimpleNamespace(win=1, skunk=2, double_skunk=4, triple_skunk=4)


@pytest.mark.parametrize(
    ("loser_score", "points", "margin", "level"),
    [
        (91, 2, 30, 0),  # one peg short of a skunk
        (90, 3, 31, 1),  # the skunk line
        (0, 3, 121, 3),  # the loser never pegged: triple skunk, still 3 in ACC play
        (61, 3, 60, 1),
        (60, 3, 61, 2),
        (31, 3, 90, 2),
        (30, 3, 91, 3),
        (120, 2, 1, 0),
    ],
)
def test_acc_boundaries(loser_score, points, margin, level):
    outcome = game_outcome(ACC, 121, loser_score)
    assert (outcome.winner_points, outcome.margin, outcome.skunk_level) == (points, margin, level)
    assert outcome.loser_points == 0


def test_other_formats_are_data():
    assert game_outcome(LONG, 121, 95).winner_points == 3
    assert game_outcome(LONG, 121, 80).winner_points == 4
    assert game_outcome(FREE_TRIPLE, 121, 50).winner_points == 4


def test_short_game_skunk_line():
    assert skunk_level(61, 31) == 0
    assert skunk_level(61, 30) == 1
    assert skunk_level(61, 0) == 1
    assert game_outcome(ACC, 61, 30).margin == 31


@pytest.mark.parametrize(
    ("target", "loser_score", "code"),
    [
        (121, 121, "loser_reached_target"),
        (121, 130, "loser_reached_target"),
        (121, -1, "negative_score"),
        (61, 61, "loser_reached_target"),
        (100, 50, "bad_target"),
        (121, 5.5, "bad_score"),
    ],
)
def test_impossible_scores_are_refused_with_a_code(target, loser_score, code):
    with pytest.raises(OutcomeError) as caught:
        game_outcome(ACC, target, loser_score)
    assert caught.value.code == code
    assert str(caught.value)


@pytest.mark.parametrize(
    ("spread", "shown"),
    [(7, "+7"), (-7, "-7"), (2, "+2"), (-5, "-5"), (0, "0"), (121, "+121"), (-35, "-35")],
)
def test_spread_is_shown_with_its_sign_and_no_padding(spread, shown):
    assert format_spread(spread) == shown


@given(st.integers(min_value=0, max_value=120))
def test_property_margin_and_points(loser_score):
    outcome = game_outcome(ACC, 121, loser_score)
    assert outcome.margin == 121 - loser_score
    assert outcome.winner_points == (3 if loser_score <= 90 else 2)
