"""Whole-game records: replay a game deal by deal and check every card and every claim.

The record format is documented in README.md beside this file; `GAME_RECORD_SCHEMA` (in
`schema.py`) is its JSON Schema. `verify_game` never raises for bad input: every fault becomes a
`Problem` naming the deal and the event.

The replay is split by concern: `game_report` (the report and problem types, re-exported here),
`game_state` (the running scoreboard), `game_deal` (a deal's cards), `game_play` (the pegging)
and `game_show` (the show). This module walks the deals and checks the declared result.
"""

from __future__ import annotations

from typing import Any

from .cards import JACK
from .game_deal import DEALT_SIZE as DEALT_SIZE
from .game_deal import HAND_SIZE as HAND_SIZE
from .game_deal import as_claim, as_index, setup_deal
from .game_play import replay_play
from .game_report import PROBLEM_CODES as PROBLEM_CODES
from .game_report import GameEvent as GameEvent
from .game_report import GameReport as GameReport
from .game_report import Loser as Loser
from .game_report import Problem as Problem
from .game_show import replay_show
from .game_state import GameOver, Replay
from .multi import deal_shape
from .rules import TARGETS, skunk_level
from .scoring import ScoreItem


def _replay(state: Replay, deals: list[Any]) -> None:
    n = state.n
    previous_dealer: int | None = None
    for d, deal in enumerate(deals):
        if not isinstance(deal, dict):
            state.problem("malformed", "a deal must be an object", d, "deals")
            continue
        dealer = as_index(deal.get("dealer"), n)
        if dealer is None:
            state.problem("malformed", f"dealer must be a player index 0..{n - 1}", d, "deals")
            continue
        if previous_dealer is not None and dealer != (previous_dealer + 1) % n:
            state.problem(
                "wrong_dealer",
                f"the deal passes to the left: expected player"
                f" {(previous_dealer + 1) % n} to deal, not {dealer}",
                d,
                "deals",
                params={"expected": (previous_dealer + 1) % n, "dealer": dealer},
            )
        previous_dealer = dealer
        setup = setup_deal(state, d, deal)
        if setup is None:
            continue
        hands, crib, starter = setup
        heels_claim = as_claim(deal.get("heels"))
        if heels_claim is False:
            state.problem("malformed", "heels must be the points claimed (>= 0)", d, "starter")
            heels_claim = None
        try:
            if starter.rank == JACK or heels_claim:
                assert heels_claim is not False
                items = (ScoreItem("his heels", (starter,), 2),) if starter.rank == JACK else ()
                state.score_event(
                    d, "starter", 0, dealer, "heels", 2 if items else 0, heels_claim, items
                )
            replay_play(state, d, dealer, deal.get("play"), hands)
            replay_show(state, d, dealer, deal.get("show"), hands, crib, starter)
        except GameOver:
            if state.after is None and state.ended_at is not None:
                # ended before the show began: the first recorded play or count is left over
                phase = state.ended_at["phase"]
                plays, shows = deal.get("play"), deal.get("show")
                if phase == "starter" and isinstance(plays, list) and plays:
                    state.after = ("play", 0)
                elif phase != "show" and isinstance(shows, list) and shows:
                    state.after = ("show", 0)
            if state.after is not None:
                state.problem(
                    "after_game_end",
                    "the game ended when the target was reached;"
                    f" the record goes on ({state.after[0]} event {state.after[1]})"
                    " and that is not scored",
                    d,
                    *state.after,
                )
            elif d + 1 < len(deals):
                state.problem(
                    "after_game_end",
                    "the game ended when the target was reached; the later deals are not scored",
                    d + 1,
                    "deals",
                )
            return


def verify_game(record: Any) -> GameReport:
    """Replay a whole-game record and check every card, turn and claim.

    Never raises for malformed input: faults are listed in `GameReport.problems`, each naming
    the deal and the event. See README.md beside this module for the record format.
    """
    problems: list[Problem] = []

    def fail(message: str, code: str = "malformed") -> GameReport:
        problems.append(Problem(code, message))
        return GameReport(
            players=(),
            sides=(),
            target=0,
            muggins=False,
            scores=(),
            finished=False,
            winner=None,
            ended_at=None,
            losers=(),
            events=(),
            problems=tuple(problems),
        )

    if not isinstance(record, dict):
        return fail("the record must be a JSON object")
    players = record.get("players")
    if (
        not isinstance(players, list)
        or not 2 <= len(players) <= 4
        or not all(isinstance(name, str) for name in players)
    ):
        return fail("players must list 2, 3 or 4 names in seating order")
    target = record.get("target", 121)
    if target not in TARGETS or isinstance(target, bool):
        return fail(f"target must be one of {', '.join(map(str, TARGETS))}")
    muggins = record.get("muggins", False)
    if not isinstance(muggins, bool):
        return fail("muggins must be true or false")
    deals = record.get("deals")
    if not isinstance(deals, list):
        return fail("deals must be a list")
    n = len(players)
    shape = deal_shape(n)  # the sides: partners (0, 2) and (1, 3) with four players
    sides = shape.sides
    state = Replay(
        n=n, side_of=shape.side_of, target=target, muggins=muggins, scores=[0] * len(sides)
    )
    try:
        _replay(state, deals)
    except Exception as exc:
        state.problem(
            "internal_error",
            f"{type(exc).__name__}: {exc}",
            params={"error": f"{type(exc).__name__}: {exc}"},
        )
    losers: tuple[Loser, ...] = ()
    if state.winner is None:
        state.problem("game_unfinished", f"no side reached {target}", params={"target": target})
    else:
        losers = tuple(
            Loser(side, state.scores[side], skunk_level(target, state.scores[side]))
            for side in range(len(sides))
            if side != state.winner
        )
    _check_result(state, record.get("result"), sides, losers)
    return GameReport(
        players=tuple(players),
        sides=sides,
        target=target,
        muggins=muggins,
        scores=tuple(state.scores),
        finished=state.winner is not None,
        winner=state.winner,
        ended_at=state.ended_at,
        losers=losers,
        events=tuple(state.events),
        problems=tuple(state.problems),
    )


def _check_result(
    state: Replay, result: Any, sides: tuple[tuple[int, ...], ...], losers: tuple[Loser, ...]
) -> None:
    """Compare an optional declared result {winner: player index, loser_score, scores: one per
    side} with the replay."""
    if result is None:
        return
    if not isinstance(result, dict):
        state.problem("malformed", "result must be an object", phase="result")
        return
    winner = as_index(result.get("winner"), state.n)
    if "winner" in result and winner is None:
        state.problem("malformed", "result.winner must be a player index", phase="result")
    elif winner is not None and state.side_of[winner] != state.winner:
        state.problem(
            "result_mismatch",
            f"declared winner is player {winner}, the replay's winning side is {state.winner}",
            phase="result",
            params={"claimed": winner, "actual": state.winner},
        )
    loser_score = result.get("loser_score")
    if loser_score is not None:
        best = max((loser.score for loser in losers), default=None)
        if loser_score != best:
            state.problem(
                "result_mismatch",
                f"declared loser score {loser_score!r}, replayed {best}",
                phase="result",
                params={"claimed": loser_score, "actual": best},
            )
    if "scores" in result:
        _check_declared_scores(state, result["scores"], len(sides))


def _check_declared_scores(state: Replay, scores: Any, sides: int) -> None:
    """The declared final scores, one per side (3 with three players), against the replay."""
    if (
        not isinstance(scores, list)
        or len(scores) != sides
        or not all(type(score) is int and score >= 0 for score in scores)
    ):
        state.problem(
            "malformed",
            f"result.scores must list {sides} scores (whole numbers), one per side",
            phase="result",
        )
        return
    if scores != state.scores:
        claimed = ", ".join(map(str, scores))
        actual = ", ".join(map(str, state.scores))
        state.problem(
            "result_mismatch",
            f"declared scores {claimed}, replayed {actual}",
            phase="result",
            params={"claimed": claimed, "actual": actual},
        )
