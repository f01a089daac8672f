"""A table's final scores for 2, 3 and 4 players (`check_table_scores`), and invariants of
three- and four-handed games over simulated records (hypothesis)."""

from __future__ import annotations

import copy

import pytest
from django.utils.translation import override
from hypothesis import given, settings
from hypothesis import strategies as st

from core.engine_messages import cribbage as cribbage_messages
from games.cribbage import (
    DEAL_SHAPES,
    CribbageError,
    check_table_scores,
    deal_shape,
    parse_card,
    score_play,
    simulate_game,
    verify_game,
)

# --- check_table_scores -------------------------------------------------------------------


def test_three_players_one_on_the_target_each_loser_skunked_by_their_own_score():
    result = check_table_scores(3, [121, 90, 40])
    assert (result.winner, result.winner_seats, result.loser_score) == (0, (0,), 90)
    # 90 <= 90: a skunk (31 behind); 40 <= 60 but > 30: a double skunk (81 behind)
    assert [(x.side, x.score, x.skunk_name, x.behind) for x in result.losers] == [
        (1, 90, "skunk", 31),
        (2, 40, "double skunk", 81),
    ]
    # a game to 61: 30 <= 30 is a skunk, 31 is not
    short = check_table_scores(3, [30, 31, 61], target=61)
    assert short.winner == 2
    assert [(x.score, x.skunk) for x in short.losers] == [(30, 1), (31, 0)]


def test_partners_score_per_side_or_per_seat():
    result = check_table_scores(4, [100, 121])
    assert (result.winner, result.winner_seats) == (1, (1, 3))
    assert [(x.side, x.seats, x.score, x.skunk) for x in result.losers] == [(0, (0, 2), 100, 0)]
    assert check_table_scores(4, [121, 95, 121, 95]).scores == (121, 95)
    assert check_table_scores(2, [91, 121]).to_dict() == {
        "players": 2,
        "target": 121,
        "scores": [91, 121],
        "winner": 1,
        "winner_seats": [1],
        "loser_score": 91,
        "losers": [
            {
                "side": 0,
                "seats": [0],
                "score": 91,
                "skunk": 0,
                "skunk_name": "none",
                "behind": 30,
            }
        ],
    }


@pytest.mark.parametrize(
    ("players", "scores", "target", "code", "params", "english"),
    [
        (3, [120, 119, 118], 121, "no_winner", {"target": 121},
         "No side reached 121: the game is not finished."),
        (3, [121, 121, 3], 121, "several_winners", {"sides": "0, 1", "target": 121},
         "Sides 0, 1 all reached 121: the game ends when the first one does."),
        (3, [130, 2, 3], 121, "score_past_target", {"side": 0, "score": 130, "target": 121},
         "Side 0 has 130: the game stops at 121, points past it are not scored."),
        (3, [121, -1, 3], 121, "bad_table_score", {"side": 1, "score": "-1"},
         "Side 1's score must be a whole number, 0 or more, not -1."),
        (2, [121, True], 121, "bad_table_score", {"side": 1, "score": "True"},
         "Side 1's score must be a whole number, 0 or more, not True."),
        (3, [121, 90], 121, "wrong_score_count", {"players": 3, "count": 2, "expected": 3},
         "3 players make 3 sides: give 3 scores, not 2."),
        (4, [121, 90, 40], 121, "wrong_score_count", {"players": 4, "count": 3, "expected": 2},
         "4 players make 2 sides: give 2 scores, not 3."),
        (4, [121, 95, 120, 95], 121, "partners_differ",
         {"player": 0, "partner": 2, "score": "121", "partner_score": "120"},
         "Partners 0 and 2 share one score, not 121 and 120."),
        (5, [121, 1], 121, "bad_player_count", {"players": "5"},
         "Cribbage is played by 2, 3 or 4 players, not 5."),
        (3, [100, 1, 2], 100, "unknown_target", {"target": "100", "allowed": "121, 61"},
         "100 is not a game length: play to 121, 61."),
    ],
)  # fmt: skip
def test_bad_table_scores_have_a_code_params_and_text(
    players, scores, target, code, params, english
):
    with pytest.raises(CribbageError) as error:
        check_table_scores(players, scores, target)
    assert (error.value.code, dict(error.value.params)) == (code, params)
    with override("en"):
        assert cribbage_messages.describe_error(error.value) == english


def test_deal_shapes_follow_the_deal_table():
    # players: cards dealt each, thrown each, from the deck to the crib; 4 in each hand and crib
    assert [(s.dealt, s.discard, s.crib_from_deck) for s in DEAL_SHAPES.values()] == [
        (6, 2, 0),
        (5, 1, 1),
        (5, 1, 0),
    ]
    for players, shape in DEAL_SHAPES.items():
        assert shape.dealt - shape.discard == 4
        assert players * shape.discard + shape.crib_from_deck == 4
    assert deal_shape(4).sides == ((0, 2), (1, 3)) and deal_shape(4).side_of == (0, 1, 0, 1)
    assert deal_shape(3).side_of == (0, 1, 2)
    with pytest.raises(CribbageError):
        deal_shape(1)


# --- invariants over simulated games ------------------------------------------------------

GAMES = settings(max_examples=25, deadline=None)
seeds = st.integers(min_value=0, max_value=10**6)
tables = st.sampled_from([3, 4])
targets = st.sampled_from([121, 61])


def count_sequences(play_events):
    """The play's cards split at each reset of the count (a card whose count is its value)."""
    sequences: list[list] = []
    for event in play_events:
        if event.what == "go":
            continue
        if not sequences or event.count == parse_card(event.what).value:
            sequences.append([])
        sequences[-1].append(event)
    return sequences


@GAMES
@given(seeds, tables, targets)
def test_a_game_ends_with_one_side_on_the_target_and_nobody_past_it(seed, players, target):
    report = verify_game(simulate_game(seed, players=players, target=target))
    assert report.problems == ()
    sides = len(deal_shape(players).sides)
    credited = [0] * sides
    previous = (0,) * sides
    for event in report.events:
        credited[event.side] += event.credited
        assert all(score <= target for score in event.scores)
        assert all(now >= before for now, before in zip(event.scores, previous, strict=True))
        previous = event.scores
    assert tuple(credited) == report.scores
    # the tournament side's check of the final scores agrees with the replay
    table = check_table_scores(players, list(report.scores), target)
    assert table.winner == report.winner
    assert [(x.side, x.score, x.skunk) for x in table.losers] == [
        (x.side, x.score, x.skunk) for x in report.losers
    ]


@GAMES
@given(seeds, tables)
def test_pegging_points_are_the_sum_of_each_players_plays(seed, players):
    report = verify_game(simulate_game(seed, players=players))
    ended = report.ended_at or {}
    for deal in {event.deal for event in report.events}:
        play = [e for e in report.events if e.deal == deal and e.phase == "play"]
        if not play or (ended.get("deal") == deal and ended.get("phase") == "play"):
            continue  # a play cut short by the end of the game
        per_player = [sum(e.true for e in play if e.player == p) for p in range(players)]
        # the piles scored again as plain cards, whoever laid them: the same total
        total = 0
        for sequence in count_sequences(play):
            cards = [event.what for event in sequence]
            for i in range(len(cards)):
                total += score_play(cards[: i + 1], last=i == len(cards) - 1).total
            # each count ends once: 31 or one go point, on its last card only
            ends = [e for e in sequence if e.count == 31 or any(i.kind == "go" for i in e.items)]
            assert ends == [sequence[-1]]
        assert sum(per_player) == total


def rotate(record, players):
    """Every seat moved one to the left: the same game, the players renamed."""
    turned = copy.deepcopy(record)
    turned.pop("result", None)
    turned["players"] = turned["players"][-1:] + turned["players"][:-1]
    for deal in turned["deals"]:
        deal["dealer"] = (deal["dealer"] + 1) % players
        for key in ("dealt", "hands"):
            deal[key] = deal[key][-1:] + deal[key][:-1]
        for event in deal["play"] + deal["show"]:
            event["by"] = (event["by"] + 1) % players
    return turned


@GAMES
@given(seeds, st.sampled_from([2, 3, 4]))
def test_moving_every_seat_one_left_moves_the_scores_with_them(seed, players):
    record = simulate_game(seed, players=players)
    report, turned = verify_game(record), verify_game(rotate(record, players))
    assert turned.problems == ()
    assert [e.true for e in turned.events] == [e.true for e in report.events]
    assert [e.player for e in turned.events] == [(e.player + 1) % players for e in report.events]
    side_of = deal_shape(players).side_of
    for p in range(players):
        assert turned.scores[side_of[(p + 1) % players]] == report.scores[side_of[p]]


@GAMES
@given(seeds, tables, targets)
def test_deals_recorded_after_the_end_change_nothing(seed, players, target):
    record = simulate_game(seed, players=players, target=target)
    longer = copy.deepcopy(record)
    longer["deals"].append(copy.deepcopy(record["deals"][-1]))
    report, extra = verify_game(record), verify_game(longer)
    assert extra.scores == report.scores and extra.winner == report.winner
    assert [p.code for p in extra.problems] == ["after_game_end"]


# --- random pegging against a plain reference scorer ---------------------------------------

RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _rank(card: str) -> int:
    return RANK_ORDER.index(card[:-1]) + 1


def _value(card: str) -> int:
    return min(_rank(card), 10)


def reference_points(pile: list[str], closes: bool) -> int:
    """The rules' pegging points for the last card of `pile`, counted the plain way."""
    count = sum(_value(card) for card in pile)
    points = 2 if count in (15, 31) else 0
    same = 1
    while same < len(pile) and _rank(pile[-1 - same]) == _rank(pile[-1]):
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for length in range(len(pile), 2, -1):
        ranks = sorted(_rank(card) for card in pile[-length:])
        if ranks == list(range(ranks[0], ranks[0] + length)):
            points += length
            break
    if closes and count != 31:
        points += 1
    return points


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([3, 4]), st.permutations(list(range(52))), st.data())
def test_random_three_and_four_handed_pegging_against_a_reference(players, order, data):
    deck = [f"{RANK_ORDER[i % 13]}{'SHDC'[i // 13]}" for i in order]
    hands = [deck[4 * p : 4 * p + 4] for p in range(players)]
    crib, starter = deck[4 * players : 4 * players + 4], deck[4 * players + 4]
    dealer = data.draw(st.integers(0, players - 1))
    remaining = [list(hand) for hand in hands]
    plays, expected = [], []
    count, pile, turn = 0, [], (dealer + 1) % players
    while any(remaining):
        fits = [card for card in remaining[turn] if count + _value(card) <= 31]
        if not fits:  # a go (or no cards left): the next player on
            turn = (turn + 1) % players
            continue
        card = data.draw(st.sampled_from(fits))
        remaining[turn].remove(card)
        pile.append(card)
        count += _value(card)
        closes = count == 31 or not any(
            count + _value(other) <= 31 for hand in remaining for other in hand
        )
        points = reference_points(pile, closes)
        plays.append({"by": turn, "card": card, "claim": points})
        expected.append((turn, points))
        if closes:
            count, pile = 0, []
        turn = (turn + 1) % players
    record = {
        "players": [f"P{p}" for p in range(players)],
        "deals": [
            {"dealer": dealer, "hands": hands, "crib": crib, "starter": starter, "play": plays}
        ],
    }
    report = verify_game(record)
    assert report.valid and report.claims_correct, [p.to_dict() for p in report.problems]
    play = [e for e in report.events if e.phase == "play"]
    assert [(e.player, e.true) for e in play] == expected
    # every side's pegging is the sum of its players' plays
    side_of = deal_shape(players).side_of
    for side in range(len(deal_shape(players).sides)):
        pegged = sum(points for player, points in expected if side_of[player] == side)
        assert sum(e.credited for e in play if e.side == side) == pegged
