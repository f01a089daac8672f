"""Swiss pairing by standings: equal or close records meet, repeats avoided, byes at the bottom.

Input is the field in ranking order (the event's ranking chain, best first) and a score key
(game points, say). The best pairing is the one that ranks first on, most important first:

1. no bye to a player who has had more byes than another active player;
2. no pair beyond the meeting limit (a repeat), and a third meeting weighs more than a second;
3. fewest earlier meetings within the limit (events that allow two games per opponent);
4. the bye to the lowest-ranked player among those with the fewest byes;
5. smallest score gaps (in score groups, squared, so one long float costs more than two short);
6. neighbours in the ranking (1 v 2, 3 v 4): the closest records meet.

Both ways of finding it seat a repeat or a second bye only when no seating without one exists.

- Small fields (up to ``exact_up_to`` players), fields not ranked in score order, and every
  field the fast pass below gives up on: one maximum-weight matching (rustworkx) whose weights
  rank 1-6, on a band of +-``band`` ranking places (sparse); only when the band cannot seat
  everyone without a repeat or an unfair bye is it widened, then made dense.
- Larger fields in score order, the fast pass: the bye to the lowest-ranked player with the
  fewest byes, then one greedy pass down the ranking in which each player takes the nearest of
  the next few unpaired players below whom they have not met and may meet (their own score
  group first, then the top of the next). Exact repairs follow, each the maximum-weight matching
  of a window of the ranking among its own players, first meetings only, around every
  player left unpaired (the window widens until they are seated; at the whole field the fast
  pass gives up), every needless float (a pair two score groups apart, or more pairs across a
  group boundary than its parity needs; windows up to ``FLOAT_RADIUS`` places), and every block
  of more than four players the greedy pass interleaved (with the blocks beside it).
  Every pair is a first meeting and the bye is where rule 4 wants it, so rules 1-4 are at their
  best possible value; with no needless float left the score gaps sum to their lower bound (one
  per group boundary with an odd number of players above it), so rule 5 is exact too, and
  otherwise exact within its window; rule 6 is exact within each window. The tests hold rules
  1-5 to the dense matching on small fields; bench/pairing.py measures rule 6 against the
  matching (within 0.1% at 2,000 players) and the time, which grows about linearly.

Never a brute-force search. The same arguments always give the same pairing.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from itertools import pairwise
from typing import Protocol, Self

import rustworkx as rx

from ._matching import Edge, cheapest_matching, fold_costs
from .errors import PairingError
from .qualifying import (
    PairKey,
    Player,
    Seating,
    bye_compromise,
    check_field,
    forbidden_pairs,
    pair_key,
    repeat_compromise,
)

DEFAULT_BAND = 24
# Each widening multiplies the band by this before the dense graph is the last resort.
WIDEN = 4
# Fields up to this size are always seated by the exact matching (fast enough, and it is exact
# in score gaps and neighbours too); larger ones by the greedy pass with exact repairs.
EXACT_UP_TO = 64
# The greedy pass tries at most this many of the nearest unpaired players below each player.
LOOKAHEAD = 8
# A repair window first reaches this many ranking places either side of the spot, then four
# times as far each round, while players are left unpaired or a needless float is left.
WINDOW = 1
# Needless floats are re-paired in windows up to this reach; past it they are accepted (the
# float is forced nearby); players left unpaired widen their window up to the whole field.
FLOAT_RADIUS = 64
# Windows up to this many players are matched on the dense graph, larger ones on the band.
DENSE_WINDOW = 64


class Score(Hashable, Protocol):
    """A player's score: game points, or any hashable value that orders (higher is better)."""

    def __lt__(self, other: Self, /) -> bool: ...


# Each player's score, as a mapping or a key function.
ScoreKey = Callable[[Player], Score] | Mapping[Player, Score]


def pair_swiss(
    players: Sequence[Player],
    *,
    score: ScoreKey,
    met: Mapping[PairKey, int] | None = None,
    byes: Mapping[Player, int] | None = None,
    forbidden: Iterable[Iterable[Player]] | None = None,
    max_meetings: int = 1,
    band: int = DEFAULT_BAND,
    exact_up_to: int = EXACT_UP_TO,
) -> Seating:
    """Pair the active field ``players`` (ranking order, best first) for the next Swiss game.

    ``score`` gives each player's score (a mapping or a key function); players with equal
    scores form a score group. ``met`` counts earlier meetings per :func:`pair_key`, ``byes``
    earlier byes; ``max_meetings`` is how often two players may meet; ``forbidden`` pairs never
    meet. Pairs come in table order (top table first, higher-ranked player first). The same
    arguments always give the same pairing. Fields of at most ``exact_up_to`` players go
    straight to the exact matching on a band of ``band`` places (see the module docstring).
    Raises :class:`PairingError` when the field cannot be paired at all (too small, a player
    twice, forbidden pairs that cannot be kept apart).
    """
    players = list(players)
    check_field(players)
    if max_meetings < 1:
        raise PairingError("bad_meeting_limit", "Players must be allowed to meet at least once.")
    if band < 1:
        raise PairingError("bad_band", "The candidate band must be at least one place.")
    met = met or {}
    byes = byes or {}
    blocked = forbidden_pairs(forbidden)
    groups = _score_groups(players, score)
    if len(players) > exact_up_to:
        fast = _fast_seating(players, groups, met, byes, blocked, band)
        if fast is not None:
            return fast
    return _exact_seating(players, groups, met, byes, blocked, max_meetings, band)


def _exact_seating(
    players: list[Player],
    groups: list[int],
    met: Mapping[PairKey, int],
    byes: Mapping[Player, int],
    blocked: frozenset[PairKey],
    max_meetings: int,
    band: int,
) -> Seating:
    """One maximum-weight matching of the whole field: the band, widened until it is sound."""
    n = len(players)
    fewest = min(byes.get(p, 0) for p in players)
    width: int | None = band
    while True:
        dense = width is None or width >= n - 1
        edges = _candidates(
            players, groups, met, byes, blocked, max_meetings, None if dense else width
        )
        nodes = n + n % 2
        chosen = cheapest_matching(nodes, edges)
        seating = _seating(players, chosen, met, byes, max_meetings, fewest)
        if len(chosen) * 2 == nodes and not seating.compromises:
            return seating
        if dense:
            break
        width = width * WIDEN if width is not None else None

    if len(chosen) * 2 != nodes:
        raise PairingError(
            "forbidden_pairs",
            "No pairing keeps every forbidden pair apart in this field: "
            "lift a forbidden pair or change the field.",
        )
    return seating


def _fast_seating(
    players: list[Player],
    groups: list[int],
    met: Mapping[PairKey, int],
    byes: Mapping[Player, int],
    blocked: frozenset[PairKey],
    band: int,
) -> Seating | None:
    """The greedy pass with exact repairs (module docstring), or None to match the whole field.

    Every pair it returns is a first meeting and not forbidden, and the bye (odd field) goes to
    the lowest-ranked player with the fewest byes: rules 1-4 at their best possible value.
    """
    n = len(players)
    if any(a > b for a, b in pairwise(groups)):
        return None  # score groups are not runs of the ranking: only the matching knows
    bye: int | None = None
    if n % 2:
        fewest = min(byes.get(p, 0) for p in players)
        bye = next(i for i in range(n - 1, -1, -1) if byes.get(players[i], 0) == fewest)
    # Positions 0..m-1: the ranking without the bye. rank[k] is position k's ranking index.
    rank = [i for i in range(n) if i != bye]
    people = [players[i] for i in rank]
    level = [groups[i] for i in rank]
    m = len(rank)

    def fresh(a: Player, b: Player) -> bool:
        key = frozenset((a, b))
        return not met.get(key) and key not in blocked

    partner = _greedy_pass(people, fresh)
    radius, first = WINDOW, True
    while True:
        starts = _block_starts(partner)
        spots = _spots(partner, level, rank, starts, skips=first, floats=radius <= FLOAT_RADIUS)
        if not spots:
            break
        windows = _windows(spots, partner, starts, radius)
        if windows == [(0, m)]:
            return None  # the window is the whole field: the exact matching decides
        for lo, hi in windows:
            window = _window_pairs(people, rank, level, lo, hi, met, blocked, band)
            for x, y in window or ():  # None: players still unpaired, for a wider window
                partner[x], partner[y] = y, x
        radius, first = radius * 4, False
    pairs = tuple((people[k], people[j]) for k, j in enumerate(partner) if j > k)
    return Seating(pairs=pairs, bye=None if bye is None else players[bye], method="swiss")


def _greedy_pass(people: list[Player], fresh: Callable[[Player, Player], bool]) -> list[int]:
    """Each position's partner (itself when left unpaired), pairing down the ranking.

    The first unpaired player takes the nearest of the next :data:`LOOKAHEAD` unpaired players
    below who is fresh (not met, not forbidden): their own score group while it lasts, else the
    top of the next. A float this makes that no parity needs is for the repair windows to fix.
    """
    m = len(people)
    partner = list(range(m))
    after = list(range(1, m + 1))  # the next unpaired position below each unpaired one
    i = 0
    while i < m:
        a = people[i]
        before, j = i, after[i]
        tries = 0
        while j < m and tries < LOOKAHEAD:
            if fresh(a, people[j]):
                partner[i], partner[j] = j, i
                after[before] = after[j]  # j is paired: skip it from now on
                break
            before, j = j, after[j]
            tries += 1
        i = after[i]
    return partner


def _block_starts(partner: list[int]) -> list[int]:
    """Where the blocks of a pairing start (no pair crosses into a block), and the end.

    A block of two is a pair of neighbours, of one a player left unpaired.
    """
    starts: list[int] = []
    reach = -1
    for k, j in enumerate(partner):
        if reach < k:
            starts.append(k)
        if j > reach:
            reach = j
    starts.append(len(partner))
    return starts


def _spots(
    partner: list[int],
    level: list[int],
    rank: list[int],
    starts: list[int],
    *,
    skips: bool,
    floats: bool,
) -> list[int]:
    """Positions to re-pair exactly, in ranking order.

    Always players left unpaired. With ``floats``, both players of each pair in a float no
    parity needs: a score gap of two groups or more, or one of several pairs across the same
    boundary of score groups (with no such pair and nobody unpaired, the score gaps add up to
    their lower bound, one per boundary with an odd number of players above it: rule 5 is
    exact). With ``skips``, the ends of every block of more than four players (the greedy pass
    skipped someone, and a re-pairing may bring neighbours closer: rule 6). A block of four is
    left alone, away from the bye: its two top players have met (else the greedy pass had paired
    them), so any pairing of the block and its neighbours within them crosses its middle or its
    top twice, and it already costs that lower bound.
    """
    across: dict[int, int] = {}
    if floats:
        for k, j in enumerate(partner):
            for cut in range(level[k], level[j]) if j > k else ():
                across[cut] = across.get(cut, 0) + 1
    spots: list[int] = []
    for k, j in enumerate(partner):
        if j == k:
            spots.append(k)
        elif (
            floats
            and j > k
            and level[j] != level[k]
            and (level[j] - level[k] >= 2 or across[level[k]] > 1)
        ):
            spots += (k, j)
    if skips:
        m = len(partner)
        for s, e in pairwise(starts):
            if e - s > 4 or (e - s == 4 and _near_bye(rank, max(0, s - 2), min(m, e + 2))):
                spots += (s, e - 1)
    return sorted(spots)


def _near_bye(rank: list[int], lo: int, hi: int) -> bool:
    """Whether the bye's place in the ranking lies between positions lo and hi - 1."""
    return rank[hi - 1] - rank[lo] != hi - 1 - lo


def _windows(
    spots: list[int], partner: list[int], starts: list[int], radius: int
) -> list[tuple[int, int]]:
    """Ranges [lo, hi) of positions around ``spots``, sorted, disjoint, each seatable alone.

    Each spot's window reaches ``radius`` places either side, out to the nearest block
    boundaries; overlapping windows merge, and a window with an odd number of unpaired players
    merges with the next one down (their number in the whole field is even).
    """
    m = len(partner)
    clean = [False] * (m + 1)
    for k in starts:
        clean[k] = True
    windows: list[tuple[int, int]] = []
    for spot in spots:
        lo, hi = max(0, spot - radius), min(m, spot + radius + 1)
        while not clean[lo]:
            lo -= 1
        while not clean[hi]:
            hi += 1
        if windows and lo < windows[-1][1]:
            windows[-1] = (windows[-1][0], max(hi, windows[-1][1]))
        else:
            windows.append((lo, hi))
    merged: list[tuple[int, int]] = []
    odd = False
    for lo, hi in windows:
        if odd:
            merged[-1] = (merged[-1][0], hi)
        else:
            merged.append((lo, hi))
        start, end = merged[-1]
        odd = sum(1 for k in range(start, end) if partner[k] == k) % 2 == 1
    return merged


def _window_pairs(
    people: list[Player],
    rank: list[int],
    level: list[int],
    lo: int,
    hi: int,
    met: Mapping[PairKey, int],
    blocked: frozenset[PairKey],
    band: int,
) -> list[tuple[int, int]] | None:
    """The exact re-pairing of positions lo..hi-1 among themselves, first meetings only.

    Rules 5 and 6 on the dense graph (the band for a long window); None when no seating of
    the window without a repeat exists on that graph (the caller widens the window).
    """
    size = hi - lo
    reach = size if size <= DENSE_WINDOW else band
    # One integer per pair, lexicographic in (score gap squared, ranking distance): no matching
    # of the window sums to ``scale`` in distance, so one step in gap outweighs them all.
    scale = size // 2 * (rank[hi - 1] - rank[lo]) + 1
    top = ((level[hi - 1] - level[lo]) ** 2 + 1) * scale
    graph: rx.PyGraph[None, int] = rx.PyGraph()
    graph.add_nodes_from([None] * size)
    edges: list[tuple[int, int, int]] = []
    for x in range(lo, hi):
        a, ax, lx = people[x], rank[x], level[x]
        for y in range(x + 1, min(hi, x + reach + 1)):
            key = frozenset((a, people[y]))
            if met.get(key) or key in blocked:
                continue
            gap = level[y] - lx
            edges.append((x - lo, y - lo, top - gap * gap * scale - (rank[y] - ax)))
    graph.add_edges_from(edges)
    chosen = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if len(chosen) * 2 != size:
        return None
    return [(lo + min(x, y), lo + max(x, y)) for x, y in chosen]


def swiss_weights(
    players: Sequence[Player],
    *,
    score: ScoreKey,
    met: Mapping[PairKey, int] | None = None,
    byes: Mapping[Player, int] | None = None,
    forbidden: Iterable[Iterable[Player]] | None = None,
    max_meetings: int = 1,
    band: int | None = None,
) -> dict[tuple[Player, Player | None], int]:
    """The candidate graph :func:`pair_swiss` matches on, as {(a, b): weight}; b None = bye.

    Dense unless ``band`` is given. For checking against a reference matching (networkx) and
    for benchmarks: a maximum-cardinality maximum-weight matching of these weights is the
    pairing ``pair_swiss`` makes on the same graph.
    """
    players = list(players)
    check_field(players)
    groups = _score_groups(players, score)
    edges = _candidates(
        players, groups, met or {}, byes or {}, forbidden_pairs(forbidden), max_meetings, band
    )
    nodes = len(players) + len(players) % 2
    folded = fold_costs(edges, nodes)
    top = max(folded, default=0) + 1
    return {
        (players[i], players[j] if j < len(players) else None): top - c
        for (i, j, _), c in zip(edges, folded, strict=True)
    }


def _score_groups(players: list[Player], score: ScoreKey) -> list[int]:
    key = score.__getitem__ if isinstance(score, Mapping) else score
    values = [key(p) for p in players]
    # Group 0 is the highest score; the gap between two players is how many groups apart.
    index = {v: g for g, v in enumerate(sorted(set(values), reverse=True))}
    return [index[v] for v in values]


def _candidates(
    players: list[Player],
    groups: list[int],
    met: Mapping[PairKey, int],
    byes: Mapping[Player, int],
    blocked: frozenset[PairKey],
    limit: int,
    width: int | None,
) -> list[Edge]:
    n = len(players)
    reach = n if width is None else width
    edges: list[Edge] = []
    for i, a in enumerate(players):
        for j in range(i + 1, min(n, i + reach + 1)):
            key = pair_key(a, players[j])
            if key in blocked:
                continue
            times = met.get(key, 0)
            excess = max(0, times - limit + 1)
            gap = groups[j] - groups[i]
            edges.append((i, j, (0, excess * excess, times, 0, gap * gap, j - i)))
    if n % 2:
        # The bye is a phantom opponent every player can draw, the bottom of the field first.
        fewest = min(byes.get(p, 0) for p in players)
        edges.extend(
            (i, n, (byes.get(p, 0) - fewest, 0, 0, n - 1 - i, 0, 0)) for i, p in enumerate(players)
        )
    return edges


def _seating(
    players: list[Player],
    chosen: list[tuple[int, int]],
    met: Mapping[PairKey, int],
    byes: Mapping[Player, int],
    limit: int,
    fewest: int,
) -> Seating:
    n = len(players)
    bye = None
    pairs = []
    for i, j in chosen:  # sorted by the higher-ranked player: top table first
        if j == n:
            bye = players[i]
        else:
            pairs.append((players[i], players[j]))
    repeats = tuple(
        (a, b, met.get(pair_key(a, b), 0)) for a, b in pairs if met.get(pair_key(a, b), 0) >= limit
    )
    notes = [repeat_compromise(a, b, times) for a, b, times in repeats]
    if bye is not None and byes.get(bye, 0) > fewest:
        notes.append(bye_compromise(bye, byes.get(bye, 0)))
    return Seating(
        pairs=tuple(pairs), bye=bye, repeats=repeats, method="swiss", compromises=tuple(notes)
    )
