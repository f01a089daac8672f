"""The cribbage engine's errors (``CribbageError``/``CardError``) and record problems
(``Problem`` of ``verify_game``) in the user's language, by their stable code."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.cribbage import CribbageError, Problem

from . import Template, render

ERROR_MESSAGES: dict[str, Template] = {
    "bad_input": _("This is not valid input."),
    "bad_card": _(
        "%(text)s is not a card: write the rank (A, 2-10, J, Q, K) then the suit "
        "(S, H, D, C or ♠ ♥ ♦ ♣), e.g. 5H, 10S or 5♥."
    ),
    "bad_rank": _("%(rank)s is not a card rank: 1 (ace) to 13 (king)."),
    "bad_suit": _("%(suit)s is not a suit: S, H, D or C."),
    "bad_cards": _("%(text)s is not a list of cards: write them separated by spaces."),
    "duplicate_card:hand and starter": _("%(card)s appears twice in the hand and starter."),
    "duplicate_card:crib and starter": _("%(card)s appears twice in the crib and starter."),
    "duplicate_card:pile": _("%(card)s appears twice in the pile."),
    "duplicate_card:dealt": _("%(card)s is given twice among the cards dealt and seen."),
    "duplicate_card": _("%(card)s appears twice."),
    "wrong_count:hand": _("A hand has 4 cards after the discard, not %(count)s."),
    "wrong_count:crib": _("A crib has 4 cards, not %(count)s."),
    "wrong_count:starter": _("The starter is one card, not %(count)s."),
    "wrong_count:dealt": _("%(players)s players are dealt %(expected)s cards each, not %(count)s."),
    "wrong_count": _("Wrong number of cards: %(count)s."),
    "empty_pile": _("The pile is empty: give the cards laid since the count was reset."),
    "pile_over_31": _("The count passes 31 (%(count)s) when %(card)s is laid."),
    "unknown_target": _("%(target)s is not a game length: play to %(allowed)s."),
    "bad_loser_score": _("The loser's score must be a whole number, not %(score)s."),
    "loser_score_out_of_range": _("The loser's score %(score)s is not between 0 and %(top)s."),
    "unknown_claim_kind": _("%(kind)s is not something to count: a hand, a crib or the play."),
    "bad_claim_points": _("The points claimed must be a whole number, 0 or more, not %(claimed)s."),
    "starter_missing:hand": _("A hand is counted with the starter: give the starter."),
    "starter_missing:crib": _("A crib is counted with the starter: give the starter."),
    "starter_missing": _("Give the starter."),
    "bad_player_count": _("Cribbage is played by 2, 3 or 4 players, not %(players)s."),
    "too_many_seen": _(
        "Only %(count)s cards are unseen: the crib and the starter need %(needed)s."
    ),
    "wrong_score_count": _(
        "%(players)s players make %(expected)s sides: give %(expected)s scores, not %(count)s."
    ),
    "partners_differ": _(
        "Partners %(player)s and %(partner)s share one score, not %(score)s and %(partner_score)s."
    ),
    "bad_table_score": _("Side %(side)s's score must be a whole number, 0 or more, not %(score)s."),
    "score_past_target": _(
        "Side %(side)s has %(score)s: the game stops at %(target)s, points past it are not scored."
    ),
    "no_winner": _("No side reached %(target)s: the game is not finished."),
    "several_winners": _(
        "Sides %(sides)s all reached %(target)s: the game ends when the first one does."
    ),
}
"""Templates of ``CribbageError.code`` (``games.cribbage.ERROR_CODES``)."""

PROBLEM_MESSAGES: dict[str, Template] = {
    "malformed": _("This part of the record is not filled in right."),
    "bad_card": (
        _("%(text)s is not a card."),
        _("A card is not valid."),
    ),
    "card_twice": _("%(card)s is used twice in this deal."),
    "wrong_hand_size": _("%(count)s cards where %(expected)s are needed."),
    "discard_mismatch": _("%(card)s does not match the cards player %(player)s was dealt."),
    "wrong_dealer": _("The deal passes to the left: player %(expected)s deals, not %(dealer)s."),
    "card_not_in_hand": _("Player %(player)s does not hold %(card)s."),
    "past_31": _("%(card)s takes the count from %(count)s to %(new_count)s, past 31."),
    "illegal_go": _("Player %(player)s said go at %(count)s but could lay a card."),
    "out_of_turn": (
        _("Player %(player)s played %(card)s when it was player %(expected)s's turn."),
    ),
    "cards_unplayed": _("The play ends with cards still held by player(s) %(players)s."),
    "result_mismatch": _("The declared result (%(claimed)s) differs from the replay (%(actual)s)."),
    "internal_error": _("The checker failed on this record; please tell the tournament director."),
    "claim_mismatch": _("%(what)s: %(claimed)s points claimed, %(true)s true."),
    "show_order": _(
        "The show is counted from the dealer's left round to the dealer, then the crib; "
        "the counts were scored in that order."
    ),
    "after_game_end": _("The game was over before this: it is not scored."),
    "game_unfinished": _("Nobody reaches %(target)s in this record."),
}
"""Templates of ``Problem.code`` (``games.cribbage.PROBLEM_CODES``)."""

WORDS = {
    "hand": _("hand"),
    "crib": _("crib"),
    "pile": _("pile"),
    "cards": _("cards"),
    "starter": _("starter"),
    "hands": _("hands"),
    "dealt": _("dealt cards"),
    "go": _("go"),
    "heels": _("his heels"),
    "play": _("play"),
}
"""The engine's stable words that appear as params (``what``, ``kind``)."""


def describe(code: str, params: Mapping[str, Any] | None, fallback: str = "") -> str:
    """A ``CribbageError`` in the active language (``fallback``: the English message)."""
    return render(ERROR_MESSAGES, WORDS, code, params, fallback)


def describe_error(exc: CribbageError) -> str:
    """``exc`` (a ``CribbageError`` or ``CardError``) in the active language."""
    return describe(exc.code, exc.params, exc.message)


def describe_problem(code: str, params: Mapping[str, Any] | None, fallback: str = "") -> str:
    """A ``verify_game`` problem (its ``code`` and ``params``) in the active language."""
    return render(PROBLEM_MESSAGES, WORDS, code, params, fallback)


def problem_text(problem: Problem | Mapping[str, Any]) -> str:
    """A ``Problem`` or its ``to_dict()`` in the active language."""
    if isinstance(problem, Problem):
        return describe_problem(problem.code, problem.params, problem.message)
    return describe_problem(
        str(problem.get("code", "")), problem.get("params"), str(problem.get("message", ""))
    )
