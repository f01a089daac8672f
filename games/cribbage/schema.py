"""JSON Schema (draft 2020-12) of the whole-game record that `verify_game` reads."""

from __future__ import annotations

from typing import Any

# Rank then suit, any case, T for ten, suit letters or symbols (an emoji variation selector
# after the symbol is allowed, as phone keyboards add one).
CARD_PATTERN = "^\\s*([AaJjQqKkTt2-9]|10)([SHDCshdc]|[♠♥♦♣♤♡♢♧]\ufe0f?)\\s*$"

_CARD: dict[str, Any] = {"type": "string", "pattern": CARD_PATTERN, "examples": ["5H", "10S", "JD"]}
_FOUR = {"type": "array", "items": _CARD, "minItems": 4, "maxItems": 4}
_CLAIM = {"type": ["integer", "null"], "minimum": 0, "maximum": 29}
_PLAYER = {"type": "integer", "minimum": 0, "maximum": 3}

GAME_RECORD_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "CribbageGameRecord",
    "description": "A whole cribbage game, deal by deal, as verify_game reads it.",
    "type": "object",
    "required": ["players", "deals"],
    "properties": {
        "target": {"type": "integer", "enum": [121, 61], "default": 121},
        "muggins": {
            "type": "boolean",
            "default": False,
            "description": "Overlooked points go to the opponent when true.",
        },
        "players": {
            "type": "array",
            "minItems": 2,
            "maxItems": 4,
            "items": {"type": "string"},
            "description": "Names in seating order, each player's left neighbour next; with 4"
            " players, 0 and 2 are partners against 1 and 3.",
        },
        "deals": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["dealer", "hands", "crib", "starter"],
                "properties": {
                    "dealer": _PLAYER,
                    "dealt": {
                        "type": ["array", "null"],
                        "description": "Per player the 6 (2 players) or 5 (3 or 4 players) cards"
                        " dealt, or null.",
                        "items": {
                            "type": ["array", "null"],
                            "items": _CARD,
                            "minItems": 5,
                            "maxItems": 6,
                        },
                    },
                    "hands": {
                        "type": "array",
                        "minItems": 2,
                        "maxItems": 4,
                        "items": _FOUR,
                        "description": "Per player, the 4 cards kept after the discard.",
                    },
                    "crib": {
                        **_FOUR,
                        "description": "The discards; with three players also the card dealt"
                        " face down from the deck.",
                    },
                    "starter": _CARD,
                    "heels": {**_CLAIM, "description": "Points claimed for his heels."},
                    "play": {
                        "type": "array",
                        "description": "The pegging in order; the go (or last card) point is"
                        " claimed with the card that earned it.",
                        "items": {
                            "type": "object",
                            "required": ["by", "card"],
                            "properties": {
                                "by": _PLAYER,
                                "card": {
                                    "anyOf": [
                                        _CARD,
                                        {"type": "string", "pattern": "^\\s*[Gg][Oo]\\s*$"},
                                    ]
                                },
                                "claim": _CLAIM,
                            },
                            "additionalProperties": False,
                        },
                    },
                    "show": {
                        "type": "array",
                        "description": "Claims in counting order: dealer's left first, the"
                        " dealer, then the crib.",
                        "items": {
                            "type": "object",
                            "required": ["by"],
                            "properties": {
                                "by": _PLAYER,
                                "crib": {"type": "boolean", "default": False},
                                "claim": _CLAIM,
                            },
                            "additionalProperties": False,
                        },
                    },
                },
                "additionalProperties": False,
            },
        },
        "result": {
            "type": "object",
            "description": "The result as declared, checked against the replay; winner is a"
            " player index (with four players either partner).",
            "properties": {
                "winner": _PLAYER,
                "loser_score": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 120,
                    "description": "The best losing score (three players: the higher of two).",
                },
                "scores": {
                    "type": "array",
                    "minItems": 2,
                    "maxItems": 3,
                    "items": {"type": "integer", "minimum": 0, "maximum": 121},
                    "description": "Final score per side: 2 sides, or 3 with three players;"
                    " with four players side 0 is seats 0 and 2, side 1 seats 1 and 3.",
                },
            },
            "additionalProperties": False,
        },
    },
    "additionalProperties": False,
}
"""JSON Schema of a game record (the lead can embed it in the OpenAPI document)."""
