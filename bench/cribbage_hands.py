"""Score all 12,994,800 (4-card hand, starter) combinations with hand rules and crib rules.

Prints the count for every score 0..29 in both tables, the mean, the time and the peak memory;
with --json prints one JSON object {"hand": {"0": n, ...}, "crib": {...}, "seconds": s}.
Uses the engine's table-driven path (`games.cribbage.score_tables`), which the tests prove equal
to `score_hand`. Target: <= 10 s for both tables together on the 2-core machine, < 1 GiB.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.cribbage import score_tables

PUBLISHED = {"0": 1_009_008, "28": 76, "29": 4, "19": 0, "25": 0, "26": 0, "27": 0}
"""Published figures for the hand table, checked on every run."""


def main() -> int:
    """Build both tables and print them; exit status 1 when the published figures differ."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    start = time.perf_counter()
    hand, crib = score_tables()
    seconds = time.perf_counter() - start
    # ru_maxrss is in KiB on Linux
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    hand_table = {str(score): count for score, count in enumerate(hand)}
    crib_table = {str(score): count for score, count in enumerate(crib)}
    ok = all(hand_table[score] == count for score, count in PUBLISHED.items())
    if args.json:
        print(json.dumps({"hand": hand_table, "crib": crib_table, "seconds": round(seconds, 3)}))
        return 0 if ok else 1

    print(f"{'score':>5} {'hand':>10} {'crib':>10}")
    for score in range(30):
        print(f"{score:>5} {hand[score]:>10,} {crib[score]:>10,}")
    for name, table in (("hand", hand), ("crib", crib)):
        total = sum(table)
        mean = sum(score * count for score, count in enumerate(table)) / total
        print(f"{name}: {total:,} combinations, mean {mean:.4f}")
    print(
        f"published hand figures (0: 1,009,008; 28: 76; 29: 4; none of 19 25 26 27):"
        f" {'match' if ok else 'DIFFER'}"
    )
    print(f"time, both tables: {seconds:.2f} s (target <= 10 s: {seconds / 10:.2f} of it)")
    print(f"peak memory (max RSS): {peak_mib:.1f} MiB (target < 1024 MiB)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
