"""Swiss pairing by standings: equal or close records meet, repeats avoided, byes at the bottom.

Input is the field in ranking order (the event's ranking chain, best first) and a score key
(game points, say). The pairing is one maximum-weight matching (rustworkx) whose weights rank,
most important first:

1. no bye to a player who has had more byes than another active player;
2. no pair beyond the meeting limit (a repeat), and a third meeting weighs more than a second;
3. fewest earlier meetings within the limit (events that allow two games per opponent);
4. the bye to the lowest-ranked player among those with the fewest byes;
5. smallest score gaps (in score groups, squared, so one long float costs more than two short);
6. neighbours in the ranking (1 v 2, 3 v 4): the closest records meet.

The candidate graph is a band of +-``band`` ranking places (sparse, fast); only when the band
cannot seat everyone without a repeat or an unfair bye is it widened, then made dense, so a
repeat is seated only when no seating without one exists. Never a brute-force search.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Protocol, Self

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
) -> Seating:
    """Pair the active field ``players`` (ranking order, best first) for the next Swiss game.

    ``score`` gives each player's score (a mapping or a key function); players with equal
    scores form a score group. ``met`` counts earlier meetings per :func:`pair_key`, ``byes``
    earlier byes; ``max_meetings`` is how often two players may meet; ``forbidden`` pairs never
    meet. Pairs come in table order (top table first, higher-ranked player first). The same
    arguments always give the same pairing. Raises :class:`PairingError` when the field cannot
    be paired at all (too small, a player twice, forbidden pairs that cannot be kept apart).
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
