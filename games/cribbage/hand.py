"""The show: scoring a hand or the crib with the starter, every combination listed."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations_with_replacement, product
from operator import attrgetter, itemgetter
from typing import Any

from .cards import _LOOKUP, JACK, Card, CardError, check_distinct, parse_card, parse_cards
from .scoring import ScoreItem, make_item, unfrozen
from .tables import NOBS_JACK, PAIRS_OF_FIVE, RANK_WEIGHT, SUBSETS_OF_FIVE

_by_index = attrgetter("index")


@dataclass(frozen=True, slots=True)
class HandScore:
    """The true score of a hand (or crib) with its starter, by kind and item by item."""

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    total: int
    items: tuple[ScoreItem, ...]
    """Every scoring combination: fifteens, pairs, runs, flush, nobs, in that order."""

    # The points per kind are derived from the items rather than stored: fewer fields make the
    # frozen object cheaper to build, which is most of the cost of scoring a hand.
    def _points(self, kind: str) -> int:
        return sum(item.points for item in self.items if item.kind == kind)

    @property
    def fifteens(self) -> int:
        """Points for fifteens (2 each)."""
        return self._points("fifteen")

    @property
    def pairs(self) -> int:
        """Points for pairs (2 each; three of a kind 6, four 12)."""
        return self._points("pair")

    @property
    def runs(self) -> int:
        """Points for runs (the length of each distinct run)."""
        return self._points("run")

    @property
    def flush(self) -> int:
        """Points for a flush (4 or 5; a crib only 5)."""
        return self._points("flush")

    @property
    def nobs(self) -> int:
        """1 for his nobs (the jack of the starter's suit), else 0."""
        return self._points("nobs")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form with cards as canonical text."""
        return {
            "hand": [str(card) for card in self.hand],
            "starter": str(self.starter),
            "crib": self.crib,
            "total": self.total,
            "fifteens": self.fifteens,
            "pairs": self.pairs,
            "runs": self.runs,
            "flush": self.flush,
            "nobs": self.nobs,
            "items": [item.to_dict() for item in self.items],
        }


_new = object.__new__
_UnfrozenScore = unfrozen(HandScore)
_UnfrozenItem = unfrozen(ScoreItem)


def his_heels(starter: str | Card) -> int:
    """Points the dealer pegs when the starter is turned: 2 for a jack (his heels), else 0."""
    return 2 if parse_card(starter).rank == JACK else 0


def _starter_card(starter: str | Card | Iterable[str | Card]) -> Card:
    if isinstance(starter, (str, Card)):
        return parse_card(starter)
    cards = parse_cards(starter)
    if len(cards) != 1:
        raise CardError(
            f"the starter is one card, got {len(cards)}",
            "wrong_count",
            {"what": "starter", "count": len(cards)},
        )
    return cards[0]


@dataclass(frozen=True, slots=True)
class _ShowPattern:
    """Where the fifteens, pairs and runs are among five cards sorted by rank.

    Which positions score depends only on the five ranks, so each of the 6,175 rank multisets
    is worked out once (on first sight) and every later hand with those ranks just picks its
    cards out by position.
    """

    items: tuple[tuple[str, itemgetter[Any], int], ...]
    """(kind, picker of the positions, points) for each fifteen, pair and run, in that order."""
    points: int
    """Fifteens + pairs + runs."""


def _show_pattern(ranks: list[int]) -> _ShowPattern:
    """Find the scoring position sets for five ranks given in ascending order."""
    values = [min(rank, 10) for rank in ranks]
    # Fifteens: every subset of the five cards whose values sum to 15.
    fifteens = [combo for combo in SUBSETS_OF_FIVE if sum(values[p] for p in combo) == 15]
    # Pairs: each two cards of one rank (three of a kind is three pairs, four is six).
    pairs = [(i, j) for i, j in PAIRS_OF_FIVE if ranks[i] == ranks[j]]
    # Runs: each maximal stretch of 3+ consecutive ranks, once per choice of one card per rank
    # (so a double run of three is two runs of three).
    positions: dict[int, list[int]] = {}
    for position, rank in enumerate(ranks):
        positions.setdefault(rank, []).append(position)
    distinct = sorted(positions)
    runs: list[tuple[int, ...]] = []
    begin = 0
    while begin < len(distinct):
        end = begin
        while end + 1 < len(distinct) and distinct[end + 1] == distinct[end] + 1:
            end += 1
        if end - begin + 1 >= 3:
            runs.extend(product(*(positions[rank] for rank in distinct[begin : end + 1])))
        begin = end + 1
    items = [("fifteen", itemgetter(*combo), 2) for combo in fifteens]
    items += [("pair", itemgetter(*pair), 2) for pair in pairs]
    items += [("run", itemgetter(*run), len(run)) for run in runs]
    return _ShowPattern(items=tuple(items), points=sum(points for _, _, points in items))


_PATTERNS: dict[int, _ShowPattern] = {}


def build_show_patterns() -> int:
    """Work out every rank multiset's pattern now (about 0.3 s) instead of on first sight.

    Returns the number of patterns (6,175). Optional: `score_hand` fills the table as it goes.
    """
    for ranks in combinations_with_replacement(range(1, 14), 5):
        if max(ranks.count(rank) for rank in ranks) <= 4:
            key = sum(RANK_WEIGHT[(rank - 1) * 4] for rank in ranks)
            if key not in _PATTERNS:
                _PATTERNS[key] = _show_pattern(list(ranks))
    return len(_PATTERNS)


def _show_cards(
    hand: str | Iterable[str | Card], starter: str | Card | Iterable[str | Card], crib: bool
) -> tuple[Card, Card, Card, Card, Card]:
    """The four hand cards and the starter, parsed carefully, raising the exact `CardError`."""
    cards = parse_cards(hand)
    if len(cards) != 4:
        what = "crib" if crib else "hand"
        raise CardError(
            f"a {what} has 4 cards after the discard, got {len(cards)}",
            "wrong_count",
            {"what": what, "count": len(cards)},
        )
    return cards[0], cards[1], cards[2], cards[3], _starter_card(starter)


def score_hand(
    hand: str | Iterable[str | Card],
    starter: str | Card,
    *,
    crib: bool = False,
) -> HandScore:
    """Score a 4-card hand (or the crib, `crib=True`) with the starter, listing every item.

    Raises `CardError` for a bad card, a hand that is not 4 cards, or a card given twice.
    """
    # The common input in one go: four cards and a starter, each a `Card` or a known spelling
    # (one dict lookup each). Anything else, a bad token or a wrong count included, is parsed
    # again carefully, which raises the exact error.
    try:
        if type(hand) is str:
            hand = hand.replace(",", " ").split()
        h0, h1, h2, h3 = hand if type(hand) is list or type(hand) is tuple else ()
        c0 = h0 if type(h0) is Card else _LOOKUP[h0]
        c1 = h1 if type(h1) is Card else _LOOKUP[h1]
        c2 = h2 if type(h2) is Card else _LOOKUP[h2]
        c3 = h3 if type(h3) is Card else _LOOKUP[h3]
        start = starter if type(starter) is Card else _LOOKUP[starter]  # type: ignore[index]
    except (ValueError, KeyError, TypeError):
        c0, c1, c2, c3, start = _show_cards(hand, starter, crib)
    cards = (c0, c1, c2, c3)
    five = [c0, c1, c2, c3, start]
    five.sort(key=_by_index)
    f0, f1, f2, f3, f4 = five
    if f0.index == f1.index or f1.index == f2.index or f2.index == f3.index or f3.index == f4.index:
        check_distinct(five, "crib and starter" if crib else "hand and starter")
    i0, i1, i2, i3, i4 = c0.index, c1.index, c2.index, c3.index, start.index
    key = RANK_WEIGHT[i0] + RANK_WEIGHT[i1] + RANK_WEIGHT[i2] + RANK_WEIGHT[i3] + RANK_WEIGHT[i4]
    pattern = _PATTERNS.get(key)
    if pattern is None:
        pattern = _PATTERNS[key] = _show_pattern([f0.rank, f1.rank, f2.rank, f3.rank, f4.rank])
    items = []
    for kind, pick, points in pattern.items:
        # make_item's body, inlined: a call less per item (two or three a hand)
        item: Any = _new(_UnfrozenItem)
        item.kind = kind
        item.cards = pick(five)
        item.points = points
        item.__class__ = ScoreItem
        items.append(item)
    total = pattern.points

    # Flush: four hand cards of one suit score 4, five with the starter 5; the crib only 5.
    # (The suit is the low two bits of a card's index.)
    suit = i0 & 3
    if i1 & 3 == suit and i2 & 3 == suit and i3 & 3 == suit:
        if i4 & 3 == suit:
            total += 5
            items.append(make_item("flush", tuple(five), 5))
        elif not crib:
            total += 4
            items.append(make_item("flush", tuple(sorted(cards, key=_by_index)), 4))

    # Nobs: the jack of the starter's suit in the hand or crib (at most one card can be it).
    jack = NOBS_JACK[i4]
    if jack in (i0, i1, i2, i3):
        total += 1
        items.append(make_item("nobs", (cards[(i0, i1, i2, i3).index(jack)],), 1))

    score: Any = _new(_UnfrozenScore)  # a HandScore built as make_item builds an item
    score.hand = cards
    score.starter = start
    score.crib = crib
    score.total = total
    score.items = tuple(items)
    score.__class__ = HandScore
    built: HandScore = score
    return built
