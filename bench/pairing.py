"""Pairing speed and quality: Swiss against its PyPI peer and its own exact matching, and the
qualifying draw as the service calls it.

    python bench/pairing.py [--players 2000] [--rounds 10] [--runs 5] [--json]

All times are CPU seconds (``time.process_time``) of the pairing call alone, as medians over
``--runs`` events with the spread (min-max); every ratio compares engines measured in this run.
Results are random (each table a coin toss, 2 game points to the winner, 2 for a bye: no skunks,
so the peer, which knows wins only, ranks on the same standings as we do).

1. Swiss at ``--players`` over ``--rounds`` rounds. Engines, each playing its own event with the
   same seed: ``ours`` (``pair_swiss``: greedy pass with exact repairs), the PyPI peer
   ``cardarena-tournament-core`` (its ``Swiss``: greedy over the points order, a repeat when
   stuck), and on ours' own standings ``exact`` (``pair_swiss`` with ``exact_up_to`` past the
   field: the maximum-weight matching that was the only path before). Quality: repeats,
   second byes (a bye to someone with more byes than another active player), mean game-point
   gap of the pairs, and ours against exact on the same standings (rules 1-5 of the
   ``pair_swiss`` docstring equal in how many rounds; rule 6, the ranking distance, in %).
2. Growth: ours at ``--sizes`` (``--growth-runs`` events each), the peer at the sizes up to
   ``--peer-max`` (one event each: it grows as n^2, 20,000 players would take 40 s more), over
   ``--rounds`` rounds; the exponent k of time ~ n^k fitted by least squares. ``exact`` on one
   round (the last of ours' event) at ``--exact-sizes``: it grows too fast to time further.
3. Small fields: ``--small`` players and one more (an odd field: byes), ``--small-seeds`` events
   of ``--rounds`` rounds each: repeats and second byes of ours (the exact path at this size),
   ours forced onto the fast path (``exact_up_to=0``), and the peer.
4. Qualifying: ``draw_qualifying_game`` as ``tournaments/services.py`` calls it, reseeded every
   game (``seed = (event_seed * 1_000_003 + number) % 2**31``) with the starting field given, on
   ``--players`` over ``--qualifying-games`` games and on a small field for n - 1 games; beside
   it the same event with one seed for every game (the movement the docstring describes). Which
   path seated each game (movement or draw), time, repeats.

``cardarena-tournament-core`` is in the ``bench`` extra (``pip install -e '.[dev,bench]'``); without
it the peer lines say so and are skipped.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing import Seating, draw_qualifying_game, pair_key, pair_swiss

try:
    import cardarena_tournament_core as cardarena
except ImportError:  # the bench extra is not installed
    cardarena = None

EVENT_SEED = 20_261_124

# An engine pairs the next round: (ranking, points, met, byes) -> (pairs, bye).
Pairs = list[tuple[Hashable, Hashable]]
Engine = Callable[[list[int], Counter, Counter, Counter], tuple[Pairs, Any]]


def ours(ranking: list[int], points: Counter, met: Counter, byes: Counter):
    s = pair_swiss(ranking, score=points, met=met, byes=byes)
    return list(s.pairs), s.bye


def ours_fast(ranking: list[int], points: Counter, met: Counter, byes: Counter):
    s = pair_swiss(ranking, score=points, met=met, byes=byes, exact_up_to=0)
    return list(s.pairs), s.bye


def exact(ranking: list[int], points: Counter, met: Counter, byes: Counter) -> Seating:
    return pair_swiss(ranking, score=points, met=met, byes=byes, exact_up_to=10**9)


class Peer:
    """cardarena-tournament-core's Swiss, fed the same results as we record them."""

    def __init__(self, players: int) -> None:
        self.people = {p: cardarena.Player(id=str(p), name=f"P{p}") for p in range(players)}
        self.swiss = cardarena.Swiss(
            list(self.people.values()), win_points=2, draw_points=1, bye_points=2
        )

    def pair(self) -> tuple[Pairs, Any]:
        paired = self.swiss.pair()
        pairs = [(int(m.player1.id), int(m.player2.id)) for m in paired.matchups if m.player2]
        bye = [int(m.player1.id) for m in paired.matchups if m.player2 is None]
        return pairs, (bye[0] if bye else None)

    def record(self, number: int, pairs: Pairs, winners: list[Hashable], bye: Any) -> None:
        outcome = cardarena.MatchupOutcome
        matchups = [
            cardarena.Matchup(
                self.people[a],
                self.people[b],
                outcome.PLAYER1_WINS if w == a else outcome.PLAYER2_WINS,
            )
            for (a, b), w in zip(pairs, winners, strict=True)
        ]
        if bye is not None:
            matchups.append(cardarena.Matchup(self.people[bye], None, outcome.PLAYER1_WINS))
        self.swiss.submit_results(cardarena.Round(round_number=number, matchups=matchups))


def play(engine: str, players: int, rounds: int, seed: int, *, shadow: bool = False) -> dict:
    """One Swiss event of ``rounds`` rounds paired by ``engine``; times and quality.

    ``shadow``: also pair every round's standings with the exact matching (timed) and compare.
    """
    rng = random.Random(seed)
    field = list(range(players))
    points: Counter = Counter()
    met: Counter = Counter()
    byes: Counter = Counter()
    peer = Peer(players) if engine == "cardarena" else None
    pairing: Engine = {"ours": ours, "ours_fast": ours_fast}.get(engine, ours)
    out: dict[str, Any] = {"seconds": [], "repeats": 0, "second_byes": 0, "gaps": []}
    if shadow:
        out |= {"exact_seconds": [], "rules_1_5_equal": 0, "distance": [0, 0]}
    for number in range(1, rounds + 1):
        ranking = sorted(field, key=lambda p: (-points[p], p))
        start = time.process_time()
        pairs, bye = peer.pair() if peer else pairing(ranking, points, met, byes)
        out["seconds"].append(time.process_time() - start)
        if shadow:
            start = time.process_time()
            best = exact(ranking, points, met, byes)
            out["exact_seconds"].append(time.process_time() - start)
            mine, theirs = (
                rule_costs(pairs, bye, ranking, points, met, byes),
                rule_costs(list(best.pairs), best.bye, ranking, points, met, byes),
            )
            out["rules_1_5_equal"] += mine[:5] == theirs[:5]
            out["distance"][0] += mine[5]
            out["distance"][1] += theirs[5]
        fewest = min(byes[p] for p in field)
        out["repeats"] += sum(1 for a, b in pairs if met[pair_key(a, b)])
        out["gaps"] += [abs(points[a] - points[b]) for a, b in pairs]
        winners = [a if rng.random() < 0.5 else b for a, b in pairs]
        for (a, b), w in zip(pairs, winners, strict=True):
            met[pair_key(a, b)] += 1
            points[w] += 2
        if bye is not None:
            out["second_byes"] += byes[bye] > fewest
            byes[bye] += 1
            points[bye] += 2
        if peer:
            peer.record(number, pairs, winners, bye)
    out["ranking"], out["points"], out["met"], out["byes"] = ranking, points, met, byes
    return out


def rule_costs(pairs, bye, ranking, points, met, byes) -> list[int]:
    """The six rules of the pair_swiss docstring as totals (lower is better)."""
    place = {p: i for i, p in enumerate(ranking)}
    group = {v: g for g, v in enumerate(sorted({points[p] for p in ranking}, reverse=True))}
    costs = [0] * 6
    for a, b in pairs:
        times = met[pair_key(a, b)]
        costs[1] += times * times
        costs[2] += times
        costs[4] += (group[points[a]] - group[points[b]]) ** 2
        costs[5] += abs(place[a] - place[b])
    if bye is not None:
        costs[0] += byes[bye] - min(byes[p] for p in ranking)
        costs[3] += len(ranking) - 1 - place[bye]
    return costs


def per_round(event: dict, key: str = "seconds") -> float:
    return statistics.fmean(event[key])


def spread(values: list[float]) -> dict:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def exponent(sizes: list[int], seconds: list[float]) -> float:
    """k in time ~ n^k, least squares on the logs (nan below two sizes)."""
    if len(set(sizes)) < 2:
        return math.nan
    xs, ys = [math.log(n) for n in sizes], [math.log(s) for s in seconds]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


def swiss_head_to_head(args) -> dict:
    engines = ["ours", "cardarena"] if cardarena else ["ours"]
    runs: dict[str, list[dict]] = {e: [] for e in engines}
    for run in range(args.runs):
        for engine in engines:
            shadow = engine == "ours" and run < args.exact_runs
            runs[engine].append(play(engine, args.players, args.rounds, run, shadow=shadow))
    result: dict[str, Any] = {"players": args.players, "rounds": args.rounds, "runs": args.runs}
    for engine, events in runs.items():
        result[engine] = {
            "seconds_per_round": spread([per_round(e) for e in events]),
            "repeats": sum(e["repeats"] for e in events),
            "second_byes": sum(e["second_byes"] for e in events),
            "mean_gap": statistics.fmean(g for e in events for g in e["gaps"]),
        }
    shadowed = [e for e in runs["ours"] if "exact_seconds" in e]
    if shadowed:
        result["exact"] = {
            "runs": len(shadowed),
            "seconds_per_round": spread([per_round(e, "exact_seconds") for e in shadowed]),
            "ours_over_exact": spread(
                [per_round(e) / per_round(e, "exact_seconds") for e in shadowed]
            ),
            "rounds_rules_1_5_equal": sum(e["rules_1_5_equal"] for e in shadowed),
            "rounds": args.rounds * len(shadowed),
            "distance_excess_pct": 100
            * (
                sum(e["distance"][0] for e in shadowed) / sum(e["distance"][1] for e in shadowed)
                - 1
            ),
        }
    if cardarena:
        result["ours_over_cardarena"] = spread(
            [
                per_round(a) / per_round(b)
                for a, b in zip(runs["ours"], runs["cardarena"], strict=True)
            ]
        )
    return result


def growth(args) -> dict:
    engines = ["ours", "cardarena"] if cardarena else ["ours"]
    result: dict[str, Any] = {"rounds": args.rounds}
    for engine in engines:
        rows = []
        sizes = [n for n in args.sizes if engine == "ours" or n <= args.peer_max]
        for n in sizes:
            runs = args.growth_runs if engine == "ours" else 1
            times = [per_round(play(engine, n, args.rounds, run)) for run in range(runs)]
            rows.append({"players": n, "runs": runs, "seconds_per_round": spread(times)})
        result[engine] = {
            "rows": rows,
            "exponent": exponent(sizes, [r["seconds_per_round"]["median"] for r in rows]),
        }
    rows = []
    for n in args.exact_sizes:
        event = play("ours", n, args.rounds - 1, 0)
        ranking, points, met, byes = (event[k] for k in ("ranking", "points", "met", "byes"))
        ranking = sorted(ranking, key=lambda p: (-points[p], p))
        start = time.process_time()
        exact(ranking, points, met, byes)
        rows.append({"players": n, "seconds": time.process_time() - start})
    result["exact"] = {
        "rows": rows,
        "exponent": exponent([r["players"] for r in rows], [r["seconds"] for r in rows]),
    }
    return result


def small_fields(args, players: int) -> dict:
    engines = ["ours", "ours_fast", "cardarena"] if cardarena else ["ours", "ours_fast"]
    result: dict[str, Any] = {"players": players, "seeds": args.small_seeds}
    for engine in engines:
        events = [play(engine, players, args.rounds, s) for s in range(args.small_seeds)]
        result[engine] = {
            "repeats": sum(e["repeats"] for e in events),
            "second_byes": sum(e["second_byes"] for e in events),
            "mean_gap": statistics.fmean(g for e in events for g in e["gaps"]),
            "seconds_per_round": spread([per_round(e) for e in events]),
        }
    return result


def qualifying(players: int, games: int, *, reseed: bool) -> dict:
    """A qualifying event seated as the service does; ``reseed`` False: one seed throughout."""
    field = list(range(players))
    met: Counter = Counter()
    byes: Counter = Counter()
    methods: Counter = Counter()
    seconds, repeats = [], 0
    for number in range(1, games + 1):
        seed = (EVENT_SEED * 1_000_003 + number) % 2**31 if reseed else EVENT_SEED
        start = time.process_time()
        s = draw_qualifying_game(
            field, game_number=number, seed=seed, met=met, byes=byes, starting_field=field
        )
        seconds.append(time.process_time() - start)
        methods[s.method] += 1
        repeats += len(s.repeats)
        for a, b in s.pairs:
            met[pair_key(a, b)] += 1
        if s.bye is not None:
            byes[s.bye] += 1
    return {
        "players": players,
        "games": games,
        "reseed": reseed,
        "methods": dict(methods),
        "repeats": repeats,
        "seconds_per_game": spread(seconds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--exact-runs", type=int, default=2)
    parser.add_argument(
        "--sizes",
        type=lambda s: [int(x) for x in s.split(",")],
        default=[1000, 2000, 5000, 10000, 20000],
    )
    parser.add_argument("--growth-runs", type=int, default=3)
    parser.add_argument("--peer-max", type=int, default=10000)
    parser.add_argument(
        "--exact-sizes", type=lambda s: [int(x) for x in s.split(",")], default=[500, 1000, 2000]
    )
    parser.add_argument("--small", type=int, default=24)
    parser.add_argument("--small-seeds", type=int, default=10)
    parser.add_argument("--qualifying-games", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    started = time.perf_counter()
    result = {
        "swiss": swiss_head_to_head(args),
        "growth": growth(args),
        "small": [small_fields(args, args.small), small_fields(args, args.small + 1)],
        "qualifying": [
            qualifying(args.players, args.qualifying_games, reseed=True),
            qualifying(args.players, args.qualifying_games, reseed=False),
            qualifying(args.small, args.small - 1, reseed=True),
            qualifying(args.small, args.small - 1, reseed=False),
        ],
        "cardarena_installed": cardarena is not None,
    }
    result["wall_seconds"] = time.perf_counter() - started
    if args.json:
        print(json.dumps(result, default=str))
    else:
        report(result)


def ms(row: dict) -> str:
    return f"{row['median'] * 1000:8.1f} ms ({row['min'] * 1000:.1f}-{row['max'] * 1000:.1f})"


def ratio(row: dict) -> str:
    return f"x{row['median']:.3f} ({row['min']:.3f}-{row['max']:.3f})"


def report(r: dict) -> None:
    s = r["swiss"]
    print(
        f"== Swiss, {s['players']} players, {s['rounds']} rounds, {s['runs']} events: CPU per round, median (min-max)"
    )
    for engine in ("ours", "cardarena"):
        if engine in s:
            e = s[engine]
            print(
                f"  {engine:10} {ms(e['seconds_per_round'])}  repeats {e['repeats']}  "
                f"second byes {e['second_byes']}  mean gap {e['mean_gap']:.3f} GP"
            )
    if "exact" in s:
        x = s["exact"]
        print(
            f"  {'exact':10} {ms(x['seconds_per_round'])}  on ours' standings, {x['runs']} events"
        )
        print(
            f"  ours / exact {ratio(x['ours_over_exact'])}; rules 1-5 equal in "
            f"{x['rounds_rules_1_5_equal']}/{x['rounds']} rounds, ranking distance "
            f"{x['distance_excess_pct']:+.2f}%"
        )
    if "ours_over_cardarena" in s:
        print(f"  ours / cardarena {ratio(s['ours_over_cardarena'])} (same run)")
    else:
        print("  cardarena-tournament-core is not installed: not measured")

    g = r["growth"]
    print(f"== Growth, {g['rounds']} rounds: CPU per round (median over runs), n^k fitted")
    for engine in ("ours", "cardarena"):
        if engine in g:
            rows = "  ".join(
                f"{row['players']}: {row['seconds_per_round']['median'] * 1000:.1f} ms"
                for row in g[engine]["rows"]
            )
            print(f"  {engine:10} n^{g[engine]['exponent']:.2f}   {rows}")
    rows = "  ".join(
        f"{row['players']}: {row['seconds'] * 1000:.0f} ms" for row in g["exact"]["rows"]
    )
    print(f"  {'exact':10} n^{g['exact']['exponent']:.2f}   {rows} (one round)")

    for sm in r["small"]:
        print(f"== Small field, {sm['players']} players, {sm['seeds']} events: totals")
        for engine in ("ours", "ours_fast", "cardarena"):
            if engine in sm:
                e = sm[engine]
                print(
                    f"  {engine:10} repeats {e['repeats']:3}  second byes {e['second_byes']:3}  "
                    f"mean gap {e['mean_gap']:.3f} GP  {ms(e['seconds_per_round'])}"
                )

    print("== Qualifying draw as the service calls it (starting field given)")
    for q in r["qualifying"]:
        how = "reseeded every game" if q["reseed"] else "one seed"
        methods = ", ".join(f"{k} {v}" for k, v in sorted(q["methods"].items()))
        print(
            f"  {q['players']:5} players {q['games']:2} games, {how:19}  {methods:20}  "
            f"repeats {q['repeats']}  {ms(q['seconds_per_game'])} a game"
        )
    print(f"(whole bench {r['wall_seconds']:.0f} s)")


if __name__ == "__main__":
    main()
