"""Declarations before the stop phase, the stop phase itself, and its payments
(stoppa.md sections 7, 8 and 9).

The stop phase ("la stoppata") is a shedding game in rank order A 2 3 4 5 6 7 J N K, suits
ignored: ``replay_stop`` validates a log of plays and finds the closer, ``simulate_stop`` plays
a phase out (for tests, examples and the deal checker), ``stop_payments`` says what each pays.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .cards import RANK_INDEX, RANKS, Card, parse_cards
from .errors import Issue, StoppaError

DECLARATIONS: tuple[str, ...] = ("misera", "four_kings", "no_stop")
# Declarations that every other player pays for; no_stop only cancels the phase.
PAID_DECLARATIONS: frozenset[str] = frozenset({"misera", "four_kings"})


# --------------------------------------------------------------------------- declarations


def top_rank_of(cards: Iterable[Card]) -> str:
    """The stop phase's "King": the highest rank among the cards in play (K, or N at 6)."""
    return max((c.rank for c in cards), key=RANK_INDEX.__getitem__)


def qualifies(
    kind: str,
    hand: Iterable[str | Card],
    *,
    top_rank: str = "K",
    no_stop_rule: str = "three_twos_no_king",
) -> bool:
    """Whether ``hand`` may make the declaration ``kind`` (stoppa.md section 7).

    - ``misera``: no figure (J, N, K);
    - ``four_kings``: all four Kings;
    - ``no_stop``: per ``no_stop_rule``; "no King" means no card of ``top_rank`` (N at 6 players).
    """
    cards = parse_cards(hand)
    ranks = [c.rank for c in cards]
    if kind == "misera":
        return not any(c.is_figure for c in cards)
    if kind == "four_kings":
        return ranks.count("K") == 4
    if kind == "no_stop":
        no_king = top_rank not in ranks
        twos, aces = ranks.count("2"), ranks.count("A")
        return {
            "three_twos_no_king": twos >= 3 and no_king,
            "three_aces_no_king": aces >= 3 and no_king,
            "four_aces_no_king": aces >= 4 and no_king,
            "three_aces": aces >= 3,
            "none": False,
        }[no_stop_rule]
    raise StoppaError(
        "invalid_declaration",
        f"unknown declaration {kind!r}: use one of {', '.join(DECLARATIONS)}",
        params={"kind": kind, "allowed": ", ".join(DECLARATIONS)},
    )


@dataclass(frozen=True, slots=True)
class DeclarationOutcome:
    """The declarations made: whether the stop phase is cancelled, who pays whom, and warnings
    for qualifying hands that were not declared."""

    declarations: tuple[tuple[str, str], ...]
    cancels_stop: bool
    payments: Mapping[str, int]
    warnings: tuple[Issue, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "declarations": [{"player": p, "kind": k} for p, k in self.declarations],
            "cancels_stop": self.cancels_stop,
            "payments": dict(self.payments),
            "warnings": [w.to_dict() for w in self.warnings],
        }


def settle_declarations(
    order: Sequence[str],
    hands: Mapping[str, Iterable[str | Card]],
    declarations: Iterable[tuple[str, str]],
    unit: int,
    *,
    top_rank: str = "K",
    no_stop_rule: str = "three_twos_no_king",
) -> DeclarationOutcome:
    """Check the declarations against the full hands and pay them.

    Each misera or four-Kings declarer is paid ``unit`` by every other player (declarers pay
    each other too); ``no_stop`` pays nothing. Any declaration cancels the stop phase.
    Raises ``invalid_declaration`` for a hand that does not qualify.
    """
    missing = [p for p in order if p not in hands]
    if missing:
        raise StoppaError(
            "unknown_player", f"no hand for {missing[0]}", "hands", params={"player": missing[0]}
        )
    parsed = {p: parse_cards(hands[p]) for p in order}
    made: list[tuple[str, str]] = []
    payments = {p: 0 for p in order}
    for i, (player, kind) in enumerate(declarations):
        where = f"declarations[{i}]"
        if player not in payments:
            raise StoppaError(
                "unknown_player",
                f"{player!r} declared but is not at the table",
                where,
                params={"player": player},
            )
        if kind not in DECLARATIONS:
            raise StoppaError(
                "invalid_declaration",
                f"unknown declaration {kind!r}: use {', '.join(DECLARATIONS)}",
                where,
                params={"kind": kind, "allowed": ", ".join(DECLARATIONS)},
            )
        if (player, kind) in made:
            raise StoppaError(
                "duplicate_declaration",
                f"{player} declared {kind} twice",
                where,
                params={"player": player, "kind": kind},
            )
        if not qualifies(kind, parsed[player], top_rank=top_rank, no_stop_rule=no_stop_rule):
            raise StoppaError(
                "invalid_declaration",
                _why_not(kind, player, no_stop_rule),
                where,
                {"player": player, "kind": kind, "rule": no_stop_rule},
            )
        made.append((player, kind))
        if kind in PAID_DECLARATIONS:
            for p in order:
                if p != player:
                    payments[p] -= unit
                    payments[player] += unit
    warnings: list[Issue] = []
    for p in order:
        for kind in DECLARATIONS:
            if (p, kind) not in made and qualifies(
                kind, parsed[p], top_rank=top_rank, no_stop_rule=no_stop_rule
            ):
                warnings.append(
                    Issue(
                        f"undeclared_{kind}",
                        f"{p} could have declared {kind} but did not; the game as played stands",
                        "declarations",
                        {"player": p, "kind": kind},
                    )
                )
    return DeclarationOutcome(tuple(made), bool(made), MappingProxyType(payments), tuple(warnings))


def _why_not(kind: str, player: str, rule: str) -> str:
    if kind == "misera":
        return f"{player} declared misera but holds a figure (J, N or K)"
    if kind == "four_kings":
        return f"{player} declared four Kings but does not hold all four"
    if rule == "none":
        return f"{player} declared no-stop but this table plays no no-stop rule"
    return f"{player} declared no-stop but the hand does not meet {rule.replace('_', ' ')}"


# --------------------------------------------------------------------------- the stop phase


@dataclass(frozen=True, slots=True)
class StopPlay:
    """One play of the stop phase: ``kind`` is ``open``, ``follow``, ``all_of_rank``,
    ``aces_on_ace`` or ``three_aces_free``; ``need_after`` is the rank then required (None: the
    player opens a new sequence)."""

    step: int
    player: str
    cards: tuple[Card, ...]
    kind: str
    need_after: str | None
    closes: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "step": self.step,
            "player": self.player,
            "cards": [c.text for c in self.cards],
            "kind": self.kind,
            "need_after": self.need_after,
            "closes": self.closes,
        }


@dataclass(frozen=True, slots=True)
class StopResult:
    """The replayed stop phase: who closed, the cards each has left, the plays, warnings."""

    closer: str
    hands_left: Mapping[str, tuple[Card, ...]]
    plays: tuple[StopPlay, ...]
    warnings: tuple[Issue, ...]

    @property
    def remaining(self) -> dict[str, int]:
        """Cards left per player (the closer has 0)."""
        return {p: len(h) for p, h in self.hands_left.items()}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "closer": self.closer,
            "remaining": self.remaining,
            "hands_left": {p: [c.text for c in h] for p, h in self.hands_left.items()},
            "plays": [pl.to_dict() for pl in self.plays],
            "warnings": [w.to_dict() for w in self.warnings],
        }


def _parse_play(entry: object, i: int) -> tuple[str, tuple[Card, ...]]:
    where = f"stop.log[{i}]"
    player: object
    cards: object
    if isinstance(entry, Mapping):
        player, cards = entry.get("player"), entry.get("cards")
    elif isinstance(entry, (tuple, list)) and len(entry) == 2:
        player, cards = entry
    elif isinstance(entry, str) and ":" in entry:
        player, cards = (s.strip() for s in entry.split(":", 1))
    else:
        raise StoppaError("bad_record", 'a play is {"player": ..., "cards": ...}', where)
    if not isinstance(player, str) or not isinstance(cards, (str, list, tuple)):
        raise StoppaError("bad_record", "a play names a player and his cards", where)
    try:
        parsed = parse_cards(cards)
    except StoppaError as e:
        raise StoppaError(e.code, e.message, where, e.params) from None
    if not parsed:
        raise StoppaError("bad_record", f"{player} plays no card", where, params={"player": player})
    return player, parsed


class _Table:
    """Mutable state of a stop phase (internal: results are returned frozen)."""

    def __init__(self, order: Sequence[str], hands: Mapping[str, Iterable[str | Card]]) -> None:
        self.order = tuple(order)
        if len(set(self.order)) != len(self.order):
            raise StoppaError("duplicate_player", "a player is listed twice in the order")
        missing = [p for p in self.order if p not in hands]
        if missing:
            raise StoppaError(
                "bad_record", f"no hand for {missing[0]!r}", params={"player": missing[0]}
            )
        self.hands: dict[str, list[Card]] = {}
        seen: dict[Card, str] = {}
        for p in self.order:
            self.hands[p] = sorted(parse_cards(hands[p]), key=lambda c: c.sort_key)
            for c in self.hands[p]:
                if c in seen:
                    raise StoppaError(
                        "duplicate_card",
                        f"card {c} is held by {seen[c]} and {p}",
                        params={"card": c, "other": seen[c], "player": p},
                    )
                seen[c] = p
        all_cards = list(seen)
        if not all_cards:
            raise StoppaError("empty_hand", "nobody holds a card")
        self.in_deck = {r: 0 for r in RANKS}  # cards of each rank in the deck in use
        for c in all_cards:
            self.in_deck[c.rank] += 1
        self.held = dict(self.in_deck)  # cards of each rank still in some hand
        self.top_rank = top_rank_of(all_cards)
        self.cur = self.order[0]
        self.need: str | None = None
        self.last: str | None = None
        self.closer: str | None = None

    def seat(self, p: str) -> int:
        return self.order.index(p)

    def turn_from_cur(self) -> list[str]:
        """Players in turn order starting with ``cur`` itself."""
        i = self.seat(self.cur)
        return list(self.order[i:] + self.order[:i])

    def holds(self, p: str, rank: str) -> bool:
        return any(c.rank == rank for c in self.hands[p])

    def holder_of_need(self) -> str:
        assert self.need is not None
        for p in self.turn_from_cur():
            if self.holds(p, self.need):
                return p
        raise AssertionError("a needed rank is always held")  # held[need] > 0 by construction

    def apply(self, player: str, cards: tuple[Card, ...]) -> None:
        for c in cards:
            self.hands[player].remove(c)
            self.held[c.rank] -= 1
        r = cards[0].rank
        self.cur, self.last = player, r
        if not self.hands[player]:
            self.closer = player
        higher = [x for x in RANKS[RANK_INDEX[r] + 1 :] if self.held[x] > 0]
        # Exhausted ranks are skipped; nothing higher left means this card closed the sequence.
        self.need = higher[0] if higher else None


def replay_stop(
    order: Sequence[str],
    hands: Mapping[str, Iterable[str | Card]],
    log: Iterable[object],
    *,
    three_aces_free: bool = False,
) -> StopResult:
    """Replay and validate a stop phase.

    - ``order``: priority order (``order[0]``, di mano, leads); ``hands``: each player's full
      hand at the start; ``log``: the plays in order, each ``{"player": p, "cards": "6d 6c"}``
      (or ``(p, cards)`` or ``"p: cards"``). Passes are not logged: the turn passes by itself.
    - A player passed over while holding the required rank gives the warning ``missed_play``;
      the result stands (stoppa.md 8.5).

    Raises ``card_not_held``, ``illegal_rank``, ``wrong_opener``, ``multi_card_not_allowed``,
    ``mixed_ranks``, ``play_after_close``, ``incomplete``, ``unknown_player``.
    """
    t = _Table(order, hands)
    plays: list[StopPlay] = []
    warnings: list[Issue] = []
    for i, entry in enumerate(log):
        where = f"stop.log[{i}]"
        player, cards = _parse_play(entry, i)
        if t.closer is not None:
            raise StoppaError(
                "play_after_close",
                f"{player} plays {_txt(cards)} after {t.closer} closed",
                where,
                params={"player": player, "cards": _txt(cards), "closer": t.closer},
            )
        if player not in t.hands:
            raise StoppaError(
                "unknown_player",
                f"{player!r} is not at the table",
                where,
                params={"player": player},
            )
        for c in cards:
            if c not in t.hands[player]:
                raise StoppaError(
                    "card_not_held",
                    f"{player} does not hold {c}",
                    where,
                    params={"player": player, "card": c},
                )
        rank = cards[0].rank
        if any(c.rank != rank for c in cards):
            raise StoppaError(
                "mixed_ranks",
                f"{player} plays {_txt(cards)}: one rank per play",
                where,
                params={"player": player, "cards": _txt(cards)},
            )
        all_of_rank = len(cards) > 1 and len(cards) == t.in_deck[rank]
        kind = _classify(t, player, cards, rank, all_of_rank, three_aces_free, where)
        if t.need is not None:
            # Everyone the turn passed over who held the required rank missed a play.
            for p in t.turn_from_cur():
                if p == player:
                    break
                if t.holds(p, t.need):
                    warnings.append(
                        Issue(
                            "missed_play",
                            f"{p} could play a {t.need} before {player}",
                            where,
                            params={"player": p, "rank": t.need, "other": player},
                        )
                    )
        t.apply(player, cards)
        closes = t.closer is not None
        plays.append(StopPlay(i + 1, player, cards, kind, None if closes else t.need, closes))
    if t.closer is None:
        raise StoppaError("incomplete", "the log ends before any player has gone out", "stop.log")
    left = MappingProxyType({p: tuple(t.hands[p]) for p in t.order})
    return StopResult(t.closer, left, tuple(plays), tuple(warnings))


def _classify(
    t: _Table,
    player: str,
    cards: tuple[Card, ...],
    rank: str,
    all_of_rank: bool,
    three_aces_free: bool,
    where: str,
) -> str:
    n = len(cards)
    if t.need is None:
        if player != t.cur:
            raise StoppaError(
                "wrong_opener",
                f"{t.cur} opens the next sequence, not {player}",
                where,
                params={"opener": t.cur, "player": player},
            )
        if n > 1 and rank != "A" and not all_of_rank:
            message, params = _multi_msg(t, player, cards, rank)
            raise StoppaError("multi_card_not_allowed", message, where, params)
        return "all_of_rank" if all_of_rank else "open"
    if rank == t.need:
        if n > 1 and not all_of_rank:
            message, params = _multi_msg(t, player, cards, rank)
            raise StoppaError("multi_card_not_allowed", message, where, params)
        return "all_of_rank" if all_of_rank else "follow"
    if rank == "A" and t.last == "A":
        return "aces_on_ace"
    if (
        rank == "A"
        and three_aces_free
        and n >= 3
        and t.top_rank not in {c.rank for c in t.hands[player]}
        and n == sum(1 for c in t.hands[player] if c.rank == "A")
    ):
        return "three_aces_free"
    raise StoppaError(
        "illegal_rank",
        f"{player} plays {_txt(cards)} but the sequence needs a {t.need}",
        where,
        params={"player": player, "cards": _txt(cards), "rank": t.need},
    )


def _multi_msg(
    t: _Table, player: str, cards: tuple[Card, ...], rank: str
) -> tuple[str, dict[str, Any]]:
    """The message and the params of multi_card_not_allowed."""
    params = {"player": player, "count": len(cards), "cards": _txt(cards), "all": t.in_deck[rank]}
    message = (
        f"{player} plays {len(cards)} cards ({_txt(cards)}) at once: only Aces when opening "
        f"or on an Ace, or all {t.in_deck[rank]} of a rank together"
    )
    return message, params


def _txt(cards: Iterable[Card]) -> str:
    return " ".join(c.text for c in cards)


def simulate_stop(
    order: Sequence[str],
    hands: Mapping[str, Iterable[str | Card]],
    rng: random.Random | None = None,
) -> tuple[list[dict[str, str]], StopResult]:
    """Play a stop phase out and return ``(log, result)``; the log replays with ``replay_stop``.

    Without ``rng`` the play is fixed: open with all one's Aces, else the lowest card; follow with
    one card of the required rank (all of them when one holds the whole rank). With ``rng`` the
    opening card and Ace stacking are chosen at random (legal plays only).
    """
    t = _Table(order, hands)
    log: list[dict[str, str]] = []
    while t.closer is None:
        if t.need is None:
            p = t.cur
            hand = t.hands[p]
            card = rng.choice(hand) if rng is not None else hand[0]
            same = [c for c in hand if c.rank == card.rank]
            if card.rank == "A" and rng is not None:
                cards = tuple(rng.sample(same, rng.randint(1, len(same))))
            elif card.rank == "A" or len(same) == t.in_deck[card.rank]:
                cards = tuple(same)
            else:
                cards = (card,)
        else:
            p = t.holder_of_need()
            aces = [c for c in t.hands[p] if c.rank == "A"]
            same = [c for c in t.hands[p] if c.rank == t.need]
            if t.last == "A" and aces and rng is not None and rng.random() < 0.5:
                cards = tuple(aces)
            elif len(same) == t.in_deck[t.need] and len(same) > 1:
                cards = tuple(same)
            else:
                cards = (same[0],)
        log.append({"player": p, "cards": _txt(cards)})
        t.apply(p, cards)
    return log, replay_stop(order, hands, log)


# --------------------------------------------------------------------------- payments


def stop_payments(
    closer: str, remaining: Mapping[str, int], unit: int, cards_per_payment: int = 2
) -> dict[str, int]:
    """What each player pays the closer: ``unit`` per ``cards_per_payment`` cards left, the odd
    card(s) free ("pulisciti"). Returns every player's net (the closer positive, sum zero).

    ``remaining`` maps each other player (the closer may be included with 0) to cards left.
    Raises ``two_closers`` when another player has no card, ``bad_amount``, ``bad_setting``.
    """
    if isinstance(unit, bool) or not isinstance(unit, int) or unit <= 0:
        raise StoppaError(
            "bad_amount",
            f"the stop unit must be a positive integer, got {unit!r}",
            params={"name": "stop_unit", "value": unit},
        )
    if cards_per_payment not in (2, 3) or isinstance(cards_per_payment, bool):
        raise StoppaError(
            "bad_setting",
            f"cards_per_payment must be 2 or 3, got {cards_per_payment!r}",
            params={"name": "cards_per_payment", "value": cards_per_payment},
        )
    if not isinstance(closer, str):
        raise StoppaError(
            "unknown_player",
            f"the closer must be a player's name, got {closer!r}",
            params={"player": closer},
        )
    if not isinstance(remaining, Mapping):
        raise StoppaError("bad_amount", "cards left must map each player to a count")
    nets: dict[str, int] = {closer: 0}
    for p, left in remaining.items():
        if isinstance(left, bool) or not isinstance(left, int) or left < 0:
            raise StoppaError(
                "bad_amount",
                f"{p}'s cards left must be a count, got {left!r}",
                params={"player": p, "count": left},
            )
        if p == closer:
            if left:
                raise StoppaError(
                    "bad_cards_left",
                    f"the closer {p} cannot hold {left} card(s)",
                    params={"player": p, "count": left},
                )
            continue
        if left == 0:
            raise StoppaError(
                "two_closers",
                f"{p} also has no cards: only {closer} can go out",
                params={"player": p, "other": closer},
            )
        pay = unit * (left // cards_per_payment)
        nets[p] = -pay
        nets[closer] += pay
    return nets
