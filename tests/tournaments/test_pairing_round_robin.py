"""Round robins (pure Python): circle method for pairs, spread-out multi-player tables."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing import (
    PairingError,
    draw_group_round,
    group_round_robin,
    pair_key,
    round_robin,
    table_sizes,
)


@pytest.mark.parametrize("n", range(2, 15))
def test_everyone_meets_everyone_once_and_an_odd_field_has_one_bye_each(n):
    games = round_robin(range(n), seed=4)
    met = Counter(pair_key(a, b) for g in games for a, b in g.pairs)
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    for g in games:
        seated = [p for pair in g.pairs for p in pair] + ([g.bye] if g.bye is not None else [])
        assert sorted(seated) == list(range(n))
    byes = Counter(g.bye for g in games if g.bye is not None)
    assert len(games) == (n if n % 2 else n - 1)
    assert (sorted(byes) == list(range(n))) if n % 2 else not byes


def test_same_seed_same_schedule():
    assert round_robin(range(9), seed=1) == round_robin(range(9), seed=1)
    assert round_robin(range(9), seed=1) != round_robin(range(9), seed=2)


def test_a_forbidden_pair_cannot_play_a_round_robin():
    with pytest.raises(PairingError) as caught:
        round_robin("ABCD", forbidden=[("A", "C")])
    assert caught.value.code == "forbidden_in_round_robin"
    assert round_robin("ABCD", forbidden=[("A", "Z")])  # a pair outside the field is ignored


@pytest.mark.parametrize(
    ("n", "size", "low", "sizes", "out"),
    [
        (12, 4, None, (4, 4, 4), 0),
        (10, 4, 3, (4, 3, 3), 0),
        (10, 4, None, (4, 4), 2),
        (7, 3, None, (3, 3), 1),
        (14, 6, 3, (5, 5, 4), 0),
        (3, 3, None, (3,), 0),
    ],
)
def test_table_sizes(n, size, low, sizes, out):
    assert table_sizes(n, size, low) == (sizes, out)


def test_bad_table_sizes_are_refused():
    for args in ((12, 2), (12, 7), (12, 4, 5)):
        with pytest.raises(PairingError) as caught:
            table_sizes(*args)
        assert caught.value.code == "bad_table_size"
    with pytest.raises(PairingError):
        table_sizes(2, 3)


def test_nine_players_in_threes_meet_everyone_exactly_once_in_four_rounds():
    schedule = group_round_robin(range(9), table_size=3, rounds=4, seed=1)
    assert schedule.spread == 0 and schedule.most == 1


def test_eight_players_in_fours_spread_meetings_evenly_over_seven_rounds():
    schedule = group_round_robin(range(8), table_size=4, rounds=7, seed=1)
    assert schedule.spread == 0 and schedule.most == 3


def test_repeats_are_noted():
    # 12 players in threes of four: round two cannot avoid sharing a table again.
    schedule = group_round_robin(range(12), table_size=4, rounds=2, seed=3)
    assert not schedule.rounds[0].compromises
    assert all(c.kind == "repeat" for c in schedule.rounds[1].compromises)
    assert schedule.rounds[1].compromises


@given(
    n=st.integers(min_value=3, max_value=30),
    size=st.integers(min_value=3, max_value=6),
    flexible=st.booleans(),
    rounds=st.integers(min_value=1, max_value=6),
    seed=st.integers(min_value=0, max_value=10**6),
    forbid=st.lists(st.tuples(st.integers(0, 29), st.integers(0, 29)), max_size=3),
)
def test_property_group_rounds(n, size, flexible, rounds, seed, forbid):
    size = min(size, max(3, n))
    low = 3 if flexible else None
    forbidden = [(a, b) for a, b in forbid if a != b and a < n and b < n]
    try:
        schedule = group_round_robin(
            range(n),
            table_size=size,
            rounds=rounds,
            seed=seed,
            min_table_size=low,
            forbidden=forbidden,
        )
    except PairingError as error:
        assert error.code in {"forbidden_pairs", "too_few_players"}
        return
    again = group_round_robin(
        range(n),
        table_size=size,
        rounds=rounds,
        seed=seed,
        min_table_size=low,
        forbidden=forbidden,
    )
    assert schedule == again, "same seed, same schedule"
    blocked = {pair_key(a, b) for a, b in forbidden}
    sat_out: Counter = Counter()
    met: Counter = Counter()
    for number, r in enumerate(schedule.rounds, start=1):
        seated = [p for t in r.tables for p in t] + list(r.sitting_out)
        assert sorted(seated) == list(range(n)), "everyone seated exactly once a round"
        assert all((low or size) <= len(t) <= size for t in r.tables)
        pairs = [pair_key(a, b) for t in r.tables for a, b in combinations(t, 2)]
        assert not blocked & set(pairs), "forbidden pairs never share a table"
        if number == 1:
            assert not r.compromises, "nobody has met in round one"
        assert {frozenset(c.players) for c in r.compromises} == {k for k in pairs if met[k]}
        met.update(pairs)
        sat_out.update(r.sitting_out)
    if sat_out:
        counts = [sat_out[p] for p in range(n)]
        assert max(counts) - min(counts) <= 1, "sitting out goes round fairly"
    counts = [met[pair_key(a, b)] for a, b in combinations(range(n), 2)]
    assert (schedule.most, schedule.fewest) == (max(counts), min(counts))


def test_a_group_round_with_withdrawn_players_only_seats_the_active_field():
    r = draw_group_round([1, 2, 3, 5, 8, 9], table_size=3, seed=1, round_number=4)
    assert sorted(p for t in r.tables for p in t) == [1, 2, 3, 5, 8, 9]
