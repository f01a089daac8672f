"""What a player needs to make the cut (scoring.cut_line): hand-made cases, and its verdicts
checked against a brute-force enumerator of every completion of the games left on small
fields (the completions the function considers: each game a loss or a win of any value)."""

from __future__ import annotations

import itertools
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cut_line import (
    Line,
    MatchPoints,
    Need,
    Verdict,
    exact_keys,
    tiebreak_after,
    what_it_takes,
)

ACC = MatchPoints(win=2, skunk=3, double_skunk=3, triple_skunk=3, forfeit=2, bye=2)
FREE_PLAY = MatchPoints(win=1, skunk=2, double_skunk=3, triple_skunk=3, forfeit=1, bye=1)
CHAIN = ("game_points", "games_won", "spread")


def line(entry, points, won, left, name=""):
    return Line(entry, points, won, left, name or f"P{entry}")


def verdict(lines, cut, entry, points=ACC, chain=CHAIN) -> Verdict:
    return what_it_takes(lines, cut=cut, points=points, chain=chain)[entry]


# --- Hand-made cases --------------------------------------------------------------------------


def test_a_clear_leader_is_in_whatever_happens():
    lines = [line(1, 16, 8, 1), line(2, 10, 5, 1), line(3, 10, 5, 1), line(4, 8, 4, 1)]
    assert verdict(lines, 2, 1).need == Need.IN


def test_a_win_puts_you_in():
    # Cut of 2. Ann 12/6 can be caught by Bob (10 -> 13 with a skunk) and Cal (10 -> 13); with a
    # win Ann has 14: nobody else can reach 14.
    lines = [line(1, 12, 6, 1), line(2, 10, 5, 1), line(3, 10, 5, 1), line(4, 4, 2, 1)]
    got = verdict(lines, 2, 1)
    assert got == Verdict(Need.WINS, games_left=1, wins=1)


def test_you_need_a_win_and_a_skunk():
    # Free play (1 / 2 / 3), one game left, a cut of 3: Ann 10/8, Bob 8/7, Dan 6/6, Gus 5/5.
    lines = [
        line(1, 10, 8, 1),
        line(2, 8, 7, 1),
        line(3, 6, 6, 1),
        line(4, 5, 5, 1),
    ]
    # A plain win gives Dan 7/7, and Gus can reach 8/6 with a double skunk: ahead on game
    # points. A skunk win gives Dan 8/7: Gus's best (8/6) is behind on games won, and only
    # Ann and Bob can be ahead: Dan is third at worst.
    got = verdict(lines, 3, 3, points=FREE_PLAY)
    assert got.need == Need.SKUNKS and got.wins == 1 and got.skunk_level == 1


def test_out_of_reach():
    lines = [line(1, 16, 8, 1), line(2, 14, 7, 1), line(3, 4, 2, 1)]
    assert verdict(lines, 2, 3).need == Need.OUT


def test_finishing_level_comes_down_to_spread():
    # Cut of 1 (two players, a final game each, not against each other): Ann 10/5, Bob 8/4.
    # A win gives Ann 12/6; Bob's best is 11/5: Ann is in for sure with a win. With a loss
    # Ann stays 10/5: Bob can pass. So: a win puts Ann in.
    lines = [line(1, 10, 5, 1, "Ann"), line(2, 8, 4, 1, "Bob")]
    assert verdict(lines, 1, 1) == Verdict(Need.WINS, 1, 1)
    # Level on game points and games won is the chain's next key: Bob 9/5 can finish 12/6
    # (a skunk) where Ann's win takes her: level, it comes down to spread.
    lines = [line(1, 10, 5, 1, "Ann"), line(2, 9, 5, 1, "Bob")]
    got = verdict(lines, 1, 1)
    assert got.need == Need.SKUNKS  # a skunk win (13/6) passes Bob's best
    # Level with Bob whatever Ann does: even a skunk win only puts her level.
    lines = [line(1, 10, 5, 1, "Ann"), line(2, 10, 5, 1, "Bob")]
    got = verdict(lines, 1, 1)
    assert got == Verdict(Need.TIEBREAK, 1, 1, 1, ("Bob",), 0, "spread")
    # Ranked by games won, then spread: Bob has played his last game, 6 wins; a win puts
    # Ann level with him, and it comes down to spread.
    lines = [line(1, 10, 5, 1, "Ann"), line(2, 12, 6, 0, "Bob"), line(3, 2, 1, 1, "Cy")]
    got = verdict(lines, 2, 1, chain=("games_won", "spread"))
    assert got == Verdict(Need.IN, 1)
    got = verdict(lines, 1, 1, chain=("games_won", "spread"))
    assert got == Verdict(Need.TIEBREAK, 1, 1, 0, ("Bob",), 0, "spread")


def test_nothing_is_said_for_a_chain_that_starts_elsewhere():
    lines = [line(1, 10, 5, 1), line(2, 8, 4, 1)]
    assert what_it_takes(lines, cut=1, points=ACC, chain=("spread", "game_points")) == {}
    assert exact_keys(("games_won", "game_points", "spread")) == ("games_won", "game_points")
    assert tiebreak_after(("game_points",)) == ""


def test_a_thousand_players_are_answered_at_once():
    lines = [line(i, (i * 7) % 23, (i * 7) % 23 // 2, 2) for i in range(999)]
    lines.append(line(999, 40, 20, 2))  # far ahead
    got = what_it_takes(lines, cut=250, points=ACC, chain=CHAIN)
    assert len(got) == 1000
    assert got[999].need == Need.IN
    assert {v.need for v in got.values()} == set(Need)  # every verdict, in 0.1 s here


# --- Against every completion -----------------------------------------------------------------


def outcomes(points: MatchPoints) -> tuple[tuple[int, int], ...]:
    """What one game can give: (game points, wins)."""
    return ((0, 0), *((v, 1) for v in points.win_values))


@cache
def finishes(gp: int, gw: int, left: int, points: MatchPoints) -> tuple[tuple[int, int, int], ...]:
    """Every (game points, games won, lowest single win value) a player can finish on; the
    lowest win value lets a check pick the completions where a player's wins are skunks."""
    out = set()
    for combo in itertools.combinations_with_replacement(outcomes(points), left):
        wins = [p for p, w in combo if w]
        out.add((gp + sum(p for p, _ in combo), gw + len(wins), min(wins, default=99)))
    return tuple(sorted(out))


def completions(lines, points):
    return itertools.product(
        *(finishes(x.game_points, x.games_won, x.games_left, points) for x in lines)
    )


def rank_range(finals, i, keys):
    """(best, worst) place of player ``i``: winning or losing every tie."""

    def key(f):
        return tuple(f[0] if k == "game_points" else f[1] for k in keys)

    me = key(finals[i])
    others = [key(f) for j, f in enumerate(finals) if j != i]
    return 1 + sum(o > me for o in others), 1 + sum(o >= me for o in others)


def check(lines, cut, points, chain):
    keys = exact_keys(chain)
    got = what_it_takes(lines, cut=cut, points=points, chain=chain)
    for i, me in enumerate(lines):
        v = got[me.entry]
        start = (me.game_points, me.games_won)
        always_in = possible = True
        in_with_wins: dict[int, bool] = {}
        ever_in = False
        for finals in completions(lines, points):
            best, worst = rank_range(finals, i, keys)
            wins = finals[i][1] - start[1]
            if worst > cut:
                always_in = False
            if best <= cut:
                ever_in = True
            for n in range(wins + 1):  # these completions give at least n wins
                in_with_wins.setdefault(n, True)
                if worst > cut:
                    in_with_wins[n] = False
        possible = ever_in
        if v.need == Need.IN:
            assert always_in, (lines, cut, me, v)
        else:
            assert not always_in, (lines, cut, me, v)
        if v.need == Need.OUT:
            assert not possible, (lines, cut, me, v)
        else:
            assert possible, (lines, cut, me, v)
        if v.need == Need.WINS:
            assert in_with_wins[v.wins], (lines, cut, me, v)
            assert not in_with_wins[v.wins - 1]
        if v.need == Need.SKUNKS:
            value = points.by_level[v.skunk_level]
            assert not any(in_with_wins.get(n, False) for n in range(v.wins + 1))
            for finals in completions(lines, points):
                wins = finals[i][1] - start[1]
                if wins >= v.wins and finals[i][2] >= value:  # every win at least that skunk
                    assert rank_range(finals, i, keys)[1] <= cut, (lines, cut, me, v)
        if v.need == Need.TIEBREAK:
            value = points.by_level[v.skunk_level] if v.skunk_level else 0
            assert not in_with_wins[v.wins], (lines, cut, me, v)
            for finals in completions(lines, points):
                wins = finals[i][1] - start[1]
                if wins >= v.wins and (not v.skunk_level or finals[i][2] >= value):
                    assert rank_range(finals, i, keys)[0] <= cut, (lines, cut, me, v)
            assert v.level_with


@settings(max_examples=60)
@given(
    st.lists(st.tuples(st.integers(0, 8), st.integers(0, 2)), min_size=2, max_size=4),
    st.integers(1, 3),
    st.sampled_from([ACC, FREE_PLAY]),
    st.sampled_from([CHAIN, ("games_won", "game_points", "spread"), ("game_points",)]),
    st.integers(1, 2),
)
def test_every_verdict_holds_in_every_completion(standing, cut, points, chain, left):
    lines = [
        line(i, gp, min(gw, gp // max(points.win, 1)) if gp else 0, left)
        for i, (gp, gw) in enumerate(standing)
    ]
    check(lines, min(cut, len(lines)), points, chain)


@settings(max_examples=30)
@given(st.lists(st.integers(0, 6), min_size=3, max_size=4), st.lists(st.integers(0, 2), min_size=4))
def test_players_with_different_games_left(points_list, left_list):
    lines = [
        line(i, gp, gp // 2, left_list[i % len(left_list)]) for i, gp in enumerate(points_list)
    ]
    check(lines, 2, ACC, CHAIN)
