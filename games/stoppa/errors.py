"""Errors and report items of the Stoppa engine.

Every problem has a stable ``code`` (listed in :data:`ERROR_CODES` and :data:`WARNING_CODES`,
and in README.md beside this file) so that an API can return it and a test can assert it, and a
message in plain words that names the card, player or amount.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# The codes the engine can produce, with a one-line meaning; README.md lists them too.
ERROR_CODES: dict[str, str] = {
    "bad_card": "a card that is not in the notation (rank A 2-7 J N K, suit d c s b)",
    "duplicate_card": "a card appears twice",
    "card_not_in_deck": (
        "a card that is not in the deck in use (a King at 6, the removed King at 3)"
    ),
    "unsupported_player_count": "a table of fewer than 3 or more than 6 players",
    "removed_king_required": "a 3-player game must name the removed King",
    "removed_king_not_allowed": "a 4- to 6-player game may not name a removed King",
    "wrong_iteration_size": "a player received the wrong number of cards in an iteration",
    "wrong_iteration_count": "the deal has the wrong number of iterations",
    "wrong_deck_size": "a deck order that is not exactly the deck in use",
    "bad_stakes": "ante, punto piccolo or punto grosso not positive, or grosso not above piccolo",
    "bad_setting": "a house setting outside its allowed values",
    "bad_amount": "an amount that is not a non-negative integer",
    "unknown_player": "a player who is not at the table",
    "duplicate_player": "a player named twice at the table",
    "bad_record": "a deal record that is not shaped as documented",
    "wrong_contest_count": "not one punto piccolo per iteration",
    "unequal_showdown_contributions": "players at the showdown did not all put in the top bet",
    "folded_with_full_bet": "a folded player had put in the top bet",
    "no_showdown": "someone bet but nobody is left to win",
    "empty_hand": "a hand with no cards",
    "invalid_declaration": "a declaration whose hand does not qualify",
    "duplicate_declaration": "the same declaration made twice by one player",
    "stop_after_declaration": "a stop phase recorded although a declaration cancelled it",
    "stop_missing": "no stop phase recorded although no declaration cancelled it",
    "illegal_rank": "a stop-phase card of a rank other than the one required",
    "wrong_opener": "a sequence opened by a player whose turn it was not",
    "card_not_held": "a stop-phase card the player does not hold",
    "multi_card_not_allowed": "several cards played at once outside the Ace and all-four rules",
    "mixed_ranks": "one play mixing ranks",
    "play_after_close": "a play after a player has closed",
    "incomplete": "a stop-phase log in which nobody goes out",
    "two_closers": "more than one player without cards at the close",
    "bad_cards_left": "a cards-left count outside 1..cards dealt",
    "winner_mismatch": "the claimed winner of a contest is not the real one",
    "closer_mismatch": "the claimed closer is not the player who went out",
    "payment_mismatch": "a claimed stop-phase payment differs from the computed one",
    "net_mismatch": "a claimed net differs from the computed one",
    "nets_not_zero": "the nets of a table do not sum to zero",
}

WARNING_CODES: dict[str, str] = {
    "missed_play": "a player could have played the required rank but was passed over",
    "undeclared_misera": "a hand qualified for misera but it was not declared",
    "undeclared_four_kings": "a hand held four Kings but it was not declared",
    "undeclared_no_stop": "a hand qualified for the no-stop rule but it was not declared",
}


def plain_params(params: Mapping[str, Any] | None) -> dict[str, Any]:
    """``params`` made JSON-ready: text, numbers, booleans and None kept, anything else (a
    ``Card``, a tuple of names) as its text."""
    if not params:
        return {}
    return {
        key: value if value is None or isinstance(value, (str, int, float)) else str(value)
        for key, value in params.items()
    }


class StoppaError(ValueError):
    """A rule or input problem, with a stable ``code``, a message naming the problem and the
    ``params`` the message names (so that it can be said again in another language)."""

    def __init__(
        self,
        code: str,
        message: str,
        where: str = "",
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.where = where
        self.params: Mapping[str, Any] = plain_params(params)

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def to_issue(self) -> Issue:
        """The error as a report item."""
        return Issue(self.code, self.message, self.where, self.params)


@dataclass(frozen=True, slots=True)
class Issue:
    """One error or warning of a report: its code, the message, where in the record, and the
    values the message names (``params``; not part of equality)."""

    code: str
    message: str
    where: str = ""
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        # frozen: the params are normalised once here (JSON-ready), hence object.__setattr__
        object.__setattr__(self, "params", plain_params(self.params))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "code": self.code,
            "message": self.message,
            "where": self.where,
            "params": dict(self.params),
        }
