"""Maximum-weight matching that minimises a lexicographic cost, shared by the generators.

Each candidate edge carries a tuple of costs, most important first (say: unfair byes, repeats,
score gaps). The tuples are folded into one integer per edge in a mixed radix wide enough that
no sum of lower tiers over a whole matching can outweigh one unit of a higher tier, so a single
max-cardinality max-weight matching (rustworkx, Python ints are 128-bit there) finds the
lexicographic optimum. No brute force anywhere.
"""

from __future__ import annotations

from collections.abc import Sequence

import rustworkx as rx

Edge = tuple[int, int, tuple[int, ...]]


def fold_costs(edges: Sequence[Edge], nodes: int) -> list[int]:
    """One integer cost per edge, ordered exactly like the cost tuples summed over a matching."""
    if not edges:
        return []
    tiers = len(edges[0][2])
    most = nodes // 2  # edges in any matching
    bases = [most * max(e[2][t] for e in edges) + 1 for t in range(tiers)]
    folded = []
    for _, _, costs in edges:
        value = 0
        for t in range(tiers):
            value = value * bases[t] + costs[t]
        folded.append(value)
    return folded


def cheapest_matching(nodes: int, edges: Sequence[Edge]) -> list[tuple[int, int]]:
    """The maximum-cardinality matching of least lexicographic total cost, as sorted (i, j)."""
    folded = fold_costs(edges, nodes)
    top = max(folded, default=0) + 1
    graph = rx.PyGraph()
    graph.add_nodes_from(range(nodes))
    # Weights stay positive: among matchings of equal size, most weight = least cost.
    graph.add_edges_from([(i, j, top - c) for (i, j, _), c in zip(edges, folded, strict=True)])
    chosen = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return sorted((min(i, j), max(i, j)) for i, j in chosen)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st: for notes the TD reads."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
