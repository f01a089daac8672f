"""Pairing speed: qualifying seating and Swiss at game 10, against named baselines.

    python bench/pairing.py [--players 2000] [--games 10] [--peer-players 500] [--json]

Builds a field's history of ``games - 1`` games, then times game ``games`` in the same run:
- qualifying seating by the draw (the field changed, so the movement does not apply);
- Swiss on the sparse band (ours) against the dense candidate graph (baseline "dense");
- on ``--peer-players`` players, networkx ``max_weight_matching`` on the same dense weights
  (baseline "networkx"), with repeat counts.
- the PyPI peer ``cardarena-tournament-core`` (its ``Swiss``, a greedy pass over the points
  order, repeats only as a last resort): the same history replayed into it with
  ``Swiss.from_history``, then game ``games`` paired, on the full field (``cardarena``) and on
  ``--peer-players`` (``cardarena_small``). Skipped, with a line saying so, when not installed
  (``pip install cardarena-tournament-core==1.5.0``).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing import (
    draw_qualifying_game,
    pair_key,
    pair_swiss,
    swiss_weights,
)


def history(players: int, games: int, seed: int = 1):
    """A Swiss field after ``games`` games with random results.

    Returns the ranking, points, met, byes and every game as (pairs with the winner first, bye).
    """
    rng = random.Random(seed)
    field = list(range(players))
    points: Counter = Counter()
    met: Counter = Counter()
    byes: Counter = Counter()
    played = []
    for _ in range(games):
        ranking = sorted(field, key=lambda p: (-points[p], p))
        s = pair_swiss(ranking, score=points, met=met, byes=byes)
        pairs = []
        for a, b in s.pairs:
            met[pair_key(a, b)] += 1
            winner = rng.choice((a, b))
            points[winner] += rng.choice((2, 2, 3))
            pairs.append((winner, b if winner == a else a))
        if s.bye is not None:
            byes[s.bye] += 1
            points[s.bye] += 2
        played.append((pairs, s.bye))
    return sorted(field, key=lambda p: (-points[p], p)), points, met, byes, played


def cardarena_swiss(field: list[int], met: Counter, played: list) -> dict | None:
    """Pair the next game with cardarena-tournament-core's Swiss on the same history."""
    try:
        from cardarena_tournament_core import Matchup, MatchupOutcome, Round, Swiss
        from cardarena_tournament_core import Player as CPlayer
    except ImportError:
        return None
    people = {p: CPlayer(id=str(p), name=f"P{p}") for p in field}
    rounds = []
    for number, (pairs, bye) in enumerate(played, start=1):
        matchups = [
            Matchup(people[w], people[lost], MatchupOutcome.PLAYER1_WINS) for w, lost in pairs
        ]
        if bye is not None:
            matchups.append(Matchup(people[bye], None, MatchupOutcome.PLAYER1_WINS))
        rounds.append(Round(round_number=number, matchups=matchups))
    swiss = Swiss.from_history(list(people.values()), rounds, {str(p) for p in field})
    paired, seconds = timed(swiss.pair)
    repeats = sum(
        1
        for m in paired.matchups
        if m.player2 is not None and met[pair_key(int(m.player1.id), int(m.player2.id))]
    )
    return {"players": len(field), "seconds": seconds, "repeats": repeats}


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--peer-players", type=int, default=500)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    ranking, points, met, byes, played = history(args.players, args.games - 1)
    field = ranking[1:]  # one withdrawal: the draw, not the movement, seats game 10
    qual, qual_s = timed(
        lambda: draw_qualifying_game(field, game_number=args.games, seed=7, met=met, byes=byes)
    )
    swiss, swiss_s = timed(lambda: pair_swiss(ranking, score=points, met=met, byes=byes))

    peers = {}
    small = history(args.peer_players, args.games - 1)
    ours, ours_s = timed(lambda: pair_swiss(small[0], score=small[1], met=small[2], byes=small[3]))
    dense, dense_s = timed(
        lambda: pair_swiss(small[0], score=small[1], met=small[2], byes=small[3], band=10**9)
    )
    peers["ours_band"] = {
        "players": args.peer_players,
        "seconds": ours_s,
        "repeats": len(ours.repeats),
    }
    peers["dense"] = {
        "players": args.peer_players,
        "seconds": dense_s,
        "repeats": len(dense.repeats),
    }
    try:
        import networkx as nx

        weights = swiss_weights(small[0], score=small[1], met=small[2], byes=small[3])
        graph = nx.Graph()
        for (a, b), w in weights.items():
            graph.add_edge(a, ("bye",) if b is None else b, weight=w)
        matching, nx_s = timed(lambda: nx.max_weight_matching(graph, maxcardinality=True))
        repeats = sum(1 for a, b in matching if ("bye",) not in (a, b) and small[2][pair_key(a, b)])
        peers["networkx"] = {"players": args.peer_players, "seconds": nx_s, "repeats": repeats}
    except ImportError:
        pass
    for name, (field_, met_, played_) in {
        "cardarena": (ranking, met, played),
        "cardarena_small": (small[0], small[2], small[4]),
    }.items():
        row = cardarena_swiss(field_, met_, played_)
        if row is not None:
            peers[name] = row

    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    result = {
        "players": args.players,
        "qualifying_seconds": qual_s,
        "swiss_seconds": swiss_s,
        "repeats": len(qual.repeats) + len(swiss.repeats),
        "peak_mib": peak_mib,
        "peers": peers,
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.players} players, game {args.games}: peak {peak_mib:.0f} MiB")
    print(f"  qualifying draw  {qual_s:8.3f} s  repeats {len(qual.repeats)}")
    print(f"  swiss (band)     {swiss_s:8.3f} s  repeats {len(swiss.repeats)}")
    print("peers on the same field (ratio: their time / ours on as many players):")
    for name, row in peers.items():
        base = swiss_s if row["players"] == args.players else ours_s
        ratio = row["seconds"] / base if base else float("inf")
        print(
            f"  {name:16} {row['players']:5} players {row['seconds']:8.3f} s  "
            f"repeats {row['repeats']}  x{ratio:.2f} of ours"
        )
    if "cardarena" not in peers:
        print("  cardarena-tournament-core is not installed: not measured")


if __name__ == "__main__":
    main()
