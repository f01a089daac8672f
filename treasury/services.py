"""Writes of the money desk; every function is one transaction and leaves an audit entry.

Fees, the door (paid / unpaid / waived, one call per keystroke), the pools' stakes and
winners, and closing the night: the ledger stored, the balances carried to the club's next
event (with the event's results version then: a result corrected after the close shows its
payouts to re-check, ``selectors.payouts_to_recheck``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from books.pools import MAIN_POT, LedgerItem
from core.errors import ServiceError
from tournaments.audit_chain import append_audit
from tournaments.models import AuditEntry, Club, Entry, Event
from tournaments.services import acting_user, actor_name, set_checked_in
from tournaments.services._common import UserLike

from . import access, selectors
from .amounts import MAX_FEES_IN_ONE_PAYMENT, parse_count

# The club's own rules live in .club_services; callers reach every money write here too.
from .club_services import (  # noqa: F401
    REASON_LENGTH,
    as_money,
    audit_club_money,
    create_pool,
    money_settings,
    parse_reason,
    set_club_money,
    set_club_role,
)
from .error_codes import TreasuryError
from .models import (
    ZERO,
    ClubMoney,
    EventFees,
    EventPool,
    LedgerLine,
    NightLedger,
    Payment,
    PoolEntry,
    PoolWin,
    SidePool,
    UnpaidChoice,
    UnpaidRule,
)

# Pools a player joins once a night (a hand pool, a Q-pool); a skunk pot counts skunks, at most
# two a game (a double skunk).
ONE_STAKE_KINDS = frozenset(
    {
        SidePool.Kind.Q_POOL,
        SidePool.Kind.HAND_24,
        SidePool.Kind.HAND_28,
        SidePool.Kind.HAND_29,
        SidePool.Kind.FOUR_OF_A_KIND,
        SidePool.Kind.OTHER,
    }
)


def _audit(event: Event, user: UserLike, action: str, old: Any, new: Any, reason: str = "") -> None:
    entry = AuditEntry(
        event=event,
        user=acting_user(user),
        actor=actor_name(user),
        action=action,
        old=old,
        new=new,
        reason=reason,
    )
    append_audit(event, [entry])  # at the end of the event's hash chain


def money_lock(event: Event) -> Event:
    """The event under its row lock, cancelled or not: a cancelled night's money is still to
    be settled (refunds marked, the night closed or re-opened), as any other's."""
    return Event.objects.select_for_update().get(pk=event.pk)


def _open(event: Event) -> Event:
    """The event under its row lock, refused once its night is closed (its books are kept)."""
    event = money_lock(event)
    if NightLedger.objects.filter(event=event).exists():
        raise ServiceError(
            TreasuryError.NIGHT_CLOSED,
            _("The night is closed: re-open it on the money desk to change its money."),
        )
    return event


def _entry(event: Event, entry_id: int) -> Entry:
    entry = Entry.objects.filter(event=event, pk=entry_id).select_related("player").first()
    if entry is None:
        raise ServiceError(
            TreasuryError.UNKNOWN_ENTRY, _("No such entry in this event."), field="entry"
        )
    return entry


def _pool(club: Club, pool_id: int) -> SidePool:
    pool = SidePool.objects.filter(club=club, pk=pool_id).first()
    if pool is None:
        raise ServiceError(
            TreasuryError.UNKNOWN_POOL, _("No such pool in this club."), field="pool"
        )
    return pool


# --- The event's fees ----------------------------------------------------------------------------


@transaction.atomic
def set_event_fees(
    event: Event,
    entry_fee: Any,
    pools: Mapping[int, Any] | None = None,
    *,
    user: UserLike = None,
) -> EventFees:
    """Set the event's entry fee and (when ``pools`` is given) the pools run tonight with
    their fees, pool id -> fee; a pool left out is not run tonight. Audited."""
    event = _open(event)
    fee = as_money(entry_fee, "entry_fee")
    club = selectors.club_money(event.club)
    if fee and fee < club.coin:
        raise ServiceError(
            TreasuryError.BAD_COIN,
            _("The fee is less than the club's smallest coin (%(coin)s).") % {"coin": club.coin},
            field="entry_fee",
        )
    if club.hold_back_per_entrant > fee:
        raise ServiceError(
            TreasuryError.BAD_MONEY,
            _("The club holds back %(held)s a player: the fee cannot be less.")
            % {"held": club.hold_back_per_entrant},
            field="entry_fee",
        )
    fees, _created = EventFees.objects.get_or_create(
        event=event, defaults={"entry_fee": selectors.club_money(event.club).entry_fee}
    )
    old: dict[str, Any] = {"entry_fee": str(fees.entry_fee)}
    new: dict[str, Any] = {"entry_fee": str(fee)}
    if fee != fees.entry_fee:
        # Who paid the old fee paid tonight's fee: the door's takings stay the sheet's. The
        # payments so moved are counted in the fees' audit row (each one's amount changed).
        moved = Payment.objects.filter(
            event=event, status=Payment.Status.PAID, amount=fees.entry_fee
        ).update(amount=fee)
        if moved:
            new["payments_moved_to_the_fee"] = moved
    fees.entry_fee = fee
    fees.save(update_fields=["entry_fee"])
    if pools is not None:
        current = {
            p.pool_id: p for p in EventPool.objects.filter(event=event).select_related("pool")
        }
        wanted: dict[int, Decimal] = {}
        for pk, pool_fee in pools.items():
            pool = _pool(event.club, int(pk))
            if not pool.active and pool.pk not in current:  # retired: no new night runs it
                raise ServiceError(
                    TreasuryError.POOL_RETIRED,
                    _("%(pool)s is retired.") % {"pool": pool.name},
                    field="pools",
                )
            wanted[pool.pk] = as_money(pool_fee, "pools")
        old["pools"] = {p.pool.name: str(p.fee) for p in current.values()}
        EventPool.objects.filter(event=event).exclude(pool_id__in=wanted).delete()
        for pk, pool_fee in wanted.items():
            EventPool.objects.update_or_create(event=event, pool_id=pk, defaults={"fee": pool_fee})
        names = dict(SidePool.objects.filter(club=event.club).values_list("pk", "name"))
        new["pools"] = {names[pk]: str(f) for pk, f in wanted.items()}
    if old != new:
        _audit(event, user, "fees_set", old, new)
    return fees


# --- The door ------------------------------------------------------------------------------------


@transaction.atomic
def set_payment(
    event: Event,
    entry_id: int,
    status: str,
    *,
    amount: Any = None,
    reason: Any = "",
    user: UserLike = None,
) -> Payment:
    """Mark an entry paid, unpaid or waived (one keystroke at the door). Audited.

    A paid entry pays the event's fee unless ``amount`` says otherwise: a part payment, a
    discount or two nights at once, each with its ``reason`` (at most ten fees); paying
    nothing is not paying (mark it waived, or leave it unpaid). Unpaid and waived hold 0.
    """
    if status not in Payment.Status.values:
        raise ServiceError(
            TreasuryError.BAD_PAYMENT_STATUS,
            _("The status is one of: paid, unpaid, waived."),
            field="status",
        )
    why = parse_reason(reason)
    event = _open(event)
    entry = _entry(event, entry_id)
    paid = Decimal("0.00")
    if status == Payment.Status.PAID:
        fee = selectors.event_fees(event).entry_fee
        paid = fee if amount in (None, "") else as_money(amount)
        if fee and not paid:
            raise ServiceError(
                TreasuryError.PAID_NOTHING,
                _("Nothing paid is not paid: mark the player waived, or leave them unpaid."),
                field="amount",
            )
        if fee and paid > fee * MAX_FEES_IN_ONE_PAYMENT:
            raise ServiceError(
                TreasuryError.BAD_MONEY,
                _("A payment is at most %(n)s times the fee (%(most)s).")
                % {"n": MAX_FEES_IN_ONE_PAYMENT, "most": fee * MAX_FEES_IN_ONE_PAYMENT},
                field="amount",
            )
        if paid != fee and not why:
            raise ServiceError(
                TreasuryError.REASON_NEEDED,
                _("%(paid)s is not the fee of %(fee)s: say why (part paid, a discount...).")
                % {"paid": paid, "fee": fee},
                field="reason",
            )
    payment, created = Payment.objects.get_or_create(entry=entry, defaults={"event": event})
    if (payment.status, payment.amount, payment.reason) == (status, paid, why) and not created:
        return payment
    old = {"player": entry.name, "status": payment.status, "amount": str(payment.amount)}
    if payment.reason:
        old["reason"] = payment.reason
    payment.status, payment.amount, payment.reason = status, paid, why
    payment.by = acting_user(user)
    payment.save()
    new = {"player": entry.name, "status": status, "amount": str(paid)}
    if why:
        new["reason"] = why
    _audit(event, user, "payment", old, new, reason=why)
    return payment


def check_in_at_the_door(event: Event, entry: Entry, here: bool, *, user: UserLike) -> Entry:
    """Check an entry in or out beside its payment. A treasurer does so only before the first
    draw (after it, who plays is the TD's: a withdrawal); a TD at any time. Audited."""
    if user is not None and not access.directs(user, event.club) and event.rounds.exists():
        raise ServiceError(
            TreasuryError.TD_ONLY,
            _("The first game is drawn: only the TD checks players in or out now."),
            field="here",
        )
    return set_checked_in(entry, here, user=user)


# --- Pools: stakes and winners -------------------------------------------------------------------


@transaction.atomic
def set_pool_stake(
    event: Event, pool_id: int, entry_id: int, count: Any = 1, *, user: UserLike = None
) -> int:
    """Put an entry into an event's pool (``count`` stakes: skunks, for a skunk pot, at most
    two a game; one for any other pool), or take it out (0). Returns the count. Audited."""
    event = _open(event)
    pool = _pool(event.club, pool_id)
    if not EventPool.objects.filter(event=event, pool=pool).exists():
        raise ServiceError(
            TreasuryError.UNKNOWN_POOL, _("That pool is not run tonight."), field="pool"
        )
    count = parse_count(count)
    most = 1 if pool.kind in ONE_STAKE_KINDS else 2 * event.games_planned
    if count > most:
        raise ServiceError(
            TreasuryError.BAD_STAKE,
            ngettext(
                "%(pool)s takes at most %(n)s stake a player.",
                "%(pool)s takes at most %(n)s stakes a player (two skunks a game).",
                most,
            )
            % {"pool": pool.name, "n": most},
            field="count",
        )
    entry = _entry(event, entry_id)
    stake = PoolEntry.objects.filter(event=event, pool=pool, entry=entry).first()
    before = stake.count if stake else 0
    if before == count:
        return count
    if count == 0 and stake is not None:
        stake.delete()
    elif stake is None:
        PoolEntry.objects.create(event=event, pool=pool, entry=entry, count=count)
    else:
        stake.count = count
        stake.save(update_fields=["count"])
    _audit(
        event,
        user,
        "pool_stake",
        {"pool": pool.name, "player": entry.name, "count": before},
        {"pool": pool.name, "player": entry.name, "count": count},
    )
    return count


@transaction.atomic
def set_pool_winners(
    event: Event,
    pool_id: int,
    entry_ids: Sequence[int],
    *,
    payout_percent: Any = None,
    user: UserLike = None,
) -> list[PoolWin]:
    """Name the winners of an event's pool, in order (a 29 hand held, a draw won); none:
    the winners are derived again (the Q-pool's qualifiers, the logged hands). Audited."""
    event = _open(event)
    pool = _pool(event.club, pool_id)
    if len(set(entry_ids)) != len(entry_ids):
        raise ServiceError(
            TreasuryError.BAD_POOL_WINNERS, _("A winner is named twice."), field="entries"
        )
    entries = [_entry(event, int(pk)) for pk in entry_ids]
    if pool.kind != SidePool.Kind.SKUNK:
        # A pool pays those who paid into it (a skunk pot is paid by the skunked and won by
        # a draw or a 29 hand: its winner need not have been skunked).
        staked = set(
            PoolEntry.objects.filter(event=event, pool=pool).values_list("entry_id", flat=True)
        )
        strangers = [entry.name for entry in entries if entry.pk not in staked]
        if strangers:
            raise ServiceError(
                TreasuryError.WINNER_NOT_STAKED,
                _("%(names)s did not pay into %(pool)s: only those who did can win it.")
                % {"names": ", ".join(strangers), "pool": pool.name},
                field="entries",
            )
    percent = None if payout_percent in (None, "") else as_money(payout_percent, "payout_percent")
    if percent is not None and not 0 < percent <= 100:
        raise ServiceError(
            TreasuryError.BAD_MONEY, _("A payout of 1 to 100 percent."), field="payout_percent"
        )
    wins = PoolWin.objects.filter(event=event, pool=pool)
    old = {"pool": pool.name, "winners": list(wins.values_list("entry__player__name", flat=True))}
    wins.delete()
    created = [
        PoolWin.objects.create(event=event, pool=pool, entry=entry, order=i, payout_percent=percent)
        for i, entry in enumerate(entries, start=1)
    ]
    selectors.pool_nights(event)  # the books check the winners against the rule now
    _audit(
        event,
        user,
        "pool_winners",
        old,
        {"pool": pool.name, "winners": [e.name for e in entries]},
    )
    return created


# --- Closing the night ---------------------------------------------------------------------------


def _decide_unpaid(event: Event, choices: Mapping[Any, Any] | None) -> dict[str, str]:
    """Under the club's "the TD decides" rule: store the TD's choice for each unpaid entrant
    the sheet would pay (settle the fee from the prize, or pass the place down); refuse the
    close while one is undecided. Returns the choices by the players' names (for the log)."""
    fees = selectors.event_fees(event)
    stored = dict(fees.unpaid_choices or {})
    names = selectors.entry_names(event)
    for key, choice in (choices or {}).items():
        if str(key) not in {str(pk) for pk in names} or choice not in UnpaidChoice.values:
            raise ServiceError(
                TreasuryError.BAD_UNPAID_RULE,
                _("Choose “settle” or “pass_down” for an entry of this event."),
                field="choices",
            )
        stored[str(key)] = choice
    if stored != (fees.unpaid_choices or {}):
        fees.unpaid_choices = stored
        fees.save()
    # Asked of the sheet as it now stands: a place passed down can bring the next unpaid
    # entrant into the money, who then needs a choice too.
    unpaid = selectors.unpaid_finishers(event)
    in_the_money = {s.entry_id for s in selectors.payout_sheet(event).shares}
    undecided = [pk for pk in unpaid.to_decide if pk in in_the_money]
    if undecided:
        raise ServiceError(
            TreasuryError.DECISION_NEEDED,
            _("Decide for the prize of each who has not paid: %(names)s.")
            % {"names": ", ".join(names.get(pk, "?") for pk in undecided)},
            field="choices",
        )
    return {names.get(int(pk)) or pk: choice for pk, choice in stored.items()}


@transaction.atomic
def close_night(
    event: Event,
    *,
    user: UserLike = None,
    confirm_owing: bool = False,
    choices: Mapping[Any, Any] | None = None,
) -> NightLedger:
    """Close the event's books: the night ledger (``books.pools.night_ledger``) stored line by
    line, and every pot's carried-out balance made the club's balance for its next event.

    Who still owes the fee is listed and must be confirmed (``confirm_owing``); under the
    club's "the TD decides" rule each unpaid entrant in the money needs a choice (``choices``:
    entry id -> "settle" or "pass_down").
    """
    event = _open(event)
    decided: dict[str, str] = {}
    if selectors.club_money(event.club).unpaid_rule == UnpaidRule.DECIDE:
        decided = _decide_unpaid(event, choices)
    owing = [entry.name for entry in selectors.who_owes(event)]
    if owing and selectors.event_fees(event).entry_fee and not confirm_owing:
        raise ServiceError(
            TreasuryError.OWING_NOT_CONFIRMED,
            ngettext(
                "%(n)s player has not paid: %(names)s. Confirm to close the night all the same.",
                "%(n)s players have not paid: %(names)s. Confirm to close the night all the same.",
                len(owing),
            )
            % {"n": len(owing), "names": ", ".join(owing)},
            field="confirm_owing",
        )
    club = event.club
    ClubMoney.objects.get_or_create(club=club)
    settings = ClubMoney.objects.select_for_update().get(club=club)
    pools = {p.name: p for p in SidePool.objects.select_for_update().filter(club=club)}
    books = selectors.ledger_preview(event)
    names = selectors.entry_names(event)
    ledger = NightLedger.objects.create(
        event=event,
        club=club,
        closed_by=actor_name(user),
        currency=settings.currency,
        takings=books.takings,
        carried_in=books.carried_in,
        payouts=books.payouts,
        held_back=books.held_back,
        carried_out=books.carried_out,
        results_version=event.results_version,
    )
    LedgerLine.objects.bulk_create(
        LedgerLine(
            ledger=ledger,
            event=event,
            pool=pools.get(line.pot),
            pot=line.pot,
            item=line.item.value,
            amount=line.amount,
            entry_id=line.entry_id if isinstance(line.entry_id, int) else None,
            name=names.get(line.entry_id, "") if isinstance(line.entry_id, int) else "",
            label=line.label,
            order=i,
        )
        for i, line in enumerate(books.lines)
    )
    carry = books.carry_forward()
    settings.main_balance = carry.get(MAIN_POT, ZERO)
    settings.save(update_fields=["main_balance"])
    for name, pool in pools.items():
        if name in carry or any(line.pot == name for line in books.lines):
            pool.balance = carry.get(name, ZERO)
            pool.save(update_fields=["balance"])
    selectors.event_fees(event).save()  # stored now, so the closed night keeps its fee
    closed: dict[str, Any] = {"balances": {k: str(v) for k, v in carry.items()}}
    if owing and selectors.event_fees(event).entry_fee:
        closed["owing"] = owing
    if decided:
        closed["choices"] = decided
    _audit(event, user, "night_closed", None, closed)
    return ledger


@transaction.atomic
def reopen_night(event: Event, *, user: UserLike = None) -> None:
    """Take the club's latest closed night back: its pots get back the balances they started
    it with, and the desk takes changes again. Audited."""
    event = money_lock(event)  # a cancelled night's money is still to settle
    ledger = selectors.require_closed(event)
    latest = NightLedger.objects.filter(club=event.club).order_by("-closed_at", "-pk").first()
    if latest is None or latest.pk != ledger.pk:
        raise ServiceError(
            TreasuryError.NOT_LATEST_NIGHT,
            _("A later night of the club is closed: re-open that one first."),
        )
    carried_in: dict[str, Decimal] = {}
    for line in ledger.lines.filter(item=LedgerItem.CARRIED_IN):
        carried_in[line.pot] = carried_in.get(line.pot, ZERO) + line.amount
    ClubMoney.objects.filter(club=event.club).update(main_balance=carried_in.get(MAIN_POT, ZERO))
    for pool in SidePool.objects.select_for_update().filter(club=event.club, name__in=carried_in):
        pool.balance = carried_in[pool.name]
        pool.save(update_fields=["balance"])
    ledger.delete()
    _audit(event, user, "night_reopened", None, None)


def on_event_cloned(sender: Any, *, source_id: int, event_id: int, **kwargs: Any) -> None:
    """A cloned event keeps the night's fees and the side pools it ran, with their fees (its
    door and stakes start empty). In the clone's transaction; no audit row: nothing is paid."""
    fees = EventFees.objects.filter(event_id=source_id).first()
    if fees is not None:
        EventFees.objects.create(event_id=event_id, entry_fee=fees.entry_fee)
    EventPool.objects.bulk_create(
        EventPool(event_id=event_id, pool_id=pool_id, fee=fee)
        for pool_id, fee in EventPool.objects.filter(
            event_id=source_id,
            pool__active=True,  # a retired pool runs no new night
        ).values_list("pool_id", "fee")
    )


def on_template_saved(sender: Any, *, source_id: int, template: Any, **kwargs: Any) -> None:
    """An event saved as a template (tournaments.services.templates) keeps its entry fee and
    the side pools it ran, with their fees, in ``template.extras["money"]`` (money as text:
    Decimal survives the JSON)."""
    fees = EventFees.objects.filter(event_id=source_id).first()
    template.extras["money"] = {
        "entry_fee": str(fees.entry_fee) if fees is not None else None,
        "pools": [
            [pool_id, str(fee)]
            for pool_id, fee in EventPool.objects.filter(event_id=source_id)
            .order_by("pool_id")
            .values_list("pool_id", "fee")
        ],
    }


def on_event_from_template(sender: Any, *, template: Any, event_id: int, **kwargs: Any) -> None:
    """An event made from a template gets the template's entry fee and side pools (the
    pools the club still has); in the event's transaction, no audit row: nothing is paid."""
    money = (template.extras or {}).get("money") or {}
    if money.get("entry_fee") is not None:
        EventFees.objects.create(event_id=event_id, entry_fee=Decimal(money["entry_fee"]))
    pools = dict(money.get("pools") or [])
    existing = set(
        SidePool.objects.filter(club_id=template.club_id, pk__in=pools, active=True).values_list(
            "pk", flat=True
        )
    )
    EventPool.objects.bulk_create(
        EventPool(event_id=event_id, pool_id=pk, fee=Decimal(fee))
        for pk, fee in pools.items()
        if pk in existing
    )
