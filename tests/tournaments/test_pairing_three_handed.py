"""Seating of three-handed cribbage: table sizes, repeat meetings avoided, reproducible."""

from __future__ import annotations

from itertools import combinations

import pytest

from tournaments.pairing import PairingError, pair_key
from tournaments.pairing.three_handed import meetings, seat_three_handed, table_sizes


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (2, [2]),
        (3, [3]),
        (4, [2, 2]),
        (5, [3, 2]),
        (15, [3] * 5),
        (16, [3] * 4 + [2, 2]),
        (17, [3] * 5 + [2]),
    ],
)
def test_table_sizes_seat_everyone(players, sizes):
    assert table_sizes(players) == sizes
    assert sum(sizes) == players


def test_one_player_cannot_be_seated():
    with pytest.raises(PairingError) as caught:
        table_sizes(1)
    assert caught.value.code == "too_few_players"


def test_every_player_is_seated_once():
    seating = seat_three_handed(list(range(1, 17)), seed=7)
    seated = [p for t in seating.tables for p in t]
    assert sorted(seated) == list(range(1, 17))
    assert [len(t) for t in seating.tables] == [3, 3, 3, 3, 2, 2]


def test_the_same_seed_gives_the_same_seating_whatever_the_input_order():
    players = list(range(1, 16))
    one = seat_three_handed(players, seed=42)
    two = seat_three_handed(list(reversed(players)), seed=42)
    assert one == two
    assert seat_three_handed(players, seed=43).tables != one.tables


@pytest.mark.parametrize("base", [100, 200, 300])
def test_no_pair_meets_twice_over_four_rounds_of_fifteen(base):
    players = list(range(1, 16))
    history: list[tuple] = []
    for number in range(1, 5):
        seating = seat_three_handed(players, seed=base + number, met=meetings(history))
        assert seating.repeats == ()
        history.extend(seating.tables)
    met = meetings(history)
    assert max(met.values()) == 1
    assert len(met) == 4 * 5 * 3  # 4 rounds x 5 tables x 3 pairs, all different


def test_forty_players_meet_nobody_twice_over_seven_rounds():
    players = list(range(1, 41))
    history: list[tuple] = []
    for number in range(1, 8):
        seating = seat_three_handed(players, seed=number, met=meetings(history))
        assert seating.cost == 0
        history.extend(seating.tables)


def test_repeats_are_reported_when_unavoidable():
    # Three players, twice: the only table repeats every pair.
    first = seat_three_handed([1, 2, 3], seed=1)
    second = seat_three_handed([1, 2, 3], seed=2, met=meetings(first.tables))
    assert second.cost == 3
    assert {frozenset((a, b)) for a, b, _n in second.repeats} == {
        pair_key(a, b) for a, b in combinations([1, 2, 3], 2)
    }


def test_tables_of_two_go_to_players_who_had_them_least():
    seating = seat_three_handed([1, 2, 3, 4, 5], seed=3, small_tables={1: 1, 2: 1, 3: 1})
    (two,) = [t for t in seating.tables if len(t) == 2]
    assert set(two) == {4, 5}


def test_a_player_listed_twice_is_refused():
    with pytest.raises(PairingError) as caught:
        seat_three_handed([1, 2, 2], seed=1)
    assert caught.value.code == "duplicate_player"


def test_forbidden_pairs_sit_at_different_tables():
    forbidden = [(1, 2), (1, 3), (2, 3), (4, 5)]
    for seed in range(10):
        seating = seat_three_handed(list(range(1, 10)), seed=seed, forbidden=forbidden)
        for table in seating.tables:
            for a, b in forbidden:
                assert not {a, b} <= set(table)


def test_forbidden_pairs_that_cannot_be_kept_apart_are_refused():
    with pytest.raises(PairingError) as caught:
        seat_three_handed([1, 2, 3], seed=1, forbidden=[(1, 2)])
    assert caught.value.code == "forbidden_pairs"
