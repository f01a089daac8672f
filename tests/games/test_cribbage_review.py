"""The game review (`games.cribbage.review_game`): each recorded discard against the best."""

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from games.cribbage import ReviewError, advise_discard, review_game

EXAMPLE = json.loads(
    (Path(__file__).parents[2] / "games" / "cribbage" / "example_game.json").read_text()
)


def test_example_game_reviews_every_recorded_discard():
    review = review_game(EXAMPLE)
    assert review.players == ("Ann", "Bob")
    assert len(review.decisions) == 14  # seven deals, both players' dealt cards recorded
    assert review.unknown == 0
    first = review.decisions[0]
    assert (first.deal, first.player, first.own_crib) == (0, 0, True)
    advice = advise_discard(EXAMPLE["deals"][0]["dealt"][0], dealer=True)
    assert first.best == advice.best.net_exact
    assert [str(c) for c in first.discarded] == ["6H", "4C"]
    made = advice.option_for(first.kept)
    assert first.made == made.net_exact
    assert first.cost == first.best - first.made >= 0
    # totals add up the decisions
    for total in review.totals:
        mine = [d for d in review.decisions if d.player == total.player]
        assert total.decisions == len(mine)
        assert total.given_away == sum((d.cost for d in mine), Fraction(0))
        assert total.best_choices == sum(1 for d in mine if d.rank == 1)
    # the three costliest, most expensive first
    assert len(review.costliest) == 3
    costs = [d.cost for d in review.costliest]
    assert costs == sorted(costs, reverse=True)
    assert costs[0] == max(d.cost for d in review.decisions)
    top = review.costliest[0].to_dict()
    assert top["deal"] == 3 and top["player"] == 0
    assert top["discarded"] == ["5S", "5H"] and top["best_discarded"] == ["3C", "9C"]
    assert top["cost"] == 11.0694


def test_rank_and_cost_agree_with_the_advisor_for_every_decision():
    review = review_game(EXAMPLE)
    for decision in review.decisions:
        deal = EXAMPLE["deals"][decision.deal]
        advice = advise_discard(deal["dealt"][decision.player], dealer=decision.own_crib)
        nets = [o.net_exact for o in advice.options]
        assert decision.rank == 1 + sum(1 for net in nets if net > decision.made)
        assert (decision.cost == 0) == (decision.rank == 1)
        assert decision.own_crib == (decision.player == deal["dealer"])


def test_unknown_dealt_cards_are_counted_not_reviewed():
    record = copy.deepcopy(EXAMPLE)
    for deal in record["deals"]:
        deal["dealt"] = [deal["dealt"][0], None]
    review = review_game(record)
    assert review.unknown == 7
    assert {d.player for d in review.decisions} == {0}
    assert review.totals[1].decisions == 0 and review.totals[1].given_away == 0


def test_invalid_record_is_refused_with_a_code():
    record = copy.deepcopy(EXAMPLE)
    record["deals"][0]["hands"][0][0] = "XX"
    with pytest.raises(ReviewError) as info:
        review_game(record)
    assert info.value.code == "invalid_record"
    assert info.value.problems[0]["code"] == "bad_card"
