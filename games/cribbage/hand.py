"""The show: scoring a hand or the crib with the starter, every combination listed."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations_with_replacement, product
from operator import attrgetter, itemgetter
from typing import Any

from .cards import JACK, Card, CardError, check_distinct, parse_card, parse_cards
from .scoring import ScoreItem, make_item
from .tables import PAIRS_OF_FIVE, RANK_WEIGHT, SUBSETS_OF_FIVE

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
_set_hand = vars(HandScore)["hand"].__set__
_set_starter = vars(HandScore)["starter"].__set__
_set_crib = vars(HandScore)["crib"].__set__
_set_total = vars(HandScore)["total"].__set__
_set_items = vars(HandScore)["items"].__set__


def _make_score(
    hand: tuple[Card, ...], starter: Card, crib: bool, total: int, items: tuple[ScoreItem, ...]
) -> HandScore:
    # Same as HandScore(...) without the frozen __init__'s object.__setattr__ per field,
    # which was a quarter of the time of scoring a hand.
    score = _new(HandScore)
    _set_hand(score, hand)
    _set_starter(score, starter)
    _set_crib(score, crib)
    _set_total(score, total)
    _set_items(score, items)
    return score


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

    fifteens: tuple[itemgetter[Any], ...]
    pairs: tuple[itemgetter[Any], ...]
    runs: tuple[tuple[itemgetter[Any], int], ...]
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
    return _ShowPattern(
        fifteens=tuple(itemgetter(*combo) for combo in fifteens),
        pairs=tuple(itemgetter(*pair) for pair in pairs),
        runs=tuple((itemgetter(*run), len(run)) for run in runs),
        points=2 * len(fifteens) + 2 * len(pairs) + sum(len(run) for run in runs),
    )


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


def score_hand(
    hand: str | Iterable[str | Card],
    starter: str | Card,
    *,
    crib: bool = False,
) -> HandScore:
    """Score a 4-card hand (or the crib, `crib=True`) with the starter, listing every item.

    Raises `CardError` for a bad card, a hand that is not 4 cards, or a card given twice.
    """
    cards = parse_cards(hand)
    if len(cards) != 4:
        what = "crib" if crib else "hand"
        raise CardError(
            f"a {what} has 4 cards after the discard, got {len(cards)}",
            "wrong_count",
            {"what": what, "count": len(cards)},
        )
    start = starter if type(starter) is Card else _starter_card(starter)
    five = sorted((cards[0], cards[1], cards[2], cards[3], start), key=_by_index)
    c0, c1, c2, c3, c4 = five
    if c0.index == c1.index or c1.index == c2.index or c2.index == c3.index or c3.index == c4.index:
        check_distinct(five, "crib and starter" if crib else "hand and starter")
    key = (
        RANK_WEIGHT[c0.index]
        + RANK_WEIGHT[c1.index]
        + RANK_WEIGHT[c2.index]
        + RANK_WEIGHT[c3.index]
        + RANK_WEIGHT[c4.index]
    )
    pattern = _PATTERNS.get(key)
    if pattern is None:
        pattern = _PATTERNS[key] = _show_pattern([c0.rank, c1.rank, c2.rank, c3.rank, c4.rank])

    items = [make_item("fifteen", pick(five), 2) for pick in pattern.fifteens]
    for pick in pattern.pairs:
        items.append(make_item("pair", pick(five), 2))
    for pick, length in pattern.runs:
        items.append(make_item("run", pick(five), length))

    # Flush: four hand cards of one suit score 4, five with the starter 5; the crib only 5.
    flush = 0
    suit = cards[0].suit
    if cards[1].suit == suit and cards[2].suit == suit and cards[3].suit == suit:
        if start.suit == suit:
            flush = 5
            items.append(make_item("flush", tuple(five), 5))
        elif not crib:
            flush = 4
            items.append(make_item("flush", tuple(sorted(cards, key=_by_index)), 4))

    # Nobs: the jack of the starter's suit in the hand or crib.
    nobs = 0
    for card in cards:
        if card.rank == JACK and card.suit == start.suit:
            nobs = 1
            items.append(make_item("nobs", (card,), 1))

    return _make_score(tuple(cards), start, crib, pattern.points + flush + nobs, tuple(items))
