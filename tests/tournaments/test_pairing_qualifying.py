"""Qualifying seating (pure Python): no repeat opponents, fair byes, reproducible."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing import (
    PairingError,
    Seating,
    check_seating,
    circle_round,
    draw_qualifying_game,
    pair_key,
    swap_seats,
)


def play_night(field, games=9, seed=7, changes=None):
    """Seat ``games`` games; ``changes`` maps a game number to (joining, leaving) players."""
    field = list(field)
    starting = list(field)
    met: Counter = Counter()
    byes: Counter = Counter()
    seatings = []
    bye_history = []
    for game in range(1, games + 1):
        joining, leaving = (changes or {}).get(game, ((), ()))
        field = [p for p in field if p not in leaving] + list(joining)
        seating = draw_qualifying_game(
            field, game_number=game, seed=seed, met=met, byes=byes, starting_field=starting
        )
        seated = [p for pair in seating.pairs for p in pair] + (
            [seating.bye] if seating.bye is not None else []
        )
        assert sorted(seated) == sorted(field), "every active player seated exactly once"
        if seating.bye is not None:
            fewest = min(byes[p] for p in field)
            assert byes[seating.bye] == fewest, "a bye goes to someone with the fewest byes"
            byes[seating.bye] += 1
            bye_history.append(seating.bye)
        for a, b in seating.pairs:
            met[pair_key(a, b)] += 1
        seatings.append(seating)
    return seatings, met, byes, bye_history


@pytest.mark.parametrize("players", range(9, 41))
def test_nine_games_without_a_repeat_opponent(players):
    seatings, met, byes, bye_history = play_night(range(players))
    assert max(met.values()) == 1
    assert all(not s.repeats for s in seatings)
    if players % 2:
        assert len(bye_history) == 9
        assert len(set(bye_history)) == 9, "nobody has a second bye before all have had one"
        assert max(byes.values()) == 1
    else:
        assert not byes


def test_eight_players_repeat_only_when_unavoidable_and_say_so():
    # 8 players have 7 possible opponents: games 8 and 9 must repeat, at most once per pair.
    seatings, met, _, _ = play_night(range(8))
    assert all(not s.repeats for s in seatings[:7])
    assert all(len(s.repeats) == 4 for s in seatings[7:])
    assert max(met.values()) == 2


def test_same_seed_same_seating_and_another_seed_differs():
    first, *_ = play_night(range(24), seed=99)
    again, *_ = play_night(range(24), seed=99)
    other, *_ = play_night(range(24), seed=100)
    assert [s.pairs for s in first] == [s.pairs for s in again]
    assert [s.pairs for s in first] != [s.pairs for s in other]


def test_late_entry_and_withdrawal_switch_to_the_draw_without_repeats():
    changes = {4: ([100], [3]), 6: ((), [10, 11])}
    seatings, met, _, _ = play_night(range(21), changes=changes)
    assert [s.method for s in seatings[:3]] == ["movement"] * 3
    assert all(s.method == "draw" for s in seatings[3:])
    assert max(met.values()) == 1
    assert all(3 not in pair for s in seatings[3:] for pair in s.pairs)


def test_circle_method_meets_everyone_once():
    field = list("ABCDEF")
    meetings = Counter()
    for game in range(1, 6):
        for a, b in circle_round(field, game):
            meetings[pair_key(a, b)] += 1
    assert len(meetings) == 15 and set(meetings.values()) == {1}


def test_a_field_of_one_is_refused():
    with pytest.raises(ValueError, match="At least two"):
        draw_qualifying_game(["solo"], game_number=1, seed=1)


@given(
    players=st.integers(min_value=2, max_value=30),
    games=st.integers(min_value=1, max_value=12),
    seed=st.integers(min_value=0, max_value=2**31),
    leave=st.sets(st.integers(min_value=0, max_value=29), max_size=4),
)
def test_property_seats_everyone_once_and_names_every_repeat(players, games, seed, leave):
    leaving = [p for p in sorted(leave) if p < players][: max(0, players - 2)]
    changes = {2: ((), leaving)} if games >= 2 else None
    met_before: Counter = Counter()
    seatings, met, byes, _ = play_night(range(players), games=games, seed=seed, changes=changes)
    for s in seatings:
        # A repeat is never silent: every pair that met before is listed with its count.
        seated_again = {
            pair_key(a, b): met_before[pair_key(a, b)]
            for a, b in s.pairs
            if met_before[pair_key(a, b)]
        }
        assert {pair_key(a, b): t for a, b, t in s.repeats} == seated_again
        for a, b in s.pairs:
            met_before[pair_key(a, b)] += 1
    if games <= (players if players % 2 else players - 1) and not leaving:
        # While the movement lasts nobody meets twice.
        assert max(met.values(), default=0) <= 1
    active = [p for p in range(players) if p not in leaving]
    if byes and active:
        assert max(byes.get(p, 0) for p in active) - min(byes.get(p, 0) for p in active) <= 1


# Issue 4 additions: two games per opponent, forbidden pairs, the TD's hand swap, compromises.


def seat_games(players, games, seed, **options):
    met: Counter = Counter()
    byes: Counter = Counter()
    out = []
    for game in range(1, games + 1):
        s = draw_qualifying_game(
            players,
            game_number=game,
            seed=seed,
            met=met,
            byes=byes,
            starting_field=players,
            **options,
        )
        seated = [p for pair in s.pairs for p in pair] + ([s.bye] if s.bye is not None else [])
        assert sorted(seated) == sorted(players)
        for a, b in s.pairs:
            met[pair_key(a, b)] += 1
        if s.bye is not None:
            byes[s.bye] += 1
        out.append(s)
    return out, met, byes


def test_two_games_per_opponent_meets_at_most_twice_and_fresh_opponents_first():
    seatings, met, _ = seat_games(list(range(8)), 14, 5, max_meetings=2)
    assert max(met.values()) == 2 and all(not s.repeats for s in seatings)
    _, first_seven, _ = seat_games(list(range(8)), 7, 5, max_meetings=2)
    assert max(first_seven.values()) == 1
    seatings, met, _ = seat_games(list(range(8)), 15, 5, max_meetings=2)
    assert seatings[-1].repeats and all(c.kind == "repeat" for c in seatings[-1].compromises)
    assert "3rd time" in seatings[-1].compromises[0].note


@given(
    players=st.integers(min_value=3, max_value=24),
    games=st.integers(min_value=1, max_value=10),
    seed=st.integers(min_value=0, max_value=10**6),
    data=st.data(),
)
def test_property_forbidden_pairs_are_never_seated(players, games, seed, data):
    field = list(range(players))
    forbidden = data.draw(
        st.lists(st.tuples(st.sampled_from(field), st.sampled_from(field)), max_size=3)
    )
    forbidden = [(a, b) for a, b in forbidden if a != b]
    blocked = {pair_key(a, b) for a, b in forbidden}
    try:
        seatings, _, _ = seat_games(field, games, seed, forbidden=forbidden)
    except PairingError as error:
        assert error.code == "forbidden_pairs"
        return
    again, _, _ = seat_games(field, games, seed, forbidden=forbidden)
    assert seatings == again
    for s in seatings:
        assert not blocked & {pair_key(a, b) for a, b in s.pairs}
        assert {c.kind for c in s.compromises} <= {"repeat", "second_bye"}


def test_forbidden_pairs_that_cannot_be_kept_apart_are_refused():
    with pytest.raises(PairingError) as caught:
        draw_qualifying_game(["A", "B"], game_number=1, seed=1, forbidden=[("A", "B")])
    assert caught.value.code == "forbidden_pairs"
    # C may play neither A nor B: C sits out although C had the bye already.
    s = draw_qualifying_game(
        list("ABC"), game_number=2, seed=1, byes={"C": 1}, forbidden=[("A", "C"), ("B", "C")]
    )
    assert s.bye == "C" and [c.kind for c in s.compromises] == ["second_bye"]


def test_a_hand_swap_is_checked_and_reports_what_it_breaks():
    seating = Seating(pairs=(("A", "B"), ("C", "D")), bye="E", method="draw")
    met = {pair_key("A", "D"): 1}
    swap = swap_seats(seating, "B", "D", met=met, byes={"A": 0})
    assert swap.seating.pairs == (("A", "D"), ("C", "B")) and swap.seating.method == "hand"
    assert [c.kind for c in swap.problems] == ["repeat"] and not swap.ok
    assert swap.seating.repeats == (("A", "D", 1),)
    swap = swap_seats(seating, "E", "A", byes={"A": 1, "E": 0}, forbidden=[("E", "B")])
    assert swap.seating.bye == "A" and swap.seating.pairs[0] == ("E", "B")
    assert sorted(c.kind for c in swap.problems) == ["forbidden", "second_bye"]
    assert swap_seats(seating, "A", "C").ok
    for a, b, code in (("A", "A", "same_player"), ("A", "Z", "not_seated")):
        with pytest.raises(PairingError) as caught:
            swap_seats(seating, a, b)
        assert caught.value.code == code


def test_check_seating_finds_missing_withdrawn_and_doubled_players():
    seating = Seating(pairs=(("A", "B"), ("C", "A")), bye=None, method="hand")
    problems = check_seating(seating, ["A", "B", "D"])
    assert sorted(c.kind for c in problems) == ["missing", "seated_twice", "unknown"]


def test_errors_keep_the_old_messages_and_are_value_errors():
    with pytest.raises(ValueError, match="listed twice") as caught:
        draw_qualifying_game(["A", "A"], game_number=1, seed=1)
    assert isinstance(caught.value, PairingError) and caught.value.code == "duplicate_player"
