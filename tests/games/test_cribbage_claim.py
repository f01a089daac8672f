"""Claims: true score, difference, overlooked items; skunk levels."""

import pytest

from games.cribbage import (
    SKUNK_LINES,
    CardError,
    check_claim,
    skunk_level,
    skunk_name,
)
from games.cribbage.claim import pick_overlooked
from games.cribbage.scoring import ScoreItem


def test_correct_claim():
    check = check_claim("hand", "5H 5C 5S JD", "5D", 29)
    assert check.correct
    assert (check.true, check.claimed, check.difference) == (29, 29, 0)
    assert check.overlooked == ()


def test_under_claim_lists_items_worth_the_overlooked_points():
    check = check_claim("hand", "5H 5C 5S JD", "5D", 28)
    assert check.difference == -1
    assert check.overlooked_points == 1
    assert [item.kind for item in check.overlooked] == ["nobs"]
    check = check_claim("hand", "4H 5C 6S 6D", "5D", 21)  # 24 true
    assert sum(item.points for item in check.overlooked) == 3
    assert len(check.overlooked) == 1


def test_over_claim():
    check = check_claim("hand", "2H 4C 6D 8S", "KC", 2)
    assert check.true == 0
    assert check.difference == 2
    assert check.overclaimed_points == 2
    assert check.overlooked == ()


def test_crib_claims_use_crib_rules():
    assert check_claim("crib", "2H 4H 6H 8H", "KS", 4).true == 0
    assert check_claim("hand", "2H 4H 6H 8H", "KS", 4).true == 4
    assert check_claim("hand", "2H 4H 6H 8H", "KS", 4, crib=True).true == 0


def test_play_claims():
    check = check_claim("play", "AD 7C 7H", None, 2)
    assert check.true == 4
    assert check.overlooked_points == 2
    assert check_claim("play", "10H 10D 9C", None, 1, last=True).correct


def test_to_dict_is_json_ready():
    import json

    data = check_claim("hand", "5H 5C 5S JD", "5D", 27).to_dict()
    json.dumps(data)
    assert data["difference"] == -2
    assert data["score"]["total"] == 29


def test_bad_claims_raise():
    with pytest.raises(ValueError, match="kind"):
        check_claim("box", "5H 5C 5S JD", "5D", 1)
    with pytest.raises(ValueError, match="whole number"):
        check_claim("hand", "5H 5C 5S JD", "5D", -1)
    with pytest.raises(ValueError, match="whole number"):
        check_claim("hand", "5H 5C 5S JD", "5D", True)
    with pytest.raises(ValueError, match="starter"):
        check_claim("hand", "5H 5C 5S JD", None, 1)
    with pytest.raises(CardError):
        check_claim("hand", "5H 5C 5S QQ", "5D", 1)


def test_pick_overlooked_prefers_exact_then_fewest_larger():
    items = [ScoreItem("double pair royal", (), 12)]
    assert pick_overlooked(items, 6) == tuple(items)
    items = [ScoreItem("fifteen", (), 2), ScoreItem("pair", (), 2), ScoreItem("run", (), 3)]
    assert pick_overlooked(items, 3) == (items[2],)
    assert pick_overlooked(items, 2) == (items[1],)
    assert pick_overlooked(items, 0) == ()


@pytest.mark.parametrize(
    ("target", "loser", "level", "name"),
    [
        (121, 120, 0, "none"),
        (121, 91, 0, "none"),
        (121, 90, 1, "skunk"),
        (121, 61, 1, "skunk"),
        (121, 60, 2, "double skunk"),
        (121, 31, 2, "double skunk"),
        (121, 30, 3, "triple skunk"),
        (121, 0, 3, "triple skunk"),
        (61, 60, 0, "none"),
        (61, 31, 0, "none"),
        (61, 30, 1, "skunk"),
        (61, 0, 1, "skunk"),
    ],
)
def test_skunk_lines(target, loser, level, name):
    assert skunk_level(target, loser) == level
    assert skunk_name(target, loser) == name


def test_skunk_rejects_impossible_results():
    assert SKUNK_LINES == {121: (90, 60, 30), 61: (30,)}
    for target, loser in ((121, 121), (121, -1), (61, 61), (100, 50)):
        with pytest.raises(ValueError):
            skunk_level(target, loser)
