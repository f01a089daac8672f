"""Random but legal whole-game records, for tests, benchmarks and demo data."""

from __future__ import annotations

from random import Random
from typing import Any

from .cards import DECK, JACK, Card, CribbageError
from .game import DEALT_SIZE
from .hand import score_hand
from .multi import deal_shape
from .play import score_cards_played


def simulate_game(
    seed: int = 0, players: int = 2, target: int = 121, muggins: bool = False
) -> dict[str, Any]:
    """A complete, legal game record in the documented format, every claim correct.

    Players discard and lay cards at random (a legal card always; "go" only when none fits).
    The record stops at the event that reaches the target, as a real score sheet would.
    """
    if players not in DEALT_SIZE:
        raise CribbageError("players must be 2, 3 or 4", "bad_player_count", {"players": players})
    rng = Random(seed)
    n = players
    shape = deal_shape(n)
    side_of = shape.side_of
    scores = [0] * len(shape.sides)
    deals: list[dict[str, Any]] = []
    record: dict[str, Any] = {
        "target": target,
        "muggins": muggins,
        "players": [f"Player {p + 1}" for p in range(n)],
        "deals": deals,
    }

    def peg(player: int, points: int) -> bool:
        side = side_of[player]
        scores[side] = min(scores[side] + points, target)
        if scores[side] == target:
            winner = next(p for p in range(n) if side_of[p] == side)
            others = [scores[s] for s in range(len(scores)) if s != side]
            record["result"] = {"winner": winner, "loser_score": max(others)}
            return True
        return False

    dealer = rng.randrange(n)
    while True:
        deck = list(DECK)
        rng.shuffle(deck)
        size = DEALT_SIZE[n]
        dealt = [deck[p * size : (p + 1) * size] for p in range(n)]
        hands: list[list[Card]] = []
        crib: list[Card] = []
        for cards in dealt:
            discards = rng.sample(cards, size - 4)
            hands.append([card for card in cards if card not in discards])
            crib.extend(discards)
        next_card = n * size
        for _ in range(shape.crib_from_deck):  # three players: the crib's own card, face down
            crib.append(deck[next_card])
            next_card += 1
        starter = deck[next_card]
        plays: list[dict[str, Any]] = []
        shows: list[dict[str, Any]] = []
        deal: dict[str, Any] = {
            "dealer": dealer,
            "dealt": [[str(card) for card in cards] for cards in dealt],
            "hands": [[str(card) for card in hand] for hand in hands],
            "crib": [str(card) for card in crib],
            "starter": str(starter),
            "play": plays,
            "show": shows,
        }
        deals.append(deal)
        if starter.rank == JACK:
            deal["heels"] = 2
            if peg(dealer, 2):
                return record

        remaining = [list(hand) for hand in hands]
        count = 0
        pile: list[Card] = []
        passed: set[int] = set()
        turn = (dealer + 1) % n
        while any(remaining):
            if not remaining[turn] or turn in passed:
                turn = (turn + 1) % n
                continue
            fits = [card for card in remaining[turn] if count + card.value <= 31]
            if not fits:
                plays.append({"by": turn, "card": "go"})
                passed.add(turn)
                turn = (turn + 1) % n
                continue
            card = rng.choice(fits)
            remaining[turn].remove(card)
            pile.append(card)
            count += card.value
            closes = count == 31 or all(
                all(count + other.value > 31 for other in remaining[p]) for p in range(n)
            )
            points = score_cards_played(tuple(pile), last=closes).total
            plays.append({"by": turn, "card": str(card), "claim": points})
            if peg(turn, points):
                return record
            if closes:
                count, pile, passed = 0, [], set()
            turn = (turn + 1) % n

        for k in range(1, n + 1):
            player = (dealer + k) % n
            points = score_hand(hands[player], starter).total
            shows.append({"by": player, "claim": points})
            if peg(player, points):
                return record
        points = score_hand(crib, starter, crib=True).total
        shows.append({"by": dealer, "crib": True, "claim": points})
        if peg(dealer, points):
            return record
        dealer = (dealer + 1) % n
