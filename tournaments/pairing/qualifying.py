"""Qualifying seating for ACC-style games: no repeat opponents, fair byes, reproducible.

Opponents come from a table movement, not from standings (spec/acc.md). While the field is the
one the event started with, the movement is the circle method over a seeded shuffle of the
field: it meets nobody twice for n-1 games (n rounded up to even), and with an odd field the
phantom seat hands every player exactly one bye before anyone gets a second. When the field
changes (late entry, withdrawal) the movement no longer applies and each game is drawn as a
perfect matching of the remaining field over the pairs that have not met, found by a shuffled
greedy pass and, if that gets stuck, by maximum-weight matching (rustworkx). Only when no
repeat-free seating exists does a repeat get seated, the fewest possible, with a note.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import rustworkx as rx

Player = Hashable
PHANTOM = None  # the empty seat of an odd field: whoever draws it has the bye
GREEDY_TRIES = 30


def pair_key(a: Player, b: Player) -> frozenset:
    """Key of an unordered pair of players, for the history of who has met whom."""
    return frozenset((a, b))


@dataclass(frozen=True, slots=True)
class Seating:
    """One game's seating: pairs in table order, the bye (or None), and what it compromised.

    ``repeats`` lists each pair seated although they met before, as (a, b, times met before);
    it is empty unless no repeat-free seating existed. ``method`` is "movement" or "draw".
    """

    pairs: tuple[tuple[Player, Player], ...]
    bye: Player | None
    repeats: tuple[tuple[Player, Player, int], ...] = field(default=())
    method: str = "movement"

    def opponents(self) -> dict[Player, Player]:
        """Each seated player's opponent."""
        out: dict[Player, Player] = {}
        for a, b in self.pairs:
            out[a] = b
            out[b] = a
        return out


def circle_round(
    field_order: Sequence[Player], game_number: int
) -> list[tuple[Player | None, Player | None]]:
    """Pairs of the circle method (Berger table) for ``game_number`` (1-based).

    ``field_order`` is the seeded order of the field; an odd field gets a phantom seat. After
    n-1 games the movement starts again from game 1.
    """
    seats: list[Player | None] = list(field_order)
    if len(seats) % 2:
        seats.append(PHANTOM)
    n = len(seats)
    if n < 2:
        return []
    turn = (game_number - 1) % (n - 1)
    # Seat 0 stays put; the others rotate one place a game.
    rotating = seats[1:]
    rotating = rotating[-turn:] + rotating[:-turn] if turn else rotating
    circle = [seats[0], *rotating]
    return [(circle[i], circle[n - 1 - i]) for i in range(n // 2)]


def draw_qualifying_game(
    players: Sequence[Player],
    *,
    game_number: int,
    seed: int,
    met: Mapping[frozenset, int] | None = None,
    byes: Mapping[Player, int] | None = None,
    starting_field: Sequence[Player] | None = None,
) -> Seating:
    """Seat ``players`` for game ``game_number`` of a qualifying session.

    ``met`` counts earlier meetings per :func:`pair_key`; ``byes`` counts earlier byes;
    ``starting_field`` is the field of game 1 in entry order (the movement is used while the
    field is unchanged). The same arguments always give the same seating.
    """
    met = met or {}
    byes = byes or {}
    players = list(players)
    if len(set(players)) != len(players):
        raise ValueError("A player is listed twice in the field.")
    if len(players) < 2:
        raise ValueError("At least two players are needed to seat a game.")

    if starting_field is not None and set(starting_field) == set(players):
        seating = _movement_seating(starting_field, game_number, seed, met, byes)
        if seating is not None:
            return seating

    rng = random.Random(f"{seed}:{game_number}:draw")
    return _matching_seating(players, rng, met, byes)


def _movement_seating(
    starting_field: Sequence[Player],
    game_number: int,
    seed: int,
    met: Mapping[frozenset, int],
    byes: Mapping[Player, int],
) -> Seating | None:
    order = list(starting_field)
    random.Random(f"{seed}:movement").shuffle(order)
    pairs: list[tuple[Player, Player]] = []
    bye = None
    for a, b in circle_round(order, game_number):
        if a is PHANTOM or b is PHANTOM:
            bye = b if a is PHANTOM else a
        else:
            pairs.append((a, b))
    fewest = min(byes.get(p, 0) for p in starting_field)
    if any(met.get(pair_key(a, b), 0) for a, b in pairs) or (
        bye is not None and byes.get(bye, 0) > fewest
    ):
        # Past n-1 games, or the history did not come from this movement: draw instead.
        return None
    return Seating(pairs=tuple(pairs), bye=bye, method="movement")


def _matching_seating(
    players: list[Player],
    rng: random.Random,
    met: Mapping[frozenset, int],
    byes: Mapping[Player, int],
) -> Seating:
    bye_candidates: list[Player | None] = [None]
    if len(players) % 2:
        fewest = min(byes.get(p, 0) for p in players)
        bye_candidates = [p for p in players if byes.get(p, 0) == fewest]
        rng.shuffle(bye_candidates)

    for bye in bye_candidates:
        seated = [p for p in players if p != bye]
        pairs = _pair_without_repeats(seated, rng, met)
        if pairs is not None:
            return Seating(pairs=tuple(pairs), bye=bye, method="draw")

    # No repeat-free seating exists: seat the fewest repeats, each as rarely met as possible.
    bye = bye_candidates[0]
    seated = [p for p in players if p != bye]
    pairs = _max_matching(seated, rng, met, allow_repeats=True)
    repeats = tuple((a, b, met[pair_key(a, b)]) for a, b in pairs if met.get(pair_key(a, b), 0))
    return Seating(pairs=tuple(pairs), bye=bye, repeats=repeats, method="draw")


def _pair_without_repeats(
    seated: list[Player], rng: random.Random, met: Mapping[frozenset, int]
) -> list[tuple[Player, Player]] | None:
    for _ in range(GREEDY_TRIES):
        pairs = _greedy(seated, rng, met)
        if pairs is not None:
            return pairs
    matching = _max_matching(seated, rng, met, allow_repeats=False)
    if len(matching) * 2 == len(seated):
        return matching
    return None


def _greedy(
    seated: list[Player], rng: random.Random, met: Mapping[frozenset, int]
) -> list[tuple[Player, Player]] | None:
    pool = list(seated)
    rng.shuffle(pool)
    pairs = []
    while pool:
        a = pool.pop()
        for i in range(len(pool) - 1, -1, -1):
            if not met.get(pair_key(a, pool[i]), 0):
                pairs.append((a, pool.pop(i)))
                break
        else:
            return None
    return pairs


def _max_matching(
    seated: list[Player], rng: random.Random, met: Mapping[frozenset, int], *, allow_repeats: bool
) -> list[tuple[Player, Player]]:
    order = list(seated)
    rng.shuffle(order)
    graph = rx.PyGraph()
    graph.add_nodes_from(order)
    top = 1 + max(met.values(), default=0)
    for i, a in enumerate(order):
        for j in range(i + 1, len(order)):
            times = met.get(pair_key(a, order[j]), 0)
            if times and not allow_repeats:
                continue
            # Fewer earlier meetings weigh more; max cardinality seats everyone first.
            graph.add_edge(i, j, (top - times) ** 2)
    chosen = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return [(order[i], order[j]) for i, j in sorted(chosen)]


def meetings(seatings: Iterable[Seating]) -> dict[frozenset, int]:
    """Count how often each pair met over ``seatings`` (for tests and reports)."""
    counts: dict[frozenset, int] = {}
    for seating in seatings:
        for a, b in seating.pairs:
            key = pair_key(a, b)
            counts[key] = counts.get(key, 0) + 1
    return counts
