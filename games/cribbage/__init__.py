"""Cribbage rules engine: cards, the show, the play, claims and whole-game records.

Pure Python, no Django. The show counts fifteens (2 each), pairs (2 each), runs (1 a card),
flushes (4 in the hand, 5 with the starter; the crib only with the starter) and nobs (1); the
play counts 15 and 31 (2), pairs and runs, and the go or last card (1); a game is won at 121
(61 short); a loser on 90 or less is skunked (60 double, 30 triple; 30 in a game to 61).
Two, three (each for themself, a deck card in the crib) or four (partners) play:
`check_table_scores` checks a table's final scores.
The record format for `verify_game` is in README.md beside this file.
"""

from .cards import (
    DECK,
    ERROR_CODES,
    SUITS,
    Card,
    CardError,
    CribbageError,
    parse_card,
    parse_cards,
)
from .claim import CLAIM_KINDS, ClaimCheck, check_claim
from .discard import (
    ADVICE_ERROR_CODES,
    AdviceError,
    DiscardAdvice,
    DiscardOption,
    advise_discard,
)
from .fast import hand_total, score_tables
from .game import PROBLEM_CODES, GameEvent, GameReport, Loser, Problem, verify_game
from .hand import HandScore, his_heels, score_hand
from .multi import (
    DEAL_SHAPES,
    DealShape,
    TableLoser,
    TableResult,
    check_table_scores,
    deal_shape,
)
from .play import PlayScore, score_play
from .review import (
    REVIEW_ERROR_CODES,
    DiscardDecision,
    GameReview,
    PlayerReview,
    ReviewError,
    review_game,
)
from .rules import SKUNK_LINES, SKUNK_NAMES, TARGETS, skunk_level, skunk_name
from .schema import GAME_RECORD_SCHEMA
from .scoring import ScoreItem, format_breakdown
from .simulate import simulate_game

__all__ = [
    "ADVICE_ERROR_CODES",
    "CLAIM_KINDS",
    "DEAL_SHAPES",
    "DECK",
    "ERROR_CODES",
    "GAME_RECORD_SCHEMA",
    "PROBLEM_CODES",
    "REVIEW_ERROR_CODES",
    "SKUNK_LINES",
    "SKUNK_NAMES",
    "SUITS",
    "TARGETS",
    "AdviceError",
    "Card",
    "CardError",
    "ClaimCheck",
    "CribbageError",
    "DealShape",
    "DiscardAdvice",
    "DiscardDecision",
    "DiscardOption",
    "GameEvent",
    "GameReport",
    "GameReview",
    "HandScore",
    "Loser",
    "PlayScore",
    "PlayerReview",
    "Problem",
    "ReviewError",
    "ScoreItem",
    "TableLoser",
    "TableResult",
    "advise_discard",
    "check_claim",
    "check_table_scores",
    "deal_shape",
    "format_breakdown",
    "hand_total",
    "his_heels",
    "parse_card",
    "parse_cards",
    "review_game",
    "score_hand",
    "score_play",
    "score_tables",
    "simulate_game",
    "skunk_level",
    "skunk_name",
    "verify_game",
]
