"""The money desk's lines in the reader's words, built when they are shown: the night
ledger's lines and the money entries of the event's audit log.

The stored ledger keeps its English ``label`` (the API and old exports read it) and the audit
log its raw values; neither is shown as it is. ``books`` stays pure: its lines carry codes
(the pot, the item, the entry, "place 3"), and the words are chosen here, in the language of
the page. A line or an action this module does not know (a later item of the books) still reads
as words, never as a raw code or dict.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Protocol

from django.utils.formats import number_format
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from books.pools import INCOMING, MAIN_POT, LedgerItem

from .models import LedgerLine, Payment

# books.pools.night_ledger labels a main-pot payout "place 3": the place, for the sentence.
PLACE_LABEL = re.compile(r"^place (\d+)$")
# An unpaid winner's fee kept from the prize (main's books.pools.SETTLED_LABEL): a main-pot
# line to the club or carried, naming the entry.
SETTLED_LABEL = "fee settled from the prize"


class LineLike(Protocol):
    """A ledger line, stored (``treasury.models.LedgerLine``) or previewed (``books``)."""

    pot: str
    item: Any
    amount: Decimal
    entry_id: Any
    label: str


@dataclass(frozen=True)
class LedgerRow:
    """A ledger line as shown: its sentence and its amount, in or out."""

    sentence: str
    amount: Decimal
    incoming: bool


def amount_text(value: Any) -> str:
    """An amount in the reader's format ("1.234,50" in Italian); text that is no amount as
    it is."""
    try:
        return number_format(Decimal(str(value)), 2, use_l10n=True, force_grouping=True)
    except (InvalidOperation, ValueError, TypeError):
        return str(value)


def _words(code: Any) -> str:
    """A code nobody translated yet, readable: "fee_from_prize" -> "fee from prize"."""
    return str(code).replace("_", " ")


def ledger_sentence(line: LineLike, names: Mapping[Any, str]) -> str:
    """One ledger line as a sentence in the page's language: "Entry fees", "Prize: place 1,
    Anna Rossi", "29 hand: carried to the next event"."""
    item = str(getattr(line.item, "value", line.item))
    name = getattr(line, "name", "") or names.get(line.entry_id, "")
    place = PLACE_LABEL.match(line.label or "")
    if line.pot == MAIN_POT:
        if item == LedgerItem.TAKINGS:
            return _("Entry fees")
        if item == LedgerItem.CARRIED_IN:
            return _("Carried in from the last event")
        if item == LedgerItem.HELD_BACK:
            return (
                _("Held back for %(name)s") % {"name": line.label} if line.label else _("Held back")
            )
        if item == LedgerItem.PAYOUT and place:
            return _("Prize: place %(place)s, %(name)s") % {"place": place[1], "name": name}
        if item == LedgerItem.PAYOUT:
            return _("Prize: %(name)s") % {"name": name}
        settled = line.label == SETTLED_LABEL or (line.entry_id is not None and name)
        if item == LedgerItem.TO_CLUB and settled:
            return _("Fee of %(name)s settled from the prize, to the club") % {"name": name}
        if item == LedgerItem.CARRIED_OUT and settled:
            return _("Fee of %(name)s settled from the prize, carried to the next event") % {
                "name": name
            }
        if item == LedgerItem.TO_CLUB:
            return _("Remainder to the club")
        if item == LedgerItem.CARRIED_OUT:
            return _("Carried to the next event")
    pool_sentences = {
        LedgerItem.TAKINGS: _("%(pool)s: stakes"),
        LedgerItem.CARRIED_IN: _("%(pool)s: carried in from the last event"),
        LedgerItem.HELD_BACK: _("%(pool)s: kept by the club"),
        LedgerItem.PAYOUT: _("%(pool)s: won by %(name)s"),
        LedgerItem.TO_CLUB: _("%(pool)s: to the club"),
        LedgerItem.CARRIED_OUT: _("%(pool)s: carried to the next event"),
    }
    if line.pot != MAIN_POT and item in pool_sentences:
        return pool_sentences[LedgerItem(item)] % {"pool": line.pot, "name": name}
    # An item added to the books after these words: its label if it has one, else its code.
    labels = dict(LedgerLine.Item.choices)
    what = str(labels[item]) if item in labels else capfirst(_words(item))
    pot = _("Entry fees") if line.pot == MAIN_POT else line.pot
    sentence = _("%(pot)s: %(what)s") % {"pot": pot, "what": what}
    return f"{sentence}, {name}" if name else sentence


def ledger_rows(lines: Iterable[LineLike], names: Mapping[Any, str]) -> list[LedgerRow]:
    """The ledger's lines with an amount, as sentences, each in or out."""
    return [
        LedgerRow(
            ledger_sentence(line, names),
            line.amount,
            str(getattr(line.item, "value", line.item)) in INCOMING,
        )
        for line in lines
        if line.amount
    ]


# --- The audit log's money entries -----------------------------------------------------------

MONEY_ACTIONS = frozenset(
    {
        "fees_set",
        "payment",
        "pool_stake",
        "pool_winners",
        "night_closed",
        "night_reopened",
        "payouts_to_recheck",
    }
)


def plain(value: Any) -> str:
    """Any audit value as words: a dict as "key value, ...", a list joined, never braces."""
    if isinstance(value, Mapping):
        return ", ".join(f"{_words(k)} {plain(v)}".strip() for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(plain(v) for v in value)
    return "" if value is None else str(value)


def _status(values: Mapping[str, Any]) -> str:
    """A payment's state mid-sentence: "paid 10,00", "unpaid", "waived"."""
    status = values.get("status")
    if status == Payment.Status.PAID:
        return pgettext("payment", "paid %(amount)s") % {
            "amount": amount_text(plain(values.get("amount")))
        }
    if status == Payment.Status.UNPAID:
        return pgettext("payment", "unpaid")
    if status == Payment.Status.WAIVED:
        return pgettext("payment", "waived")
    return _words(plain(status))


def payment_said(player: str, status: str, amount: Any) -> str:
    """What the door says after a mark: "Anna Rossi: paid 10,00" (the live region)."""
    return _("%(player)s: %(now)s") % {
        "player": player,
        "now": _status({"status": status, "amount": amount}),
    }


def check_in_said(player: str, here: bool) -> str:
    """What the door says after a check-in: "Anna Rossi: checked in"."""
    if here:
        return _("%(player)s: checked in") % {"player": player}
    return _("%(player)s: not checked in") % {"player": player}


def stake_said(pool: str, player: str, count: int) -> str:
    """What the door says after a pool's toggle: "Q-pool: Anna Rossi takes part"."""
    return _stake({"pool": pool, "player": player, "count": count})


def _payment(old: Mapping[str, Any], new: Mapping[str, Any], reason_shown: bool) -> str:
    player = plain(new.get("player") or old.get("player")) or "?"
    if old.get("status"):
        said = _("%(player)s: %(now)s (before: %(before)s)") % {
            "player": player,
            "now": _status(new),
            "before": _status(old),
        }
    else:
        said = _("%(player)s: %(now)s") % {"player": player, "now": _status(new)}
    if new.get("reason") and not reason_shown:
        said += " · " + _("reason: %(reason)s") % {"reason": plain(new["reason"])}
    return said


# What the TD chose at the close for an unpaid player in the money (main's UnpaidChoice).
UNPAID_CHOICES = {
    "settle": lambda: _("the prize settles the fee"),
    "pass_down": lambda: _("the place passes down"),
}


def _closed(new: Mapping[str, Any]) -> str:
    """The close: what each pot carried, who had not paid, what the TD chose for them."""
    pots = _pots(new.get("balances") or {})
    if pots:
        parts = [_("Night closed: carried %(pots)s") % {"pots": pots}]
    else:
        parts = [_("Night closed: nothing carried")]
    owing = [plain(name) for name in new.get("owing") or []]
    if owing:
        parts.append(_("not paid: %(names)s") % {"names": ", ".join(owing)})
    for player, choice in (new.get("choices") or {}).items():
        words = UNPAID_CHOICES.get(str(choice))
        parts.append(f"{plain(player)}: {words() if words else _words(plain(choice))}")
    return "; ".join(parts)


def _pots(balances: Mapping[str, Any], *, empty: bool = False) -> str:
    """Pots and amounts: "main pot 2,00, 29 hand 15,00" (empty pots left out unless
    ``empty``)."""
    parts = []
    for pot, amount in balances.items():
        try:
            if not empty and not Decimal(str(amount)):
                continue
        except InvalidOperation:
            pass
        label = _("main pot") if pot == MAIN_POT else pot
        parts.append(f"{label} {amount_text(amount)}")
    return ", ".join(parts)


def _fees(old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    fee, before = new.get("entry_fee"), old.get("entry_fee")
    if before is not None and before != fee:
        parts = [
            _("entry fee %(fee)s (before: %(before)s)")
            % {"fee": amount_text(fee), "before": amount_text(before)}
        ]
    else:
        parts = [_("entry fee %(fee)s") % {"fee": amount_text(fee)}]
    if "pools" in new:
        pools = _pots(new["pools"] or {}, empty=True)
        parts.append(_("side pools: %(pools)s") % {"pools": pools} if pools else _("no side pools"))
    moved = int(new.get("payments_moved_to_the_fee") or 0)
    if moved:
        parts.append(
            ngettext(
                "%(n)s payment of the old fee moved to the new one",
                "%(n)s payments of the old fee moved to the new one",
                moved,
            )
            % {"n": moved}
        )
    return capfirst("; ".join(parts))


def _stake(new: Mapping[str, Any]) -> str:
    count = int(new.get("count") or 0)
    values = {"pool": plain(new.get("pool")), "player": plain(new.get("player")), "count": count}
    if count == 0:
        return _("%(pool)s: %(player)s no longer takes part") % values
    if count == 1:
        return _("%(pool)s: %(player)s takes part") % values
    return (
        ngettext(
            "%(pool)s: %(player)s takes part with %(count)s stake",
            "%(pool)s: %(player)s takes part with %(count)s stakes",
            count,
        )
        % values
    )


def _winners(new: Mapping[str, Any]) -> str:
    winners = [plain(w) for w in new.get("winners") or []]
    pool = plain(new.get("pool"))
    if not winners:
        return _("%(pool)s: no winners named, they are found again") % {"pool": pool}
    return ngettext("%(pool)s: winner %(names)s", "%(pool)s: winners %(names)s", len(winners)) % {
        "pool": pool,
        "names": ", ".join(winners),
    }


def money_audit_sentence(action: str, old: Any, new: Any, *, reason_shown: bool = False) -> str:
    """A money action of the audit log as one sentence in the page's language ("" for an
    action that is not the money desk's): "Anna Rossi: paid 10,00 (before: unpaid)",
    "Night closed: carried main pot 2,00, 29 hand 15,00". A payment's reason is said unless
    the log shows the entry's own ``reason`` beside it (``reason_shown``)."""
    if action not in MONEY_ACTIONS:
        return ""
    old = old if isinstance(old, Mapping) else {}
    new = new if isinstance(new, Mapping) else {}
    try:
        if action == "payment":
            return _payment(old, new, reason_shown)
        if action == "fees_set":
            return _fees(old, new)
        if action == "pool_stake":
            return _stake(new)
        if action == "pool_winners":
            return _winners(new)
        if action == "night_closed":
            return _closed(new)
        if action == "night_reopened":
            return _("Night re-opened: the pots are back at what they started it with")
        return _("A result changed after the close: check the payouts again")
    except (TypeError, ValueError, AttributeError):
        # A row of another shape (written by a later version): its values as words.
        return " → ".join(part for part in (plain(old), plain(new)) if part)
