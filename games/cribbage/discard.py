"""The discard advisor: every way to discard from the cards dealt, ranked by expected points.

For each discard the advisor works out, exactly:

- the hand: the four cards kept, scored with every starter still unseen (uniform), giving the
  mean, the distribution (min, max, chance of 12 or more) and the histogram;
- the crib: the cards thrown, with whatever the other players put in (two cards from the
  opponent with 2 players; with 3 players the other two throws and the card dealt to the crib;
  with 4 players the other three throws) and the starter. Every unseen card is equally likely to
  be any of these: the model is *uniform over the unseen cards*, not a model of how people throw.
  The expected crib is the average over every such set of cards and every starter;
- the net: hand + crib when the crib is yours (you deal; with 4 players, you or your partner),
  hand - crib when it is an opponent's.

Speed: with two players the naive count is 15 discards x 1,035 opponent throws x 44 starters =
683,100 crib scorings. The crib's fifteens, pairs and runs depend only on the five ranks, so the
unknown cards are summed by rank multiset (at most 455 of them for three cards), each weighted
by how many ways the unseen cards give those ranks; flush and nobs are counted in closed form
(both depend only on suits). See README.md beside this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb
from typing import Any

from .cards import DECK, Card, CardError, cards_text, parse_card
from .hand import score_hand
from .tables import RANK_WEIGHT, base_points_table

DEALT_SIZE = {2: 6, 3: 5, 4: 5}
"""Cards dealt to each player, by number of players."""

HAND_SIZE = 4
GOOD_HAND = 12
"""The hand's distribution reports the chance of this many points or more."""

ADVICE_ERROR_CODES = (
    "bad_card",
    "bad_player_count",
    "wrong_count",
    "duplicate_card",
    "too_many_seen",
)
"""The codes (`ERROR_CODES` in cards.py) an `AdviceError` carries: a bad card (params: text,
what: dealt or seen), players not 2-4 (players), not 6 or 5 cards dealt (what: dealt, players,
expected, count), a card twice in the deal or among the cards seen (card, what: dealt), so many
cards seen that the crib and the starter cannot be filled (count, needed)."""


class AdviceError(CardError):
    """Input the advisor refuses: a `CardError` with a code from `ADVICE_ERROR_CODES` and the
    params its message names (`code`, `message`, `params` as every engine error)."""


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One way to discard, with its exact expectations (the sums and counts behind them)."""

    keep: tuple[Card, ...]
    """The four cards kept, in dealt order."""
    discard: tuple[Card, ...]
    """The cards thrown to the crib (2 with two players, else 1)."""
    own_crib: bool
    """True when the crib counts for you (you deal, or with 4 players your partner does)."""
    hand_counts: tuple[int, ...]
    """30 numbers: how many unseen starters give the kept hand 0, 1, ..., 29 points."""
    hand_points: int
    """Sum of the hand's points over the unseen starters."""
    starters: int
    """Number of unseen starters (the hand's cases)."""
    crib_points: int
    """Sum of the crib's points over every case (the others' cards and the starter)."""
    crib_cases: int
    """Number of crib cases: sets of the others' cards times starters."""

    @property
    def hand_mean(self) -> float:
        """Expected points of the hand."""
        return self.hand_points / self.starters

    @property
    def hand_min(self) -> int:
        """The fewest points the hand can make."""
        return next(points for points, n in enumerate(self.hand_counts) if n)

    @property
    def hand_max(self) -> int:
        """The most points the hand can make."""
        return max(points for points, n in enumerate(self.hand_counts) if n)

    @property
    def hand_good_chance(self) -> float:
        """Chance (0..1) that the hand makes 12 points or more (`GOOD_HAND`)."""
        return sum(self.hand_counts[GOOD_HAND:]) / self.starters

    @property
    def crib_mean(self) -> float:
        """Expected points of the crib (whoever owns it)."""
        return self.crib_points / self.crib_cases

    @property
    def net_exact(self) -> Fraction:
        """Hand plus the crib (yours) or minus it (an opponent's), as an exact fraction."""
        crib = Fraction(self.crib_points, self.crib_cases)
        hand = Fraction(self.hand_points, self.starters)
        return hand + crib if self.own_crib else hand - crib

    @property
    def net(self) -> float:
        """`net_exact` as a float."""
        return float(self.net_exact)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form with cards as canonical text and means rounded to 4 places."""
        return {
            "keep": [str(card) for card in self.keep],
            "discard": [str(card) for card in self.discard],
            "net": round(self.net, 4),
            "hand": {
                "mean": round(self.hand_mean, 4),
                "min": self.hand_min,
                "max": self.hand_max,
                "chance_12_plus": round(self.hand_good_chance, 4),
                "counts": list(self.hand_counts),
                "starters": self.starters,
            },
            "crib": {
                "mean": round(self.crib_mean, 4),
                "yours": self.own_crib,
                "points": self.crib_points,
                "cases": self.crib_cases,
            },
        }


@dataclass(frozen=True, slots=True)
class DiscardAdvice:
    """Every discard of one deal, best first (highest net, then highest hand mean)."""

    dealt: tuple[Card, ...]
    seen: tuple[Card, ...]
    players: int
    dealer: bool
    """The crib is yours (or your side's)."""
    unseen: int
    """Cards you have not seen: the starter and the others' crib cards come from these."""
    options: tuple[DiscardOption, ...]

    @property
    def best(self) -> DiscardOption:
        """The discard with the highest expected net."""
        return self.options[0]

    def option_for(self, keep: Iterable[Card]) -> DiscardOption | None:
        """The option that keeps these four cards (any order), or None."""
        wanted = {card.index for card in keep}
        for option in self.options:
            if {card.index for card in option.keep} == wanted:
                return option
        return None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "dealt": [str(card) for card in self.dealt],
            "seen": [str(card) for card in self.seen],
            "players": self.players,
            "dealer": self.dealer,
            "unseen": self.unseen,
            "model": "uniform over unseen cards",
            "options": [option.to_dict() for option in self.options],
        }


# --------------------------------------------------------------------------- lookup tables

_COMB: tuple[tuple[int, ...], ...] = tuple(tuple(comb(n, k) for k in range(5)) for n in range(5))
"""_COMB[n][k] = C(n, k) for n, k in 0..4 (how many ways to pick k of the n unseen of a rank)."""


@cache
def _rank_groups(size: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Every multiset of `size` ranks as (rank-multiset key, ((rank 0..12, count), ...)).

    455 groups for 3 cards, 1,820 for 4; built once per size.
    """
    groups = []
    for ranks in combinations_with_replacement(range(13), size):
        counts: dict[int, int] = {}
        for rank in ranks:
            counts[rank] = counts.get(rank, 0) + 1
        key = sum(RANK_WEIGHT[rank * 4] for rank in ranks)
        groups.append((key, tuple(counts.items())))
    return tuple(groups)


def _parse(cards: str | Iterable[str | Card], what: str) -> list[Card]:
    """Parse cards; a bad token is an `AdviceError` ``bad_card`` naming where it was."""
    tokens: Iterable[str | Card]
    tokens = cards.replace(",", " ").split() if isinstance(cards, str) else cards
    parsed = []
    for token in tokens:
        try:
            parsed.append(parse_card(token))
        except CardError as exc:
            raise AdviceError(
                f"{what}: {exc.message}", exc.code, {**exc.params, "what": what}
            ) from None
    return parsed


def _check(
    dealt: str | Iterable[str | Card], seen: str | Iterable[str | Card], players: int
) -> tuple[list[Card], list[Card], list[int], int]:
    """Validate the input; returns the dealt and seen cards, the unseen indices, and k (the
    number of unknown cards in a crib case: the others' crib cards plus the starter)."""
    if type(players) is not int or players not in DEALT_SIZE:
        raise AdviceError(
            f"players must be 2, 3 or 4, got {players!r}",
            "bad_player_count",
            {"players": players},
        )
    hand = _parse(dealt, "dealt")
    others = _parse(seen, "seen")
    expected = DEALT_SIZE[players]
    if len(hand) != expected:
        raise AdviceError(
            f"{players} players are dealt {expected} cards each, got {len(hand)}",
            "wrong_count",
            {"what": "dealt", "count": len(hand), "expected": expected, "players": players},
        )
    taken: set[int] = set()
    for card in (*hand, *others):
        if card.index in taken:
            raise AdviceError(
                f"card {card} is given twice",
                "duplicate_card",
                {"card": str(card), "what": "dealt"},
            )
        taken.add(card.index)
    unseen = [i for i in range(52) if i not in taken]
    k = 1 + (HAND_SIZE - (expected - HAND_SIZE))  # the others' crib cards, then the starter
    if len(unseen) < k:
        raise AdviceError(
            f"only {len(unseen)} unseen cards: the crib and the starter need {k}",
            "too_many_seen",
            {"count": len(unseen), "needed": k},
        )
    return hand, others, unseen, k


def _sort(options: list[DiscardOption]) -> tuple[DiscardOption, ...]:
    """Best first: exact net, then hand mean, then dealt order (stable)."""
    return tuple(sorted(options, key=lambda o: (-o.net_exact, -o.hand_points)))


# --------------------------------------------------------------------------- the advisor


def advise_discard(
    dealt: str | Iterable[str | Card],
    *,
    dealer: bool,
    players: int = 2,
    seen: str | Iterable[str | Card] = (),
) -> DiscardAdvice:
    """Rank every discard of the cards dealt by expected hand points plus (`dealer`: the crib
    is yours, or your side's) or minus the expected crib, exactly, uniform over unseen cards.

    `dealt`: 6 cards with 2 players, 5 with 3 or 4. `seen`: other cards you know are out of
    play (they cannot be the starter or in the crib). Raises `AdviceError` (a `CardError`)
    with a code from `ADVICE_ERROR_CODES`. About 5 ms for a 6-card deal.
    """
    hand, others, unseen, k = _check(dealt, seen, players)
    base = base_points_table()
    weight = RANK_WEIGHT
    u = len(unseen)

    # Unseen cards per rank and per suit, and which jacks are unseen.
    per_rank = [0] * 13
    per_suit = [0, 0, 0, 0]
    for i in unseen:
        per_rank[i >> 2] += 1
        per_suit[i & 3] += 1
    unseen_set = set(unseen)

    # The others' crib cards and the starter, summed by rank multiset: (key, ways) for every
    # multiset the unseen cards can make. The same for every discard of the deal.
    groups: list[tuple[int, int]] = []
    for group_key, rank_counts in _rank_groups(k):
        ways = 1
        for rank, count in rank_counts:
            ways *= _COMB[per_rank[rank]][count]
            if not ways:
                break
        if ways:
            groups.append((group_key, ways))

    crib_cases = comb(u, k - 1) * (u - k + 1)
    # Nobs, per suit of the starter: sets with the jack of that suit (not the starter itself).
    nobs_jack_unseen = [(per_suit[s] - 1) * comb(u - 2, k - 2) for s in range(4)]
    nobs_jack_thrown = [per_suit[s] * comb(u - 1, k - 1) for s in range(4)]
    flush_cases = [k * comb(per_suit[s], k) for s in range(4)]

    size = len(hand)
    rank_sums: dict[int, int] = {}
    options: list[DiscardOption] = []
    for kept_positions in combinations(range(size), HAND_SIZE):
        keep = tuple(hand[p] for p in kept_positions)
        thrown = tuple(card for p, card in enumerate(hand) if p not in kept_positions)

        # The hand with each unseen starter: base points by rank, plus flush and nobs by suit.
        k0, k1, k2, k3 = (card.index for card in keep)
        key = weight[k0] + weight[k1] + weight[k2] + weight[k3]
        bonus = [0, 0, 0, 0]
        suit = k0 & 3
        if (k1 & 3) == suit and (k2 & 3) == suit and (k3 & 3) == suit:
            bonus = [4, 4, 4, 4]
            bonus[suit] = 5
        for index in (k0, k1, k2, k3):
            if index >> 2 == 10:  # a jack: nobs with a starter of its suit
                bonus[index & 3] += 1
        counts = [0] * 30
        hand_points = 0
        for s in unseen:
            points = base[key + weight[s]] + bonus[s & 3]
            counts[points] += 1
            hand_points += points

        # The crib: the thrown cards with every rank multiset of the unknown cards. Every set
        # of k unknown cards is k cases (any one of them the starter), all with the same ranks.
        thrown_key = 0
        for card in thrown:
            thrown_key += weight[card.index]
        ranks_sum = rank_sums.get(thrown_key)
        if ranks_sum is None:
            ranks_sum = 0
            for group_key, ways in groups:
                ranks_sum += ways * base[thrown_key + group_key]
            rank_sums[thrown_key] = ranks_sum
        crib_points = k * ranks_sum
        # Flush: the thrown cards and every unknown card of one suit (5 points, crib rules).
        thrown_suit = thrown[0].index & 3
        if all(card.index & 3 == thrown_suit for card in thrown):
            crib_points += 5 * flush_cases[thrown_suit]
        # Nobs: the jack of the starter's suit in the crib, thrown by you or by another.
        for s in range(4):
            jack = 40 + s
            if any(card.index == jack for card in thrown):
                crib_points += nobs_jack_thrown[s]
            elif jack in unseen_set:
                crib_points += nobs_jack_unseen[s]

        options.append(
            DiscardOption(
                keep=keep,
                discard=thrown,
                own_crib=dealer,
                hand_counts=tuple(counts),
                hand_points=hand_points,
                starters=u,
                crib_points=crib_points,
                crib_cases=crib_cases,
            )
        )
    return DiscardAdvice(
        dealt=tuple(hand),
        seen=tuple(others),
        players=players,
        dealer=dealer,
        unseen=u,
        options=_sort(options),
    )


def advise_by_enumeration(
    dealt: str | Iterable[str | Card],
    *,
    dealer: bool,
    players: int = 2,
    seen: str | Iterable[str | Card] = (),
) -> DiscardAdvice:
    """The same advice by plain enumeration: `score_hand` on every kept hand with every starter
    and on every crib with every set of the others' cards and every starter.

    The reference for the tests and the baseline of `bench/cribbage_advisor.py`: about 2 s
    for a 6-card deal (683,100 crib scorings).
    """
    hand, others, unseen, k = _check(dealt, seen, players)
    cards = [DECK[i] for i in unseen]
    size = len(hand)
    options = []
    for kept_positions in combinations(range(size), HAND_SIZE):
        keep = tuple(hand[p] for p in kept_positions)
        thrown = tuple(card for p, card in enumerate(hand) if p not in kept_positions)
        counts = [0] * 30
        for starter in cards:
            counts[score_hand(keep, starter).total] += 1
        crib_points = crib_cases = 0
        for extra in combinations(cards, k - 1):
            crib = [*thrown, *extra]
            for starter in cards:
                if starter in extra:
                    continue
                crib_points += score_hand(crib, starter, crib=True).total
                crib_cases += 1
        options.append(
            DiscardOption(
                keep=keep,
                discard=thrown,
                own_crib=dealer,
                hand_counts=tuple(counts),
                hand_points=sum(points * n for points, n in enumerate(counts)),
                starters=len(cards),
                crib_points=crib_points,
                crib_cases=crib_cases,
            )
        )
    return DiscardAdvice(
        dealt=tuple(hand),
        seen=tuple(others),
        players=players,
        dealer=dealer,
        unseen=len(cards),
        options=_sort(options),
    )


# --------------------------------------------------------------------------- command line


def format_advice(advice: DiscardAdvice, limit: int | None = None) -> list[str]:
    """The advice as text lines, best first (`limit`: only that many discards)."""
    whose = "yours" if advice.dealer else "an opponent's"
    lines = [
        f"dealt {cards_text(advice.dealt)} | {advice.players} players | crib {whose}"
        f" | {advice.unseen} unseen cards (uniform over unseen cards)",
        f"{'#':>2} {'discard':<8} {'keep':<14} {'net':>7} {'hand':>6} {'min':>3} {'max':>3}"
        f" {'12+':>6} {'crib':>6}",
    ]
    for rank, option in enumerate(advice.options[:limit], start=1):
        lines.append(
            f"{rank:>2} {cards_text(option.discard):<8} {cards_text(option.keep):<14}"
            f" {option.net:>7.3f} {option.hand_mean:>6.3f} {option.hand_min:>3}"
            f" {option.hand_max:>3} {option.hand_good_chance:>6.1%} {option.crib_mean:>6.3f}"
        )
    return lines
