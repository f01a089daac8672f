"""Our `score_hand` (public API, full breakdown) against the PyPI package `cribbage-scorer`.

Both score the same random (hand, starter) deals (30,000 by default) in one process: ours from
`Card` objects and from card strings in several spellings (canonical `10H`, `TH`, lower case with
stray spaces, one space-separated string per hand), the peer from its own (rank, suit) tuples.
Totals must agree.

The machine is shared, so the figures are made to survive load: the time is this process's CPU
time (time spent waiting for a core is not counted), and within a round the forms take turns
chunk by chunk (500 deals each, each form first in turn), so that a burst of load lands on
every form alike. Each ratio
(peer time / our time) is taken within one round; the median over the rounds is printed with its
spread (min..max).
Usage: python bench/cribbage_peer.py [--hands N] [--rounds R] [--seed S]
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.cribbage import DECK, score_hand
from games.cribbage.hand import build_show_patterns

TARGET = 5.0
"""Wanted: the peer takes at least this many times as long as ours on card strings."""


def _spellings(deals: list[list]) -> dict[str, list]:
    """Each deal as (hand, starter) in every input form that is timed."""
    canonical = [[str(card) for card in deal] for deal in deals]
    tee = [[text.replace("10", "T") for text in deal] for deal in canonical]
    # lower case with spaces around, as a phone keyboard or a pasted list gives them
    loose = [[f" {text.lower()} " for text in deal] for deal in tee]
    return {
        "Card objects": [(deal[:4], deal[4]) for deal in deals],
        "strings 10H": [(deal[:4], deal[4]) for deal in canonical],
        "strings TH": [(deal[:4], deal[4]) for deal in tee],
        "strings ' th '": [(deal[:4], deal[4]) for deal in loose],
        "one string '5H 10D ...'": [(" ".join(deal[:4]), deal[4]) for deal in canonical],
    }


CHUNK = 500
"""Deals per turn: small enough that the forms alternate several times a second."""


def _timed(work: Callable[[int, int], list[int]], begin: int, end: int) -> tuple[float, list[int]]:
    start = time.process_time()
    result = work(begin, end)
    return time.process_time() - start, result


def main() -> int:
    """Run the comparison; exit status 1 when a total disagrees."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    try:
        from cribbage_scorer import cribbage_scorer as peer
    except ImportError:
        print("cribbage-scorer is not installed: pip install cribbage-scorer", file=sys.stderr)
        return 2

    rng = random.Random(args.seed)
    deals = [rng.sample(DECK, 5) for _ in range(args.hands)]
    # The peer's own input form: ranks 1..13 (11 = jack) and suit letters.
    peer_deals = [[(card.rank, card.suit) for card in deal] for deal in deals]
    forms = _spellings(deals)

    # One-time table of which positions score for each of the 6,175 rank multisets; a server
    # process pays this once, so it is reported apart from the per-hand figure.
    start = time.perf_counter()
    patterns = build_show_patterns()
    warm_seconds = time.perf_counter() - start

    def ours(inputs: list) -> Callable[[int, int], list[int]]:
        def work(begin: int, end: int) -> list[int]:
            totals = []
            for hand, starter in inputs[begin:end]:
                score = score_hand(hand, starter)
                totals.append(score.total)
                len(score.items)  # the breakdown is part of what is measured
            return totals

        return work

    def theirs(begin: int, end: int) -> list[int]:
        return [peer.show_calc_score(deal[4], deal[:4])[0] for deal in peer_deals[begin:end]]

    works = {"peer": theirs} | {name: ours(inputs) for name, inputs in forms.items()}

    seconds: dict[str, list[float]] = {name: [] for name in ["peer", *forms]}
    ratios: dict[str, list[float]] = {name: [] for name in forms}
    totals: dict[str, list[int]] = {}
    for _ in range(args.rounds):
        spent = dict.fromkeys(works, 0.0)
        totals = {name: [] for name in works}
        gc.collect()
        names = list(works)
        for turn, begin in enumerate(range(0, args.hands, CHUNK)):
            # Each form goes first in turn: the one after the peer finds the caches cold.
            for name in names[turn % len(names) :] + names[: turn % len(names)]:
                elapsed, chunk_totals = _timed(works[name], begin, begin + CHUNK)
                spent[name] += elapsed
                totals[name] += chunk_totals
        for name, elapsed in spent.items():
            seconds[name].append(elapsed)
            if name != "peer":
                ratios[name].append(spent["peer"] / elapsed)

    n = args.hands
    mismatches = [
        (name, deal, mine, their)
        for name in forms
        for deal, mine, their in zip(deals, totals[name], totals["peer"], strict=True)
        if mine != their
    ]
    print(f"hands: {n:,} (seed {args.seed}), rounds: {args.rounds}, medians with min..max")
    print(
        f"show pattern table ({patterns:,} rank multisets, once per process): {warm_seconds:.3f} s"
    )
    print(f"{'form':<26} {'us/hand':>8} {'peer / ours':>12} {'min..max':>14}")
    per_hand = statistics.median(seconds["peer"]) / n * 1e6
    print(f"{'cribbage-scorer (tuples)':<26} {per_hand:>8.2f}")
    for name in forms:
        per_hand = statistics.median(seconds[name]) / n * 1e6
        low, high = min(ratios[name]), max(ratios[name])
        median = statistics.median(ratios[name])
        print(f"{name:<26} {per_hand:>8.2f} {median:>11.2f}x {low:>6.2f}..{high:.2f}x")
    strings = [name for name in forms if name != "Card objects"]
    worst = min(statistics.median(ratios[name]) for name in strings)
    print(
        f"card strings, lowest median: {worst:.2f}x"
        f" (target >= {TARGET:g}x: {'met' if worst >= TARGET else 'NOT met'});"
        f" lowest single round: {min(min(ratios[name]) for name in strings):.2f}x"
    )
    print(f"totals agree: {len(forms) * n - len(mismatches):,} of {len(forms) * n:,}")
    for name, deal, mine, their in mismatches[:10]:
        print("  MISMATCH", name, " ".join(map(str, deal)), "ours", mine, "peer", their)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
