"""The ranking chain: every tiebreaker on hand-built fields with known answers."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tournaments.tiebreakers import REGISTRY, Game, RankingContext, rank, validate_chain


def line(gp=0, won=0, spread=0, skunks_won=0, skunks_suffered=0):
    return SimpleNamespace(
        game_points=gp,
        games_won=won,
        spread=spread,
        skunks_won=skunks_won,
        skunks_suffered=skunks_suffered,
    )


def ranking(lines, chain, games=(), seed=0):
    context = RankingContext(lines=lines, games=list(games), seed=seed)
    return [(r.entry, r.rank, r.tied, r.separated_by) for r in rank(list(lines), chain, context)]


def test_acc_chain_games_won_before_spread():
    lines = {1: line(13, 6, 60), 2: line(13, 6, 35), 3: line(13, 5, 161), 4: line(14, 7, -3)}
    assert ranking(lines, ["game_points", "games_won", "spread"]) == [
        (4, 1, False, ""),
        (1, 2, False, "game_points"),
        (2, 3, False, "spread"),
        (3, 4, False, "games_won"),
    ]


def test_ties_that_survive_the_chain_share_a_rank():
    lines = {1: line(10, 5, 20), 2: line(10, 5, 20), 3: line(8, 4, 1)}
    assert ranking(lines, ["game_points", "games_won", "spread"]) == [
        (1, 1, True, ""),
        (2, 1, True, ""),
        (3, 3, False, "game_points"),
    ]


def test_skunks_won_and_suffered():
    lines = {1: line(10, 5, 20, skunks_won=1), 2: line(10, 5, 20, skunks_won=2)}
    assert ranking(lines, ["game_points", "skunks_won"])[0][0] == 2
    lines = {1: line(10, 5, 20, skunks_suffered=0), 2: line(10, 5, 20, skunks_suffered=3)}
    assert ranking(lines, ["game_points", "skunks_suffered"])[0][0] == 1


def test_head_to_head_counts_only_games_between_the_tied_players():
    # 1 and 2 tie on points; 2 beat 1. Player 1's big win over 3 must not count.
    lines = {1: line(4, 2), 2: line(4, 2), 3: line(0, 0)}
    games = [Game(1, 2, 1, 2, 0), Game(2, 1, 3, 3, 0), Game(3, 2, 3, 2, 0)]
    assert ranking(lines, ["game_points", "head_to_head"], games)[:2] == [
        (2, 1, False, ""),
        (1, 2, False, "head_to_head"),
    ]


def test_buchholz_and_median_buchholz():
    # 1 met the strong 3 and 4; 2 met the weak 5 and 6.
    lines = {1: line(2), 2: line(2), 3: line(10), 4: line(8), 5: line(0), 6: line(1)}
    games = [Game(1, 3, 1, 2, 0), Game(2, 1, 4, 2, 0), Game(1, 2, 5, 2, 0), Game(2, 6, 2, 2, 0)]
    context = RankingContext(lines=lines, games=games)
    assert REGISTRY["buchholz"].values([1, 2], context) == {1: 18, 2: 1}
    games += [Game(3, 1, 5, 2, 0)]
    context = RankingContext(lines=lines, games=games)
    # Opponents 10, 8, 0: the median drops the best and the worst.
    assert REGISTRY["median_buchholz"].values([1], context) == {1: 8}


def test_most_recent_results_decide_from_the_last_game_back():
    lines = {1: line(2), 2: line(2), 9: line(2)}
    games = [Game(1, 1, 9, 2, 0), Game(2, 9, 1, 2, 0), Game(1, 9, 2, 2, 0), Game(2, 2, 9, 2, 0)]
    assert ranking(lines, ["game_points", "most_recent"], games)[0][0] in (2, 9)
    context = RankingContext(lines=lines, games=games)
    values = REGISTRY["most_recent"].values([1, 2], context)
    assert values[2] > values[1]


def test_draw_of_lots_is_recorded_by_the_seed():
    lines = {i: line(4, 2, 10) for i in range(1, 7)}
    first = ranking(lines, ["game_points", "draw"], seed=42)
    assert ranking(lines, ["game_points", "draw"], seed=42) == first
    assert [r[1] for r in first] == [1, 2, 3, 4, 5, 6]
    assert {r[3] for r in first[1:]} == {"draw"}
    assert ranking(lines, ["game_points", "draw"], seed=43) != first


@pytest.mark.parametrize(
    ("chain", "words"),
    [
        (["game_points", "bogus"], "Unknown tiebreaker"),
        (["spread", "spread"], "twice"),
        ([], "at least"),
    ],
)
def test_bad_chains_are_refused(chain, words):
    with pytest.raises(ValueError, match=words):
        validate_chain(chain)
