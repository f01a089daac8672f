"""Time `verify_game` on full 121-point game records (target: < 5 ms per game).

The records are legal random games from `simulate_game` (2, 3 and 4 players). The baseline
printed beside it is the same replay's cost of scoring every hand and pegging card alone
(score_hand + score_play for the record's events), measured in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.cribbage import score_hand, score_play, simulate_game, verify_game
from games.cribbage.hand import build_show_patterns


def _scoring_only(record: dict) -> int:
    """Score every hand, crib and pegging pile of a record without any checking."""
    total = 0
    for deal in record["deals"]:
        pile: list[str] = []
        count = 0
        for event in deal["play"]:
            card = event["card"]
            if card == "go":
                continue
            value = min(10, "A23456789TJQK".index(card[0] if card[:2] != "10" else "T") + 1)
            if count + value > 31:
                pile, count = [], 0
            pile.append(card)
            count += value
            total += score_play(pile).total
        for hand in deal["hands"]:
            total += score_hand(hand, deal["starter"]).total
        total += score_hand(deal["crib"], deal["starter"], crib=True).total
    return total


def main() -> int:
    """Time the replays and print per-game figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    build_show_patterns()
    status = 0
    for players in (2, 3, 4):
        records = [simulate_game(seed, players=players) for seed in range(args.games)]
        events = statistics.mean(
            sum(len(deal["play"]) + len(deal["show"]) for deal in record["deals"])
            for record in records
        )
        deals = statistics.mean(len(record["deals"]) for record in records)
        for record in records:
            report = verify_game(record)
            if not report.finished or report.problems:
                print("UNEXPECTED PROBLEMS", [p.to_dict() for p in report.problems])
                status = 1
        start = time.perf_counter()
        for _ in range(args.repeat):
            for record in records:
                verify_game(record)
        per_game = (time.perf_counter() - start) / (args.repeat * len(records))
        start = time.perf_counter()
        for _ in range(args.repeat):
            for record in records:
                _scoring_only(record)
        baseline = (time.perf_counter() - start) / (args.repeat * len(records))
        print(
            f"{players} players: {len(records)} games to 121, {deals:.1f} deals and"
            f" {events:.0f} recorded events per game"
        )
        print(f"  verify_game: {per_game * 1000:.2f} ms per game (target < 5 ms)")
        print(
            f"  baseline, scoring alone: {baseline * 1000:.2f} ms per game;"
            f" verify_game / baseline = {per_game / baseline:.2f}x"
        )
    return status


if __name__ == "__main__":
    sys.exit(main())
