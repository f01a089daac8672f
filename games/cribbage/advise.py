"""Command line of the discard advisor: `python -m games.cribbage.advise 5H 5D JS 6C 4H KD`.

Prints every discard best first (net, hand mean, min, max, chance of 12+, crib mean); `--json`
prints `DiscardAdvice.to_dict()`. Exit status 2 with the error code for bad input.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from .discard import AdviceError, advise_discard, format_advice


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m games.cribbage.advise 5H 5D JS 6C 4H KD [--dealer] [--players N]
    [--seen CARDS] [--json] [--top N]`."""
    import argparse
    import json

    parser = argparse.ArgumentParser(
        prog="python -m games.cribbage.advise",
        description="Rank every discard by expected points (uniform over unseen cards).",
    )
    parser.add_argument("cards", nargs="+", help="the cards dealt: 6 (2 players) or 5")
    parser.add_argument("--dealer", action="store_true", help="the crib is yours (or your side's)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--seen", default="", help="other cards out of play, e.g. '2C 9S'")
    parser.add_argument("--json", action="store_true", help="print the advice as JSON")
    parser.add_argument("--top", type=int, default=None, help="show only the best N discards")
    args = parser.parse_args(argv)
    try:
        advice = advise_discard(
            " ".join(args.cards), dealer=args.dealer, players=args.players, seen=args.seen
        )
    except AdviceError as exc:
        print(f"error [{exc.code}]: {exc.message}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(advice.to_dict(), ensure_ascii=False, indent=2))
    else:
        print("\n".join(format_advice(advice, args.top)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
