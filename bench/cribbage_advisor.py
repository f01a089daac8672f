"""The discard advisor against plain enumeration with `score_hand`, in one run.

Both rank all 15 discards of 6-card deals exactly (2 players, uniform over the 46 unseen cards):
the advisor (`games.cribbage.advise_discard`: crib summed by rank multiset, flush and nobs in
closed form) and the straightforward count (`advise_by_enumeration`: `score_hand` on all 690
hand/starter pairs and all 683,100 crib cases). Results must agree exactly. Prints the
advisor's median time per deal (target < 100 ms on one core), the baseline's, and the ratio.
Usage: python bench/cribbage_advisor.py [--deals N] [--baseline-deals M] [--repeat R] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.cribbage import DECK, advise_discard
from games.cribbage.discard import advise_by_enumeration
from games.cribbage.hand import build_show_patterns
from games.cribbage.tables import base_points_table


def main() -> int:
    """Run both; exit status 1 when they disagree on any discard."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals timed for the advisor")
    parser.add_argument("--baseline-deals", type=int, default=3, help="deals for the baseline")
    parser.add_argument("--repeat", type=int, default=5, help="runs of the advisor per deal")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    deals = [rng.sample(DECK, 6) for _ in range(args.deals)]
    # One-time tables a server process pays once: reported apart.
    start = time.perf_counter()
    base_points_table()
    build_show_patterns()
    advise_discard(deals[0], dealer=True)
    warm = time.perf_counter() - start

    advisor_times = []
    for i, deal in enumerate(deals):
        runs = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            advise_discard(deal, dealer=i % 2 == 0)
            runs.append(time.perf_counter() - start)
        advisor_times.append(statistics.median(runs))

    baseline_times = []
    mismatches = 0
    for i, deal in enumerate(deals[: args.baseline_deals]):
        start = time.perf_counter()
        slow = advise_by_enumeration(deal, dealer=i % 2 == 0)
        baseline_times.append(time.perf_counter() - start)
        fast = advise_discard(deal, dealer=i % 2 == 0)
        for option in fast.options:
            other = slow.option_for(option.keep)
            if other is None or (option.hand_counts, option.crib_points, option.crib_cases) != (
                other.hand_counts,
                other.crib_points,
                other.crib_cases,
            ):
                mismatches += 1

    advisor_ms = statistics.median(advisor_times) * 1000
    baseline_ms = statistics.median(baseline_times) * 1000
    print(f"deals: {args.deals} for the advisor (median of {args.repeat} runs each),")
    print(f"       {args.baseline_deals} for the baseline (seed {args.seed}); 15 discards each")
    print(f"one-time tables (base points, show patterns, rank groups): {warm * 1000:.1f} ms")
    print(
        f"advisor, all 15 discards, exact: median {advisor_ms:.2f} ms/deal"
        f" (max {max(advisor_times) * 1000:.2f} ms; target < 100 ms: {advisor_ms / 100:.3f} of it)"
    )
    print(f"baseline, plain enumeration with score_hand: median {baseline_ms:.0f} ms/deal")
    print(f"ratio baseline / advisor: {baseline_ms / advisor_ms:,.0f}x")
    print(f"results: {'identical' if not mismatches else f'{mismatches} discards DIFFER'}")
    return 0 if not mismatches else 1


if __name__ == "__main__":
    sys.exit(main())
