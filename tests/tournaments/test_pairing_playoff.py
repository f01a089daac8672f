"""Playoff brackets (pure Python): the cut, byes, seeding, best-of-N, advancement, places."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing import (
    PairingError,
    build_bracket,
    build_playoff,
    cut,
    draw_playoff,
    final_places,
    plan_playoff,
    record_game,
    seed_order,
    withdraw,
)


@pytest.mark.parametrize(
    ("entrants", "qualifiers", "byes"),
    [
        (60, 15, 1),
        (108, 27, 5),
        (121, 31, 1),
        (122, 31, 1),
        (123, 31, 1),
        (124, 31, 1),
        (132, 33, 31),
        (64, 16, 0),
        (8, 2, 0),
        (9, 3, 1),
    ],
)
def test_the_cut_and_the_byes_follow_the_acc_rule(entrants, qualifiers, byes):
    plan = plan_playoff(entrants)
    assert (plan.qualifiers, plan.byes) == (qualifiers, byes)
    bracket = build_playoff([f"P{i}" for i in range(1, entrants + 1)])
    first = bracket.section("main")[: plan.bracket_size // 2]
    assert sum(m.bye for m in first) == byes
    # The byes go to the top seeds; round two is a full bracket.
    assert {m.players[0] for m in first if m.bye} == {f"P{s}" for s in range(1, byes + 1)}
    second = [m for m in bracket.section("main") if m.round == 2]
    played_first = [m for m in first if not m.bye]
    assert len(second) * 2 == (plan.bracket_size // 2 if plan.rounds >= 2 else 0)
    assert all(not m.empty[0] and not m.empty[1] for m in second)
    filled = sum(p is not None for m in second for p in m.players)
    assert filled == byes and len(played_first) + byes == plan.bracket_size // 2


def test_a_td_set_number_of_qualifiers_and_refusals():
    assert plan_playoff(100, 24).byes == 8
    assert cut(list("ABCDEFGH"), qualifiers=3) == ("A", "B", "C")
    for entrants, qualifiers, code in (
        (10, 11, "too_many_qualifiers"),
        (5, 1, "too_few_qualifiers"),
    ):
        with pytest.raises(PairingError) as caught:
            plan_playoff(entrants, qualifiers)
        assert caught.value.code == code


def test_seed_order_puts_s_against_b_plus_one_minus_s_and_splits_the_top_seeds():
    assert seed_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    for size in (2, 4, 8, 16, 32, 64):
        order = seed_order(size)
        assert sorted(order) == list(range(1, size + 1))
        assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
        half = size // 2
        assert (1 in order[:half]) != (2 in order[:half]), "1 and 2 only meet in the final"
        if size >= 4:
            quarters = [set(order[q : q + size // 4]) for q in range(0, size, size // 4)]
            assert all(len(q & {1, 2, 3, 4}) == 1 for q in quarters)


def play(bracket, rng, favour=0.7):
    """Play every ready match game by game, the higher seat winning with ``favour``."""
    games = 0
    while not bracket.finished:
        m = bracket.ready()[0]
        bracket = record_game(bracket, m.id, m.players[0 if rng.random() < favour else 1])
        games += 1
    return bracket, games


def test_a_whole_playoff_of_sixteen_from_sixty_four_entrants_best_of_three():
    ranking = [f"Q{i:02}" for i in range(1, 65)]
    bracket = build_playoff(ranking, best_of=3)
    assert bracket.seeds == tuple(ranking[:16])
    assert [m.players for m in bracket.section("main")[:2]] == [("Q01", "Q16"), ("Q08", "Q09")]
    bracket, games = play(bracket, random.Random(64))
    assert 15 * 2 <= games <= 15 * 3
    assert all(max(m.wins) == 2 for m in bracket.matches)
    places = final_places(bracket)
    assert next(iter(places)) == bracket.champion
    assert sorted(Counter(places.values()).items()) == [(1, 1), (2, 1), (3, 2), (5, 4), (9, 8)]
    assert set(places) == set(ranking[:16])


def test_a_decided_match_advances_its_winner_and_refuses_more_games():
    bracket = build_bracket(list("ABCD"), best_of=(3, 5))
    bracket = record_game(bracket, "M1-1", "A")
    assert not bracket.match("M1-1").decided and bracket.match("M2-1").players == (None, None)
    bracket = record_game(bracket, "M1-1", "D")
    bracket = record_game(bracket, "M1-1", "A")
    assert bracket.match("M1-1").winner == "A" and bracket.match("M1-1").wins == (2, 1)
    assert bracket.match("M2-1").players == ("A", None) and bracket.match("M2-1").best_of == 5
    errors = [
        (("M1-1", "A"), "match_decided"),
        (("M2-1", "A"), "match_not_ready"),
        (("M1-2", "A"), "not_in_match"),
        (("X9", "A"), "unknown_match"),
    ]
    for (mid, who), code in errors:
        with pytest.raises(PairingError) as caught:
            record_game(bracket, mid, who)
        assert caught.value.code == code
    with pytest.raises(PairingError) as caught:
        build_bracket(list("ABCD"), best_of=4)
    assert caught.value.code == "bad_best_of"


def test_third_place_match_splits_third_and_fourth():
    bracket, _ = play(build_bracket(list("ABCDEFGH"), third_place=True), random.Random(1))
    places = final_places(bracket)
    assert sorted(places.values()) == [1, 2, 3, 4, 5, 5, 5, 5]


def test_consolation_bracket_for_first_round_losers():
    bracket = build_bracket([f"S{i}" for i in range(1, 16)], consolation=True)
    bracket, _ = play(bracket, random.Random(2))
    losers = {m.loser for m in bracket.section("main") if m.round == 1 and not m.bye}
    consolation = final_places(bracket, "consolation")
    assert set(consolation) == losers and len(losers) == 7
    assert sorted(consolation.values()) == [1, 2, 3, 3, 5, 5, 5]


def test_double_elimination_needs_two_losses_and_places_everyone():
    bracket = build_bracket([f"S{i}" for i in range(1, 9)], double_elimination=True)
    bracket, _ = play(bracket, random.Random(3), favour=0.5)
    losses = Counter()
    for m in bracket.matches:
        if m.decided and not m.void and not m.bye:
            losses[m.loser] += 1
    champion = bracket.champion
    assert all(losses[p] == 2 for p in bracket.seeds if p != champion)
    assert losses[champion] <= 1
    assert sorted(final_places(bracket).values()) == [1, 2, 3, 4, 5, 5, 7, 7]


def test_grand_final_reset_only_when_the_losers_champion_wins():
    bracket = build_bracket(list("AB"), best_of=1, double_elimination=True)
    bracket = record_game(bracket, "M1-1", "B")  # A drops to the grand final's second seat
    assert bracket.match("F").players == ("B", "A")
    bracket = record_game(bracket, "F", "A")
    assert bracket.match("F2").players == ("B", "A") and not bracket.finished
    bracket = record_game(bracket, "F2", "A")
    assert bracket.champion == "A" and final_places(bracket) == {"A": 1, "B": 2}


def test_withdrawal_is_a_walkover_and_the_games_played_stand():
    bracket = build_bracket(list("ABCD"))
    bracket = record_game(bracket, "M1-1", "D")
    bracket = withdraw(bracket, "D")
    m = bracket.match("M1-1")
    assert m.winner == "A" and m.games == (1,) and not m.bye
    assert bracket.match("M2-1").players[0] == "A"
    bracket = withdraw(bracket, "C")  # before a game of their match: B goes on at once
    assert bracket.match("M1-2").winner == "B" and bracket.match("M1-2").games == ()
    assert bracket.match("M2-1").players == ("A", "B")
    bracket = withdraw(bracket, "A")  # the final's first seat leaves: B is champion
    assert bracket.champion == "B" and final_places(bracket) == {"B": 1, "A": 2, "C": 3, "D": 3}


def test_playoff_only_draw_gives_byes_to_the_named_ranking_and_is_reproducible():
    players = [f"E{i}" for i in range(13)]
    ranking = ["X1", "E9", "E4", "E2", "E7"]  # X1 did not enter
    bracket = draw_playoff(players, seed=5, ranking=ranking)
    byes = [m.players[0] for m in bracket.section("main") if m.bye]
    assert sorted(byes) == ["E2", "E4", "E9"] and bracket.seeds[:3] == ("E9", "E4", "E2")
    assert draw_playoff(players, seed=5, ranking=ranking) == bracket
    assert draw_playoff(players, seed=6, ranking=ranking) != bracket


@given(
    qualifiers=st.integers(min_value=2, max_value=40),
    seed=st.integers(min_value=0, max_value=10**6),
    double=st.booleans(),
    extra=st.sampled_from(["", "third_place", "consolation"]),
    quitters=st.sets(st.integers(min_value=0, max_value=39), max_size=3),
)
def test_property_brackets_play_out(qualifiers, seed, double, extra, quitters):
    options = {"double_elimination": True} if double else ({extra: True} if extra else {})
    if extra and not double and qualifiers < 3:
        options = {}
    players = list(range(qualifiers))
    bracket = draw_playoff(players, seed=seed, ranking=players[::2], **options)
    assert draw_playoff(players, seed=seed, ranking=players[::2], **options) == bracket
    rng = random.Random(seed)
    leaving = [p for p in sorted(quitters) if p < qualifiers]
    steps = 0
    while not bracket.finished:
        if leaving and rng.random() < 0.1:
            bracket = withdraw(bracket, leaving.pop())
            continue
        ready = bracket.ready()
        assert ready, "an unfinished bracket always has a match to play"
        m = rng.choice(ready)
        assert m.players[0] != m.players[1]
        bracket = record_game(bracket, m.id, rng.choice(m.players))
        steps += 1
        assert steps < 2000
    first = [m for m in bracket.section("main") if m.round == 1]
    # Round one: every player in exactly one match; each bye to a top seed.
    seated = [p for m in first for p in m.players if p is not None]
    assert sorted(seated) == players
    byes = [m.players[0] for m in first if m.bye]
    assert byes == [] or max(bracket.seeds.index(p) for p in byes) < len(byes)
    places = final_places(bracket)
    assert places[bracket.champion] == 1
    assert set(places) <= set(players)
    if not double:
        assert len(places) == qualifiers
