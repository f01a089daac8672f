"""The Stoppa engine's errors and report items (``StoppaError``, ``Issue``) in the user's
language, by their stable code (``games.stoppa.ERROR_CODES`` and ``WARNING_CODES``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.stoppa import Issue, StoppaError

from . import Template, render

MESSAGES: dict[str, Template] = {
    "bad_card": (
        _(
            "%(player)s: %(text)s is not a card: write the rank (A 2-7 J N K) then the suit "
            "(d c s b), e.g. 7d, or the Italian name, e.g. sette di denari."
        ),
        _(
            "%(text)s is not a card: write the rank (A 2-7 J N K) then the suit (d c s b), "
            "e.g. 7d, or the Italian name, e.g. sette di denari."
        ),
        _("%(count)s cards is more than any hand holds."),
        _("%(length)s characters is far too long for a hand."),
        _("Write the cards as text or as a list of cards."),
    ),
    "duplicate_card": (
        _("Card %(card)s is given to both %(other)s and %(player)s."),
        _("%(player)s: card %(card)s appears twice."),
        _("Card %(card)s appears twice."),
    ),
    "card_not_in_deck:six_players": _("%(card)s is not in play: there are no Kings at 6 players."),
    "card_not_in_deck": (
        _("%(card)s is not in play: it was removed for the 3-player game."),
        _("%(card)s is not in the deck in use."),
    ),
    "unsupported_player_count": (
        _("%(count)s hands for a table of %(table_size)s."),
        _("This cannot be played by %(count)s players."),
        _("Stoppa is played by 3 to 6 players, not %(players)s."),
    ),
    "removed_king_required": (
        _("The card removed at 3 players must be a King, not %(card)s."),
        _("A 3-player game must name the King removed from the deck."),
    ),
    "removed_king_not_allowed": _(
        "Only a 3-player game removes a King; this table has %(players)s players."
    ),
    "wrong_iteration_size": (
        _("At %(players)s players each receives %(size)s cards; %(player)s has %(count)s."),
        _(
            "Each player receives the same number of cards: %(other)s has %(size)s, "
            "%(player)s has %(count)s."
        ),
        _("An iteration deals %(allowed)s card(s) to each player; %(player)s has %(count)s."),
        _("Iteration %(iteration)s deals %(size)s card(s) each; %(player)s has %(count)s."),
        _("This iteration deals %(size)s card(s); %(player)s shows %(count)s."),
        _("%(player)s has the wrong number of cards (%(count)s)."),
    ),
    "wrong_iteration_count": _(
        "%(players)s players play %(iterations)s iterations (%(schedule)s); the deal has %(count)s."
    ),
    "wrong_deck_size": _(
        "The deck order has %(count)s cards; %(players)s players use %(expected)s."
    ),
    "bad_stakes": (
        _(
            "The punto grosso %(grosso)s (pot %(pot)s less %(iterations)s x %(piccolo_value)s) "
            "must be above the punto piccolo %(piccolo_value)s."
        ),
        _("%(name)s must be a positive whole number, not %(value)s."),
        _("The stakes are not valid."),
    ),
    "bad_setting": (
        _("The setting %(name)s cannot be %(value)s."),
        _("Unknown setting(s): %(fields)s."),
        _("The settings are not valid: %(error)s."),
        _("The settings are not valid."),
    ),
    "bad_amount": (
        _("%(player)s's contribution must be a whole number, 0 or more, not %(value)s."),
        _("%(player)s's cards left must be a count, not %(count)s."),
        _("%(name)s must be a positive whole number, not %(value)s."),
        _("The cards left must give each player a count."),
    ),
    "unknown_player": (
        _("%(player)s is not at the table."),
        _("A player named here is not at the table."),
    ),
    "duplicate_player": (
        _("%(player)s is listed twice."),
        _("A player is listed twice."),
    ),
    "bad_record": (
        _("The record has unknown field(s): %(fields)s."),
        _("The record is not valid JSON: %(error)s."),
        _("The record could not be read: %(error)s."),
        _("The record is over %(limit)s characters."),
        _("The field %(field)s is missing or has the wrong type."),
        _("The record of %(player)s is missing or not shaped as documented."),
        _("The record is not shaped as documented."),
    ),
    "wrong_contest_count": _("%(iterations)s punti piccoli are played; the record has %(count)s."),
    "unequal_showdown_contributions": _(
        "%(player)s is at the showdown with %(amount)s but the top bet is %(top)s."
    ),
    "folded_with_full_bet": _("%(player)s folded after putting in the top bet %(top)s."),
    "no_showdown": (
        _("Someone bet %(top)s but nobody is left to win."),
        _("There is nobody to compare."),
    ),
    "empty_hand": (
        _("%(player)s has no cards."),
        _("A hand needs at least one card."),
    ),
    "invalid_declaration:misera": (
        _("%(player)s declared misera but holds a figure (J, N or K)."),
    ),
    "invalid_declaration:four_kings": (
        _("%(player)s declared four Kings but does not hold all four."),
    ),
    "invalid_declaration": (
        _("%(player)s declared %(kind)s but the hand does not qualify."),
        _("%(kind)s is not a declaration: use one of %(allowed)s."),
    ),
    "duplicate_declaration": _("%(player)s declared %(kind)s twice."),
    "stop_after_declaration": _("A declaration cancelled the stop phase, but the record has one."),
    "stop_missing": _(
        "No declaration cancelled the stop phase: record its log, or its closer and cards left."
    ),
    "illegal_rank": _("%(player)s plays %(cards)s but the sequence needs a %(rank)s."),
    "wrong_opener": _("%(opener)s opens the next sequence, not %(player)s."),
    "card_not_held": _("%(player)s does not hold %(card)s."),
    "multi_card_not_allowed": _(
        "%(player)s plays %(count)s cards (%(cards)s) at once: only Aces when opening or on an "
        "Ace, or all %(all)s of a rank together."
    ),
    "mixed_ranks": _("%(player)s plays %(cards)s: one rank per play."),
    "play_after_close": _("%(player)s plays %(cards)s after %(closer)s closed."),
    "incomplete": _("The log ends before any player has gone out."),
    "two_closers": _("%(player)s also has no cards: only %(other)s went out."),
    "bad_cards_left": (
        _("%(player)s has %(count)s cards left; between 1 and %(per_player)s are possible."),
        _("The closer %(player)s cannot have %(count)s card(s) left."),
    ),
    "winner_mismatch": (
        _(
            "Punto piccolo %(iteration)s: the winner claimed is %(claimed)s, "
            "the real winner %(actual)s (%(decided_by)s)."
        ),
        _(
            "Punto grosso: the winner claimed is %(claimed)s, "
            "the real winner %(actual)s (%(decided_by)s)."
        ),
    ),
    "closer_mismatch": _("The closer claimed is %(claimed)s; %(actual)s went out."),
    "payment_mismatch": _("Stop payment of %(player)s: %(claimed)s claimed, %(actual)s actually."),
    "net_mismatch": _("Net of %(player)s: %(claimed)s claimed, %(actual)s actually."),
    "nets_not_zero": _("The claimed nets sum to %(total)s, not 0."),
    "missed_play": _("%(player)s could play a %(rank)s before %(other)s."),
    "undeclared_misera": _(
        "%(player)s could have declared misera but did not; the game as played stands."
    ),
    "undeclared_four_kings": _(
        "%(player)s could have declared four Kings but did not; the game as played stands."
    ),
    "undeclared_no_stop": _(
        "%(player)s could have declared no-stop but did not; the game as played stands."
    ),
}
"""Templates of every Stoppa code, errors and warnings."""

WORDS = {
    "misera": _("misera"),
    "four_kings": _("four Kings"),
    "no_stop": _("no-stop"),
    "piccolo": _("punto piccolo"),
    "grosso": _("punto grosso"),
    "no_bets": _("nobody bet: the dealer takes it"),
    "uncontested": _("only one player left"),
    "count": _("decided by most cards of one suit"),
    "points": _("decided by points"),
    "priority": _("decided by priority"),
}
"""The engine's stable words that appear as params (``kind``, ``contest``, ``decided_by``)."""


def describe(code: str, params: Mapping[str, Any] | None, fallback: str = "") -> str:
    """A Stoppa error or report item (``code``, ``params``) in the active language;
    ``fallback`` (the engine's English message) for a code without a template."""
    return render(MESSAGES, WORDS, code, params, fallback)


def describe_error(error: StoppaError | Issue) -> str:
    """A ``StoppaError`` or an ``Issue`` in the active language."""
    return describe(error.code, error.params, error.message)
