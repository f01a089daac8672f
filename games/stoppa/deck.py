"""The deck, the cards each and the dealing schedule by number of players (stoppa.md section 2)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from .cards import FULL_DECK, SUIT_NAMES_IT, Card, parse_card, parse_cards
from .errors import StoppaError

# players -> (cards each, schedule of the punto piccolo iterations, top rank of the stop phase)
_TABLE: dict[int, tuple[int, tuple[int, ...], str]] = {
    3: (13, (3, 3, 3, 3, 1), "K"),
    4: (10, (3, 3, 3, 1), "K"),
    5: (8, (3, 3, 2), "K"),
    6: (6, (3, 3), "N"),
}


@dataclass(frozen=True, slots=True)
class DeckInfo:
    """The deck in use at a table of ``players``.

    ``cards`` (every card in play, all dealt), ``per_player``, ``schedule`` (cards per iteration),
    ``top_rank`` (the rank that closes a stop-phase sequence while any is left: K, or N at 6),
    ``removed`` (the cards out of play).
    """

    players: int
    cards: tuple[Card, ...]
    per_player: int
    schedule: tuple[int, ...]
    top_rank: str
    removed: tuple[Card, ...]
    removed_king: Card | None

    @property
    def iterations(self) -> int:
        """Number of punti piccoli."""
        return len(self.schedule)

    def __contains__(self, card: object) -> bool:
        return card in self._card_set()

    def _card_set(self) -> frozenset[Card]:
        return _card_set(self.players, self.removed_king)

    def check_card(self, card: Card, where: str = "") -> None:
        """Raise ``card_not_in_deck`` if ``card`` is out of play at this table."""
        if card not in self._card_set():
            why = (
                "there are no Kings at 6 players"
                if self.players == 6
                else f"{card} was removed for the 3-player game"
            )
            raise StoppaError(
                "card_not_in_deck",
                f"card {card} is not in the deck in use: {why}",
                where,
                params={
                    "card": card,
                    "reason": "six_players" if self.players == 6 else "removed_king",
                },
            )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "players": self.players,
            "cards": [c.text for c in self.cards],
            "deck_size": len(self.cards),
            "per_player": self.per_player,
            "schedule": list(self.schedule),
            "iterations": self.iterations,
            "top_rank": self.top_rank,
            "removed": [c.text for c in self.removed],
        }


def _parse_removed_king(removed_king: str | Card) -> Card:
    if isinstance(removed_king, str):
        key = removed_king.strip().lower()
        for suit, name in SUIT_NAMES_IT.items():
            if key in (suit, name):
                return Card("K", suit)
    card = parse_card(removed_king)
    if card.rank != "K":
        raise StoppaError(
            "removed_king_required",
            f"the card removed at 3 players must be a King, got {card}",
            params={"card": card},
        )
    return card


def deck_info(players: int, removed_king: str | Card | None = None) -> DeckInfo:
    """The deck for ``players`` (3 to 6): 39 cards with ``removed_king`` out (3 players; give the
    King, e.g. ``"Kd"``, or its suit, ``"d"``), 40 (4 and 5), 36 without Kings (6).

    Raises ``unsupported_player_count``, ``removed_king_required``, ``removed_king_not_allowed``.
    """
    if isinstance(players, bool) or not isinstance(players, int) or players not in _TABLE:
        raise StoppaError(
            "unsupported_player_count",
            f"Stoppa is played by 3 to 6 players, not {players!r}",
            params={"players": players},
        )
    king: Card | None = None
    if players == 3:
        if removed_king is None:
            raise StoppaError(
                "removed_king_required", "a 3-player game must name the King removed from the deck"
            )
        king = _parse_removed_king(removed_king)
    elif removed_king is not None:
        raise StoppaError(
            "removed_king_not_allowed",
            f"only a 3-player game removes a King, this table has {players}",
            params={"players": players},
        )
    return _deck_info(players, king)


@cache
def _deck_info(players: int, king: Card | None) -> DeckInfo:
    # Cached: there are only 7 distinct decks, and DeckInfo is immutable.
    per_player, schedule, top = _TABLE[players]
    if players == 6:
        removed = tuple(c for c in FULL_DECK if c.rank == "K")
    elif king is not None:
        removed = (king,)
    else:
        removed = ()
    cards = tuple(c for c in FULL_DECK if c not in removed)
    return DeckInfo(players, cards, per_player, schedule, top, removed, king)


@cache
def _card_set(players: int, king: Card | None) -> frozenset[Card]:
    return frozenset(_deck_info(players, king).cards)


def priority_order(players: Sequence[str], dealer: str) -> tuple[str, ...]:
    """The deal (priority) order: dealer+1, dealer+2, ..., dealer. Seats are listed in the
    direction of play (counter-clockwise), so ``order[0]`` is di mano and the dealer is last."""
    if dealer not in players:
        raise StoppaError(
            "unknown_player",
            f"the dealer {dealer!r} is not at the table",
            params={"player": dealer},
        )
    i = list(players).index(dealer)
    return tuple(players[i + 1 :]) + tuple(players[: i + 1])


def next_dealer(players: Sequence[str], dealer: str) -> str:
    """The next game's dealer: the player who was di mano (the deal moves counter-clockwise)."""
    return priority_order(players, dealer)[0]


def deal_by_ones(
    info: DeckInfo, order: Sequence[str], deck_order: str | Iterable[str | Card]
) -> tuple[dict[str, tuple[Card, ...]], ...]:
    """Deal a full deck order (``deck_order[0]`` is the top card) one card at a time in priority
    order, iteration by iteration (stoppa.md 2.3). Returns one ``{player: cards}`` per iteration.

    Raises ``wrong_deck_size``, ``duplicate_card``, ``card_not_in_deck``, ``bad_card``.
    """
    cards = parse_cards(deck_order)
    for c in cards:
        info.check_card(c, "deal.deck_order")
    if len(cards) != len(info.cards):
        raise StoppaError(
            "wrong_deck_size",
            f"the deck order has {len(cards)} cards; {info.players} players use {len(info.cards)}",
            "deal.deck_order",
            params={"count": len(cards), "players": info.players, "expected": len(info.cards)},
        )
    out: list[dict[str, tuple[Card, ...]]] = []
    pos = 0
    for size in info.schedule:
        hands: dict[str, list[Card]] = {p: [] for p in order}
        for _ in range(size):
            for p in order:
                hands[p].append(cards[pos])
                pos += 1
        out.append({p: tuple(h) for p, h in hands.items()})
    return tuple(out)


def check_deal(
    info: DeckInfo,
    order: Sequence[str],
    iterations: Sequence[Mapping[str, str | Iterable[str | Card]]],
) -> tuple[dict[str, tuple[Card, ...]], ...]:
    """Check the cards each player received per iteration against the schedule and the deck.

    Returns the parsed iterations. Raises ``wrong_iteration_count``, ``wrong_iteration_size``,
    ``unknown_player``, ``duplicate_card``, ``card_not_in_deck`` or ``bad_card`` with the reason.
    """
    if len(iterations) != info.iterations:
        raise StoppaError(
            "wrong_iteration_count",
            f"{info.players} players play {info.iterations} iterations "
            f"({'-'.join(map(str, info.schedule))}), the deal has {len(iterations)}",
            "deal",
            params={
                "players": info.players,
                "iterations": info.iterations,
                "schedule": "-".join(map(str, info.schedule)),
                "count": len(iterations),
            },
        )
    seen: dict[Card, str] = {}
    out: list[dict[str, tuple[Card, ...]]] = []
    for i, (size, it) in enumerate(zip(info.schedule, iterations, strict=True)):
        where = f"deal.iterations[{i}]"
        if not isinstance(it, Mapping):
            raise StoppaError("bad_record", "each iteration maps player -> cards", where)
        extra = sorted(set(it) - set(order))
        if extra:
            raise StoppaError(
                "unknown_player",
                f"{extra[0]!r} is not at the table",
                where,
                params={"player": extra[0]},
            )
        parsed: dict[str, tuple[Card, ...]] = {}
        for p in order:
            try:
                cards = parse_cards(it.get(p, ()))
            except StoppaError as e:
                raise StoppaError(
                    e.code, f"{p}: {e.message}", f"{where}.{p}", {"player": p, **e.params}
                ) from None
            if len(cards) != size:
                raise StoppaError(
                    "wrong_iteration_size",
                    f"iteration {i + 1} deals {size} card(s) each; {p} has {len(cards)}",
                    f"{where}.{p}",
                    params={"iteration": i + 1, "size": size, "player": p, "count": len(cards)},
                )
            for c in cards:
                info.check_card(c, f"{where}.{p}")
                if c in seen:
                    raise StoppaError(
                        "duplicate_card",
                        f"card {c} was dealt to {seen[c]} and again to {p}",
                        f"{where}.{p}",
                        params={"card": c, "other": seen[c], "player": p},
                    )
                seen[c] = p
            parsed[p] = cards
        out.append(parsed)
    return tuple(out)
