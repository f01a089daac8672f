"""Reads of the money desk, always scoped by club or event: the door list, who still owes,
the payout sheet from the final places, the pools' nights, and the night ledger.

The arithmetic is ``books``'s; these functions feed it the event's rows and convert its
refusals into :class:`~core.errors.ServiceError` (a 400 with a code, never a 500).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet, Sum
from django.utils.translation import gettext as _

from books.error_codes import BooksError
from books.payouts import (
    Fees,
    HoldBack,
    PayoutSheet,
    PayoutTable,
    compute_payouts,
    default_paid_places,
)
from books.pools import (
    MAIN_POT,
    LedgerItem,
    PoolKind,
    PoolResult,
    PoolRule,
    ShareRule,
    last_holder,
    night_ledger,
    q_pool_winners,
    settle_pool,
)
from books.pools import (
    NightLedger as BooksLedger,
)
from core.errors import ServiceError
from scoring.models import SpecialHand
from scoring.places import final_places
from scoring.selectors import standings_for_event
from tournaments.models import Bracket, Club, Entry, Event
from tournaments.models import entry_names as _entry_names

from .error_codes import TreasuryError
from .models import (
    ZERO,
    ClubAudit,
    ClubMoney,
    ClubStaff,
    EventFees,
    EventPool,
    LedgerLine,
    NightLedger,
    Payment,
    PayoutTableRow,
    PoolEntry,
    PoolWin,
    SidePool,
    UnpaidRule,
)
from .payout_tables import check_rows

Status = Payment.Status
PLAIN_FEE = re.compile(r"[0-9]{1,7}(?:\.[0-9]{1,2})?")


@contextmanager
def books_refusals() -> Iterator[None]:
    """Turn a refusal of the books core into a ServiceError with the desk's code."""
    try:
        yield
    except BooksError as exc:
        raise ServiceError(TreasuryError.BOOKS_REFUSED, str(exc)) from exc


def club_money(club: Club) -> ClubMoney:
    """The club's money settings (the defaults, unsaved, when it has none yet)."""
    found = ClubMoney.objects.filter(club=club).first()
    return found if found is not None else ClubMoney(club=club)


def event_fees(event: Event) -> EventFees:
    """The event's fees (the club's default entry fee, unsaved, when none were set)."""
    found = EventFees.objects.filter(event=event).first()
    if found is not None:
        return found
    return EventFees(event=event, entry_fee=club_money(event.club).entry_fee)


def running_pools(event: Event) -> dict[int, Decimal]:
    """Pool id -> tonight's fee, of the club's pools run at the event."""
    return dict(EventPool.objects.filter(event=event).values_list("pool_id", "fee"))


def payouts_to_recheck(event: Event) -> bool:
    """Whether a result changed after the night was closed (its payouts need checking again):
    the event's results version has moved past the one the ledger was closed at."""
    versions = (
        NightLedger.objects.filter(event=event)
        .values_list("results_version", "event__results_version")
        .first()
    )
    return versions is not None and versions[0] != versions[1]


def books_fees(event: Event) -> Fees:
    """The event's fees as ``books.payouts.Fees``: entry fee, hold-back, coin, remainder."""
    settings = club_money(event.club)
    holds: tuple[HoldBack, ...] = ()
    if settings.hold_back_per_entrant or settings.hold_back_percent:
        holds = (
            HoldBack(
                settings.hold_back_name or _("held back"),
                per_entrant=settings.hold_back_per_entrant,
                percent=settings.hold_back_percent,
            ),
        )
    with books_refusals():
        return Fees(
            entry=event_fees(event).entry_fee,
            hold_backs=holds,
            coin=settings.coin,
            remainder_to=settings.remainder_to,  # type: ignore[arg-type]
        )


def stored_table_rows(club: Club) -> list[dict[str, Any]]:
    """The club's payout table rows as stored (``min_entrants``, ``percents``), in order."""
    return [
        {"min_entrants": start, "percents": percents}
        for start, percents in PayoutTableRow.objects.filter(club=club)
        .order_by("min_entrants")
        .values_list("min_entrants", "percents")
    ]


def payout_table(club: Club) -> PayoutTable:
    """The club's own payout table, or the built-in one when it has no rows.

    A stored row the rules refuse (written before they were checked, or behind the
    application's back) is a ServiceError naming the row, a 400 on every page and route
    that asks, never a 500; the table is corrected on the club's money page."""
    rows = stored_table_rows(club)
    table, problems = check_rows(rows, stored=True)
    if problems:
        first = problems[0]
        where = rows[first.row]["min_entrants"] if first.row is not None else None
        if where is not None:
            message = _(
                "The club's payout table cannot be used: the row from %(n)s paid entrants: "
                "%(why)s Correct it on the club's money page."
            ) % {"n": where, "why": first.message}
        else:
            message = _(
                "The club's payout table cannot be used: %(why)s Correct it on the club's "
                "money page."
            ) % {"why": first.message}
        raise ServiceError(TreasuryError.PAYOUT_TABLE_INVALID, message, field="payout_table")
    return table


MAX_PREVIEW_ENTRANTS = 2000  # a preview of a bigger field is a typing accident
MAX_PREVIEW_FEE = Decimal(10_000)


def payout_preview(
    club: Club, entrants: Any, fee: Any, table: PayoutTable | None = None
) -> PayoutSheet:
    """The sheet a night of ``entrants`` paid entrants at ``fee`` each would give, every
    entrant in a place of their own (no ties, nothing carried in), with the club's hold-back,
    coin and remainder rule: each place's money for the treasurer to check a table by.
    ``table``: a table being edited (else the club's own)."""
    count = entrants if isinstance(entrants, int) and not isinstance(entrants, bool) else None
    if isinstance(entrants, str) and entrants.strip().isdigit():
        count = int(entrants.strip())
    if count is None or not 1 <= count <= MAX_PREVIEW_ENTRANTS:
        raise ServiceError(
            TreasuryError.BAD_ENTRANTS,
            _("A field of 1 to %(max)s paid entrants.") % {"max": MAX_PREVIEW_ENTRANTS},
            field="entrants",
        )
    amount = _plain_fee(fee)
    if amount is None or amount < 0 or amount > MAX_PREVIEW_FEE:
        raise ServiceError(
            TreasuryError.BAD_MONEY,
            _("An entry fee of 0 to %(max)s, with at most two decimals.")
            % {"max": MAX_PREVIEW_FEE},
            field="fee",
        )
    settings = club_money(club)
    holds: tuple[HoldBack, ...] = ()
    if settings.hold_back_per_entrant or settings.hold_back_percent:
        holds = (
            HoldBack(
                settings.hold_back_name or _("held back"),
                per_entrant=settings.hold_back_per_entrant,
                percent=settings.hold_back_percent,
            ),
        )
    with books_refusals():
        return compute_payouts(
            [(place, place) for place in range(1, count + 1)],
            count,
            Fees(
                entry=amount,
                hold_backs=holds,
                coin=settings.coin,
                remainder_to=settings.remainder_to,  # type: ignore[arg-type]
            ),
            table if table is not None else payout_table(club),
        )


def _plain_fee(fee: Any) -> Decimal | None:
    """A fee as a whole number, a Decimal or digits with at most two decimals ("12.50");
    None for anything else (a float, ``NaN``, ``1e3``, a bool)."""
    if isinstance(fee, bool):
        return None
    if isinstance(fee, int):
        return Decimal(fee)
    if isinstance(fee, Decimal):
        return fee if fee.is_finite() and fee == fee.quantize(Decimal("0.01")) else None
    if isinstance(fee, str) and PLAIN_FEE.fullmatch(fee.strip()):
        return Decimal(fee.strip())
    return None


# --- The door ------------------------------------------------------------------------------------


def door_list(event: Event) -> list[Entry]:
    """Every entry of the event by name, each with ``pay_status``, ``pay_amount`` and
    ``pay_reason``."""
    entries = list(
        Entry.objects.filter(event=event).select_related("player").order_by("player__name")
    )
    payments = {
        p.entry_id: p
        for p in Payment.objects.filter(event=event).only("entry_id", "status", "amount", "reason")
    }
    for entry in entries:
        payment = payments.get(entry.pk)
        entry.pay_status = payment.status if payment else Status.UNPAID  # type: ignore[attr-defined]
        entry.pay_amount = payment.amount if payment else ZERO  # type: ignore[attr-defined]
        entry.pay_reason = payment.reason if payment else ""  # type: ignore[attr-defined]
    return entries


def who_owes(event: Event) -> list[Entry]:
    """The entries that have neither paid nor been waived, by name (withdrawn ones too: they
    played)."""
    settled = Payment.objects.filter(event=event, status__in=[Status.PAID, Status.WAIVED])
    return list(
        Entry.objects.filter(event=event)
        .exclude(pk__in=settled.values("entry_id"))
        .select_related("player")
        .order_by("player__name")
    )


@dataclass(frozen=True)
class DoorTotals:
    """The door's counts and the money taken."""

    entries: int
    paid: int
    waived: int
    unpaid: int
    taken: Decimal
    owed: Decimal


def door_totals(event: Event) -> DoorTotals:
    """How many paid, were waived, still owe; what was taken and what is still owed."""
    entries = Entry.objects.filter(event=event).count()
    payments = Payment.objects.filter(event=event)
    paid = payments.filter(status=Status.PAID).count()
    waived = payments.filter(status=Status.WAIVED).count()
    taken = payments.filter(status=Status.PAID).aggregate(s=Sum("amount"))["s"] or ZERO
    unpaid = entries - paid - waived
    return DoorTotals(entries, paid, waived, unpaid, taken, event_fees(event).entry_fee * unpaid)


def paid_entrants(event: Event) -> int:
    """How many paid the entry fee (waived entrants play but add nothing to the pot)."""
    return Payment.objects.filter(event=event, status=Status.PAID).count()


def money_kept(event_id: int) -> str | None:
    """Why an event must be kept, not deleted: money was taken at its door, or its night
    was closed (``tournaments.hooks.reason_to_keep``). None when it holds no money."""
    if NightLedger.objects.filter(event_id=event_id).exists():
        return _("This event's night is in the books: cancel the event instead.")
    if Payment.objects.filter(event_id=event_id, status=Status.PAID, amount__gt=0).exists():
        return _(
            "Money was taken at this event's door: cancel the event instead, and refund or "
            "keep the money on its money desk."
        )
    return None


def takings(event: Event) -> Decimal:
    """The money taken at the door: the sum of what was paid (part payments and all). The
    one figure of the takings, on the desk, the sheet, the ledger and the season's books."""
    found = Payment.objects.filter(event=event, status=Status.PAID).aggregate(s=Sum("amount"))
    return (found["s"] or ZERO).quantize(Decimal("0.01"))


# --- Places and the payout sheet -----------------------------------------------------------------


def final_place_list(event: Event) -> list[tuple[int, int]]:
    """``(entry id, final place)`` of the event's latest standings, after the playoff where
    there is one (``scoring.places``), as the competition ranking 1, 2, 3, 3, 5."""
    places = final_places(event.pk)
    rows = dict(standings_for_event(event.pk).values_list("entry_id", "rank"))
    placed = {entry_id: places.place(entry_id, rank) for entry_id, rank in rows.items()}
    # A playoff-only event's bracket players have places and no qualifying rows.
    placed.update({e: p for e, p in places.moved.items() if e not in rows})
    # Renumbered as the competition ranking the books ask for: a withdrawn row or a bracket
    # that leaves a gap must not make the sheet refuse the night.
    return competition_ranking(placed.items())


def competition_ranking(placed: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """``(entry id, place)`` renumbered 1, 2, 3, 3, 5 in order of place, ties kept."""
    found = sorted((place, entry_id) for entry_id, place in placed)
    result: list[tuple[int, int]] = []
    previous, previous_place = None, 0
    for seen, (place, entry_id) in enumerate(found):
        now = previous_place if place == previous else seen + 1
        result.append((entry_id, now))
        previous, previous_place = place, now
    return result


def qualifiers(event: Event) -> list[int]:
    """The entries that qualified, in order: the playoff's seeds where there is a bracket,
    else the top quarter of the final places (one in four, rounded up, as the ACC cuts)."""
    seeds = Bracket.objects.filter(event=event).values_list("seeds", flat=True).first()
    if seeds:
        return [int(pk) for pk in seeds]
    places = final_place_list(event)
    cut = default_paid_places(len(places))
    return [entry_id for entry_id, place in places if place <= cut]


def _carried_in(event: Event) -> dict[str, Decimal]:
    """What each pot started the event with: the stored ledger's once closed, else the
    club's balances now."""
    ledger = NightLedger.objects.filter(event=event).first()
    if ledger is not None:
        found: dict[str, Decimal] = {}
        for line in ledger.lines.filter(item=LedgerItem.CARRIED_IN):
            found[line.pot] = found.get(line.pot, ZERO) + line.amount
        return found
    balances = {MAIN_POT: club_money(event.club).main_balance}
    balances.update(SidePool.objects.filter(club=event.club).values_list("name", "balance"))
    return balances


@dataclass(frozen=True)
class UnpaidFinishers:
    """The entrants who still owe the fee as the sheet sees them, under the club's rule:
    ``owed`` (entry id -> the fee: their prize settles it first), ``passed_down`` (their place
    went to the next who paid), ``to_decide`` (the TD decides at the close; until then the
    prize settles the fee)."""

    rule: str
    owed: dict[int, Decimal]
    passed_down: list[int]
    to_decide: list[int]


def unpaid_finishers(event: Event) -> UnpaidFinishers:
    """Who still owes, and what the club's unpaid rule (and the TD's choices) make of them."""
    rule = club_money(event.club).unpaid_rule
    fees = event_fees(event)
    owing = [entry.pk for entry in who_owes(event)] if fees.entry_fee else []
    choices = fees.unpaid_choices or {}
    passed_down, to_decide = [], []
    for entry_id in owing:
        choice = choices.get(str(entry_id)) if rule == UnpaidRule.DECIDE else rule
        if choice == UnpaidRule.PASS_DOWN:
            passed_down.append(entry_id)
        elif choice is None:
            to_decide.append(entry_id)
    owed = {e: fees.entry_fee for e in owing if e not in passed_down}
    return UnpaidFinishers(rule, owed, passed_down, to_decide)


def sheet_places(event: Event, unpaid: UnpaidFinishers | None = None) -> list[tuple[int, int]]:
    """The places the payout sheet pays: the final places, less the entrants whose place
    passed down, renumbered; none for a cancelled event (its pot is kept, not paid)."""
    if event.status == Event.Status.CANCELLED:
        return []
    unpaid = unpaid or unpaid_finishers(event)
    gone = set(unpaid.passed_down)
    return competition_ranking((e, p) for e, p in final_place_list(event) if e not in gone)


def payout_sheet(event: Event, unpaid: UnpaidFinishers | None = None) -> PayoutSheet:
    """The event's payout sheet from its final places (``books.payouts``): the money taken
    at the door, the fees still owed settled from the prizes or the places passed down
    (``unpaid``: ``unpaid_finishers(event)``, read here when not given)."""
    unpaid = unpaid or unpaid_finishers(event)
    with books_refusals():
        return compute_payouts(
            sheet_places(event, unpaid),
            paid_entrants(event),
            books_fees(event),
            payout_table(event.club),
            carried_in=_carried_in(event).get(MAIN_POT, ZERO),
            takings=takings(event),
            owed=unpaid.owed,
        )


# --- Side pools ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PoolNight:
    """A pool's night at an event: the club's pool, tonight's fee (None: not run tonight),
    its stakes, and the settled result."""

    pool: SidePool
    fee: Decimal | None
    count: int
    named: bool  # the winners were named by the TD (else derived)
    result: PoolResult


def pool_rule(pool: SidePool, fee: Decimal, coin: Decimal) -> PoolRule:
    """The pool as ``books.pools.PoolRule`` (a rule the books refuse is a ServiceError)."""
    with books_refusals():
        return PoolRule(
            name=pool.name,
            kind=PoolKind(pool.kind),
            fee=fee,
            share=ShareRule(pool.share),
            ratios=tuple(Decimal(str(r)) for r in pool.ratios or ()),
            payout_percent=pool.payout_percent,
            held_back_percent=pool.held_back_percent,
            rolls_over=pool.rolls_over,
            coin=coin,
        )


def _derived_winners(event: Event, pool: SidePool, stakes: set[int]) -> list[int]:
    """Winners nobody named: the Q-pool's qualifiers who paid in; a 28 or 29 hand pool's
    holders (logged special hands) who paid in, all of them or the last, as the club says."""
    if pool.kind == PoolKind.Q_POOL:
        return [e for e in q_pool_winners(stakes, qualifiers(event)) if isinstance(e, int)]
    points = {PoolKind.HAND_28: 28, PoolKind.HAND_29: 29}.get(PoolKind(pool.kind))
    if points is None:
        return []
    holders: list[int] = []
    for entry_id in (
        SpecialHand.objects.filter(event=event, points=points)
        .order_by("game_number", "pk")
        .values_list("entry_id", flat=True)
    ):
        if entry_id in stakes and entry_id not in holders:
            holders.append(entry_id)
    if pool.winner_rule == SidePool.WinnerRule.LAST:
        return [e for e in last_holder(holders) if isinstance(e, int)]
    return holders


def pool_nights(event: Event) -> list[PoolNight]:
    """Each pool of the event's night: those run tonight, and the club's others that carry a
    balance through it. Settled with ``books.pools.settle_pool``."""
    coin = club_money(event.club).coin
    carried = _carried_in(event)
    fees = dict(EventPool.objects.filter(event=event).values_list("pool_id", "fee"))
    nights = []
    for pool in SidePool.objects.filter(club=event.club).order_by("name"):
        fee = fees.get(pool.pk)
        carried_in = carried.get(pool.name, ZERO)
        if fee is None and not carried_in:
            continue
        stakes = dict(
            PoolEntry.objects.filter(event=event, pool=pool).values_list("entry_id", "count")
        )
        count = sum(stakes.values()) if fee is not None else 0
        wins = list(PoolWin.objects.filter(event=event, pool=pool).order_by("order", "pk"))
        winners = [w.entry_id for w in wins] or _derived_winners(event, pool, set(stakes))
        percent = next((w.payout_percent for w in wins if w.payout_percent is not None), None)
        rule = pool_rule(pool, fee if fee is not None else ZERO, coin)
        with books_refusals():
            result = settle_pool(rule, count, winners, carried_in, percent)
        nights.append(PoolNight(pool, fee, count, bool(wins), result))
    return nights


# --- The night ledger ----------------------------------------------------------------------------


def ledger_preview(
    event: Event, sheet: PayoutSheet | None = None, nights: list[PoolNight] | None = None
) -> BooksLedger:
    """The night ledger as it would close now (``books.pools.night_ledger``), balancing to 0;
    from the event's ``sheet`` and pool ``nights`` when the caller has them already."""
    sheet = payout_sheet(event) if sheet is None else sheet
    nights = pool_nights(event) if nights is None else nights
    with books_refusals():
        return night_ledger(sheet, [n.result for n in nights])


def stored_ledger(event: Event) -> NightLedger | None:
    """The event's closed ledger, if the night was closed."""
    return NightLedger.objects.filter(event=event).first()


def ledger_lines(ledger: NightLedger) -> list[LedgerLine]:
    """A closed ledger's lines, in order."""
    return list(LedgerLine.objects.filter(ledger=ledger, event=ledger.event_id).order_by("order"))


def entry_names(event: Event) -> dict[int, str]:
    """Entry id -> the player's name, for the sheet and the ledger."""
    return _entry_names(Entry.objects.filter(event=event))


def stake_names(event: Event, pool_id: int, entry_id: int) -> tuple[str, str]:
    """The names of an event's pool and entry, for what the door says after a stake."""
    pool = SidePool.objects.filter(club=event.club, pk=pool_id).values_list("name", flat=True)
    entry = Entry.objects.filter(event=event, pk=entry_id).select_related("player").first()
    return pool.first() or "", entry.name if entry is not None else ""


def require_closed(event: Event) -> NightLedger:
    """The event's closed ledger, or a ServiceError."""
    ledger = stored_ledger(event)
    if ledger is None:
        raise ServiceError(
            TreasuryError.NIGHT_NOT_CLOSED, _("The night is not closed yet: no ledger is stored.")
        )
    return ledger


def stakes(event: Event) -> dict[int, dict[int, int]]:
    """Entry id -> {pool id: stakes} of the event's pools."""
    found: dict[int, dict[int, int]] = {}
    for entry_id, pool_id, count in PoolEntry.objects.filter(event=event).values_list(
        "entry_id", "pool_id", "count"
    ):
        found.setdefault(entry_id, {})[pool_id] = count
    return found


def club_ledgers(club: Club) -> QuerySet[NightLedger]:
    """The club's closed nights, the latest first."""
    return (
        NightLedger.objects.filter(club=club).select_related("event").order_by("-closed_at", "-pk")
    )


def club_events(club: Club) -> QuerySet[Event]:
    """The club's events, newest first: the way to each night's money desk."""
    return Event.objects.filter(club=club).order_by("-date", "-pk")


def club_money_log(club: Club) -> QuerySet[ClubAudit]:
    """The club's money audit log (settings, payout table, pools, treasurers), latest first."""
    return ClubAudit.objects.filter(club=club).order_by("-at", "-pk")


def club_staff(club: Club, role: str) -> QuerySet[ClubStaff]:
    """The club's staff of one role (its treasurers), by username."""
    return (
        ClubStaff.objects.filter(club=club, role=role)
        .select_related("user")
        .order_by("user__username")
    )
