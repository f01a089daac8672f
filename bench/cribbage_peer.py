"""Our `score_hand` (public API, full breakdown) against the PyPI package `cribbage-scorer`.

Both score the same 100,000 random (hand, starter) deals, each in its own native input form
(our `Card` objects; the peer's (rank, suit) tuples), in one run. Totals must agree. Prints the
time per hand of each and the ratio. Usage: python bench/cribbage_peer.py [--hands N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.cribbage import DECK, score_hand
from games.cribbage.hand import build_show_patterns


def main() -> int:
    """Run the comparison; exit status 1 when a total disagrees."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
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
    text_deals = [[str(card) for card in deal] for deal in deals]

    # One-time table of which positions score for each of the 6,175 rank multisets; a server
    # process pays this once, so it is reported apart from the per-hand figure.
    start = time.perf_counter()
    patterns = build_show_patterns()
    warm_seconds = time.perf_counter() - start

    start = time.perf_counter()
    ours = []
    items = 0
    for deal in deals:
        score = score_hand(deal[:4], deal[4])
        ours.append(score.total)
        items += len(score.items)  # the breakdown is part of what is measured
    ours_seconds = time.perf_counter() - start

    start = time.perf_counter()
    ours_text = [score_hand(deal[:4], deal[4]).total for deal in text_deals]
    text_seconds = time.perf_counter() - start

    start = time.perf_counter()
    theirs = [peer.show_calc_score(deal[4], deal[:4])[0] for deal in peer_deals]
    peer_seconds = time.perf_counter() - start

    mismatches = [
        (deal, mine, their)
        for deal, mine, their in zip(deals, ours, theirs, strict=True)
        if mine != their
    ]
    mismatches += [
        (deal, a, b) for deal, a, b in zip(deals, ours_text, ours, strict=True) if a != b
    ]
    n = args.hands
    print(f"hands: {n:,} (seed {args.seed}), items listed by score_hand: {items:,}")
    print(
        f"show pattern table ({patterns:,} rank multisets, once per process): {warm_seconds:.3f} s"
    )
    print(f"score_hand (Card objects): {ours_seconds:.3f} s, {ours_seconds / n * 1e6:.2f} us/hand")
    print(f"score_hand (card strings): {text_seconds:.3f} s, {text_seconds / n * 1e6:.2f} us/hand")
    print(
        f"cribbage-scorer show_calc_score: {peer_seconds:.3f} s,"
        f" {peer_seconds / n * 1e6:.2f} us/hand"
    )
    print(f"ratio (peer / ours, Card objects): {peer_seconds / ours_seconds:.2f}x")
    print(f"ratio (peer / ours, card strings): {peer_seconds / text_seconds:.2f}x")
    print(f"totals agree: {n - len(mismatches):,} of {n:,}")
    for deal, mine, their in mismatches[:10]:
        print("  MISMATCH", " ".join(map(str, deal)), "ours", mine, "peer", their)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
