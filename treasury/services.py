"""Writes of the money desk; every function is one transaction and leaves an audit entry.

Fees, the door (paid / unpaid / waived, one call per keystroke), the pools' stakes and
winners, and closing the night: the ledger stored, the balances carried to the club's next
event (with the event's results version then: a result corrected after the close shows its
payouts to re-check, ``selectors.payouts_to_recheck``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from books.pools import MAIN_POT, LedgerItem
from core.errors import ServiceError
from tournaments.audit_chain import append_audit
from tournaments.models import AuditEntry, Club, Entry, Event
from tournaments.services import acting_user, actor_name, locked_event
from tournaments.services._common import UserLike

from . import selectors
from .error_codes import TreasuryError
from .models import (
    ZERO,
    ClubMoney,
    ClubRole,
    ClubStaff,
    EventFees,
    EventPool,
    LedgerLine,
    NightLedger,
    Payment,
    PoolEntry,
    PoolWin,
    SidePool,
)

MAX_AMOUNT = Decimal("9999999999.99")  # what the columns hold (12 digits, 2 after the point)


def as_money(value: Any, field: str = "amount") -> Decimal:
    """``value`` as an amount of 0 or more with at most two decimals, or a ServiceError.

    Floats are refused as the books refuse them: 0.1 + 0.2 is not money.
    """
    if isinstance(value, bool | float):
        raise ServiceError(
            TreasuryError.BAD_MONEY, _("Give amounts as text or Decimal."), field=field
        )
    try:
        amount = value if isinstance(value, Decimal) else Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        raise ServiceError(
            TreasuryError.BAD_MONEY, _("“%(v)s” is not an amount.") % {"v": value}, field=field
        ) from None
    if not amount.is_finite() or amount < 0 or amount > MAX_AMOUNT:
        raise ServiceError(
            TreasuryError.BAD_MONEY, _("An amount is 0 or more, within reason."), field=field
        )
    if int(amount.as_tuple().exponent) < -2 and amount != amount.quantize(Decimal("0.01")):
        raise ServiceError(
            TreasuryError.BAD_MONEY, _("An amount has at most two decimals."), field=field
        )
    return amount.quantize(Decimal("0.01"))


def _audit(event: Event, user: UserLike, action: str, old: Any, new: Any) -> None:
    entry = AuditEntry(
        event=event,
        user=acting_user(user),
        actor=actor_name(user),
        action=action,
        old=old,
        new=new,
    )
    append_audit(event, [entry])  # at the end of the event's hash chain


def _open(event: Event) -> Event:
    """The event under its row lock, refused once its night is closed (its books are kept)."""
    event = locked_event(event)
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


# --- The club's settings and pools ---------------------------------------------------------------


@transaction.atomic
def set_club_money(club: Club, *, user: UserLike = None, **values: Any) -> ClubMoney:
    """Change the club's money defaults (currency, coin, entry fee, hold-back, remainder)."""
    settings, _created = ClubMoney.objects.select_for_update().get_or_create(club=club)
    for name in ("coin", "entry_fee", "hold_back_per_entrant", "hold_back_percent"):
        if name in values:
            setattr(settings, name, as_money(values[name], name))
    if "coin" in values and settings.coin <= 0:
        raise ServiceError(TreasuryError.BAD_MONEY, _("The smallest coin is more than 0."))
    if settings.hold_back_percent > 100:
        raise ServiceError(TreasuryError.BAD_MONEY, _("A percentage is at most 100."))
    for name in ("currency", "hold_back_name", "remainder_to"):
        if name in values:
            setattr(settings, name, values[name])
    settings.full_clean(exclude=["club", "main_balance"])
    settings.save()
    return settings


@transaction.atomic
def set_club_role(club: Club, username: str, role: str, *, on: bool = True) -> ClubStaff:
    """Give ``username`` a money role at the club (``on``) or take it back. Only a TD of the
    club may call this (the view checks); a treasurer does not appoint treasurers."""
    if role not in ClubRole.values:
        raise ServiceError(TreasuryError.UNKNOWN_ROLE, _("No such role."), field="role")
    user = get_user_model().objects.filter(username=username.strip(), is_active=True).first()
    if user is None:
        raise ServiceError(TreasuryError.UNKNOWN_USER, _("No such user."), field="username")
    if on:
        staff, _created = ClubStaff.objects.get_or_create(club=club, user=user, role=role)
        return staff
    staff = ClubStaff.objects.filter(club=club, user=user, role=role).first() or ClubStaff(
        club=club, user=user, role=role
    )
    ClubStaff.objects.filter(club=club, user=user, role=role).delete()
    return staff


@transaction.atomic
def create_pool(club: Club, name: str, kind: str, fee: Any, **options: Any) -> SidePool:
    """Add a side pool to the club (balance 0); ``options``: share, ratios, percents, rules."""
    name = name.strip()
    if not name or name == MAIN_POT or SidePool.objects.filter(club=club, name=name).exists():
        raise ServiceError(
            TreasuryError.UNKNOWN_POOL, _("Give the pool a name of its own."), field="name"
        )
    pool = SidePool(club=club, name=name, kind=kind, fee=as_money(fee, "fee"), **options)
    selectors.pool_rule(pool, pool.fee, Decimal(1))  # the books check the rule now
    pool.save()
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
    fees, _created = EventFees.objects.get_or_create(
        event=event, defaults={"entry_fee": selectors.club_money(event.club).entry_fee}
    )
    old: dict[str, Any] = {"entry_fee": str(fees.entry_fee)}
    new: dict[str, Any] = {"entry_fee": str(fee)}
    if fee != fees.entry_fee:
        # Who paid the old fee paid tonight's fee: the door's takings stay the sheet's.
        Payment.objects.filter(
            event=event, status=Payment.Status.PAID, amount=fees.entry_fee
        ).update(amount=fee)
    fees.entry_fee = fee
    fees.save(update_fields=["entry_fee"])
    if pools is not None:
        wanted = {_pool(event.club, int(pk)).pk: as_money(f, "pools") for pk, f in pools.items()}
        current = {
            p.pool_id: p for p in EventPool.objects.filter(event=event).select_related("pool")
        }
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
    user: UserLike = None,
) -> Payment:
    """Mark an entry paid, unpaid or waived (one keystroke at the door). A paid entry pays
    the event's fee unless ``amount`` says otherwise; unpaid and waived ones pay 0. Audited."""
    if status not in Payment.Status.values:
        raise ServiceError(
            TreasuryError.BAD_PAYMENT_STATUS,
            _("The status is one of: paid, unpaid, waived."),
            field="status",
        )
    event = _open(event)
    entry = _entry(event, entry_id)
    if status == Payment.Status.PAID:
        paid = selectors.event_fees(event).entry_fee if amount is None else as_money(amount)
    else:
        paid = Decimal("0.00")
    payment, _created = Payment.objects.get_or_create(entry=entry, defaults={"event": event})
    if (payment.status, payment.amount) == (status, paid) and not _created:
        return payment
    old = {"player": entry.name, "status": payment.status, "amount": str(payment.amount)}
    payment.status, payment.amount, payment.by = status, paid, acting_user(user)
    payment.save()
    new = {"player": entry.name, "status": status, "amount": str(paid)}
    _audit(event, user, "payment", old, new)
    return payment


# --- Pools: stakes and winners -------------------------------------------------------------------


@transaction.atomic
def set_pool_stake(
    event: Event, pool_id: int, entry_id: int, count: int = 1, *, user: UserLike = None
) -> int:
    """Put an entry into an event's pool (``count`` stakes: skunks, for a skunk pot), or take
    it out (0). Returns the count. Audited."""
    event = _open(event)
    pool = _pool(event.club, pool_id)
    if not EventPool.objects.filter(event=event, pool=pool).exists():
        raise ServiceError(
            TreasuryError.UNKNOWN_POOL, _("That pool is not run tonight."), field="pool"
        )
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 999:
        raise ServiceError(TreasuryError.BAD_MONEY, _("A count of 0 to 999."), field="count")
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


@transaction.atomic
def close_night(event: Event, *, user: UserLike = None) -> NightLedger:
    """Close the event's books: the night ledger (``books.pools.night_ledger``) stored line by
    line, and every pot's carried-out balance made the club's balance for its next event."""
    event = _open(event)
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
    _audit(event, user, "night_closed", None, {"balances": {k: str(v) for k, v in carry.items()}})
    return ledger


@transaction.atomic
def reopen_night(event: Event, *, user: UserLike = None) -> None:
    """Take the club's latest closed night back: its pots get back the balances they started
    it with, and the desk takes changes again. Audited."""
    event = locked_event(event)
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
        for pool_id, fee in EventPool.objects.filter(event_id=source_id).values_list(
            "pool_id", "fee"
        )
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
        SidePool.objects.filter(club_id=template.club_id, pk__in=pools).values_list("pk", flat=True)
    )
    EventPool.objects.bulk_create(
        EventPool(event_id=event_id, pool_id=pk, fee=Decimal(fee))
        for pk, fee in pools.items()
        if pk in existing
    )
