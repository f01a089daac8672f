"""Stoppa rules engine: pure Python, no Django. "stoppa.md section N" is docs/rules/stoppa.md.

Stoppa is played with a 40-card Italian deck by 2 to 6 players: the cards are dealt in
iterations, each iteration's punto piccolo and the deal's punto grosso are won by the most cards
of one suit (then the points of those cards, then priority from the dealer's right), and the
stop phase is won by the first player out of cards, the others paying per cards left. The
rules as implemented, the record format and worked examples are in README.md beside this file.
"""

from .cards import FULL_DECK, RANK_POINTS, RANKS, SUITS, Card, cards_text, parse_card, parse_cards
from .contest import ContestResult, settle_contest
from .deck import (
    DeckInfo,
    check_deal,
    deal_by_ones,
    deck_info,
    next_dealer,
    priority_order,
)
from .errors import ERROR_CODES, WARNING_CODES, Issue, StoppaError
from .evaluation import (
    REASONS,
    Eval,
    Standing,
    grosso_eval,
    piccolo_eval,
    pick_winner,
    rank_players,
)
from .game import GameSettlement, settle_game
from .settings import DEFAULT, NO_STOP_RULES, VARIANTS, Settings
from .simulate import random_record, random_session
from .stop import (
    DECLARATIONS,
    DeclarationOutcome,
    StopPlay,
    StopResult,
    qualifies,
    replay_stop,
    settle_declarations,
    simulate_stop,
    stop_payments,
)
from .verify import RECORD_SCHEMA, Check, DealReport, verify_deal

__all__ = [
    "DECLARATIONS",
    "DEFAULT",
    "ERROR_CODES",
    "FULL_DECK",
    "NO_STOP_RULES",
    "RANKS",
    "RANK_POINTS",
    "REASONS",
    "RECORD_SCHEMA",
    "SUITS",
    "VARIANTS",
    "WARNING_CODES",
    "Card",
    "Check",
    "ContestResult",
    "DealReport",
    "DeckInfo",
    "DeclarationOutcome",
    "Eval",
    "GameSettlement",
    "Issue",
    "Settings",
    "Standing",
    "StopPlay",
    "StopResult",
    "StoppaError",
    "cards_text",
    "check_deal",
    "deal_by_ones",
    "deck_info",
    "grosso_eval",
    "next_dealer",
    "parse_card",
    "parse_cards",
    "piccolo_eval",
    "pick_winner",
    "priority_order",
    "qualifies",
    "random_record",
    "random_session",
    "rank_players",
    "replay_stop",
    "settle_contest",
    "settle_declarations",
    "settle_game",
    "simulate_stop",
    "stop_payments",
    "verify_deal",
]
