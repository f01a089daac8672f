"""The money desk's pages, for the club's TDs and treasurers (``treasury.access``): the door,
the fees, the side pools, the payout sheet (printable) and closing the night. The club's own
money pages (settings, payout table, pools, treasurers, season books) are
``treasury.views_club``. Views call only services and selectors."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.errors import ServiceError
from tournaments.models import Entry, Event

from . import access, door, selectors, services, wording
from .amounts import parse_localized_amount
from .forms import (
    EventFeesForm,
)
from .models import Payment, UnpaidChoice


def posted_int(value: str | None) -> int:
    """A posted or queried id: 0 when it is not a whole number (no such row, refused)."""
    try:
        return int(value or "")
    except ValueError:
        return 0


def fees_form(event: Event, data: object = None) -> EventFeesForm:
    """The night's fees as a form: the entry fee and the club's active pools, those run
    tonight ticked with tonight's fee (the others with the club's default)."""
    return EventFeesForm(
        data,
        pools=list(event.club.pools.filter(active=True).order_by("name")),
        running=selectors.running_pools(event),
        initial={"entry_fee": selectors.event_fees(event).entry_fee},
    )


def _context(event: Event) -> dict:
    """Everything the desk shows. A sheet or ledger the books refuse says why instead."""
    stored = selectors.stored_ledger(event)
    fees = selectors.event_fees(event)
    entries = selectors.door_list(event)
    owing = selectors.who_owes(event)
    context: dict = {
        "event": event,
        "money": selectors.club_money(event.club),
        "fees": fees,
        "to_recheck": selectors.payouts_to_recheck(event),
        "entries": entries,
        "owing": owing,
        # The paid entries whose payment is not the fee, and the waived: said with the reason.
        "off_the_fee": [
            e
            for e in entries
            if e.pay_status == Payment.Status.WAIVED
            or (e.pay_status == Payment.Status.PAID and e.pay_amount != fees.entry_fee)
        ],
        "names_owing": ", ".join(entry.name for entry in owing),
        "unpaid_choices": UnpaidChoice.choices,
        "totals": selectors.door_totals(event),
        "statuses": Payment.Status,
        "pay_keys": door.pay_buttons(),
        "check_in_key": door.CHECK_IN_KEY,
        "door_pools": [],
        "ledger": stored,
        "books_error": "",
    }
    try:
        context["pools"] = nights = selectors.pool_nights(event)
        context["door_pools"] = door.pool_buttons(nights)
        unpaid = selectors.unpaid_finishers(event)
        context["sheet"] = sheet = selectors.payout_sheet(event, unpaid)
        context["names"] = names = selectors.entry_names(event)
        context["unpaid"] = _unpaid_context(unpaid, sheet, names)
        if stored is not None:
            lines: Iterable[wording.LineLike] = selectors.ledger_lines(stored)
        else:
            context["preview"] = preview = selectors.ledger_preview(event, sheet, nights)
            lines = preview.lines
        context["ledger_rows"] = wording.ledger_rows(lines, names)
    except ServiceError as exc:
        context["books_error"] = exc.message
    stakes = selectors.stakes(event)
    for entry in context["entries"]:
        entry.stakes = stakes.get(entry.pk, {})
    return context


def _unpaid_context(
    unpaid: selectors.UnpaidFinishers, sheet: Any, names: dict[int, str]
) -> dict[str, Any]:
    """The unpaid finishers for the sheet and the close: by name, and who needs a choice."""
    in_the_money = {share.entry_id for share in sheet.shares}
    return {
        "rule": unpaid.rule,
        "owed": unpaid.owed,
        "passed_down": [names.get(pk, "") for pk in unpaid.passed_down],
        "to_decide_in_money": [
            (pk, names.get(pk, "")) for pk in unpaid.to_decide if pk in in_the_money
        ],
    }


@login_required
@require_GET
def money_desk(request: HttpRequest, event_id: int) -> HttpResponse:
    """The money desk of one event: the door, who still owes, the pools, the sheet, the close."""
    event = access.money_event(request.user, event_id)
    return _desk_page(request, event)


def _desk_page(
    request: HttpRequest, event: Event, form: EventFeesForm | None = None, status: int = 200
) -> HttpResponse:
    context = _context(event) | {
        "is_td": access.directs(request.user, event.club),
        "fees_form": form or fees_form(event),
    }
    return render(request, "treasury/desk.html", context, status=status)


@login_required
@require_GET
def payout_sheet(request: HttpRequest, event_id: int) -> HttpResponse:
    """The printable payout sheet."""
    event = access.money_event(request.user, event_id)
    return render(request, "treasury/sheet.html", _context(event))


@login_required
@require_POST
def pay(request: HttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    """Mark an entry paid, unpaid or waived: one click at the door; HTMX swaps the row."""
    event = access.money_event(request.user, event_id)
    error = said = ""
    try:
        payment = services.set_payment(
            event, entry_id, request.POST.get("status", ""), user=request.user
        )
    except ServiceError as exc:
        error = exc.message
    else:
        said = wording.payment_said(payment.entry.name, payment.status, payment.amount)
    return _door_answer(request, event, entry_id, error, said)


@login_required
@require_POST
def check_in(request: HttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    """Check an entry in (or out) at the door, beside its payment: the TD's check-in of the
    event page, for whoever keeps the door."""
    event = access.money_event(request.user, event_id)
    entry = get_object_or_404(Entry, pk=entry_id, event=event)
    here = request.POST.get("here") == "1"
    error = said = ""
    try:
        services.check_in_at_the_door(event, entry, here, user=request.user)
    except ServiceError as exc:
        error = exc.message
    else:
        said = wording.check_in_said(entry.name, here)
    return _door_answer(request, event, entry_id, error, said)


def _door_answer(
    request: HttpRequest, event: Event, entry_id: int, error: str, said: str = ""
) -> HttpResponse:
    """The door's answer to a click: the row (HTMX), with what follows from it out of band
    (the totals, who still owes, the pools, the payout sheet and the ledger's preview, and the
    sentence a screen reader says), or the desk."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("money-desk", event_id=event.pk)
    context = _context(event)
    entry = next((e for e in context["entries"] if e.pk == entry_id), None)
    if entry is None:
        return HttpResponse(error, status=400)
    context |= {"entry": entry, "row_error": error, "keyed": True}
    parts = [render_to_string("treasury/desk.html#door-row", context, request)]
    context["oob"] = True
    parts += [
        render_to_string(f"treasury/desk.html#{name}", context, request) for name in DOOR_FOLLOWERS
    ]
    parts.append(format_html('<div id="door-said" hx-swap-oob="innerHTML">{}</div>', error or said))
    return HttpResponse("".join(parts), status=400 if error else 200)


# The desk's parts that follow each click at the door (partials of treasury/desk.html).
DOOR_FOLLOWERS = ("door-totals", "owing-list", "pools-table", "sheet-section", "ledger-section")


@login_required
@require_POST
def stake(request: HttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    """Put an entry into a pool run tonight, or take it out: one click (or key) at the door."""
    event = access.money_event(request.user, event_id)
    error = said = ""
    pool_id = posted_int(request.POST.get("pool"))
    try:
        # The count as typed: "abc" is refused by the service, never read as 0 (taken out).
        count = services.set_pool_stake(
            event, pool_id, entry_id, request.POST.get("count", ""), user=request.user
        )
    except ServiceError as exc:
        error = exc.message
    else:
        pool, player = selectors.stake_names(event, pool_id, entry_id)
        said = wording.stake_said(pool, player, count)
    return _door_answer(request, event, entry_id, error, said)


@login_required
@require_POST
def set_fees(request: HttpRequest, event_id: int) -> HttpResponse:
    """Set the entry fee and the pools run tonight with their fees, typed in the reader's
    format; a refusal is said beside its field."""
    event = access.money_event(request.user, event_id)
    form = fees_form(event, request.POST)
    if not form.is_valid():
        return _desk_page(request, event, form, status=400)
    try:
        services.set_event_fees(
            event, form.cleaned_data["entry_fee"], form.pool_fees(), user=request.user
        )
    except ServiceError as exc:
        form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        return _desk_page(request, event, form, status=400)
    messages.success(request, _("The fees are set."))
    return redirect("money-desk", event_id=event.pk)


@login_required
@require_POST
def winners(request: HttpRequest, event_id: int) -> HttpResponse:
    """Name a pool's winners (a 29 hand held, a draw won); none: derived again."""
    event = access.money_event(request.user, event_id)
    return _desk_action(
        request,
        event,
        lambda: services.set_pool_winners(
            event,
            posted_int(request.POST.get("pool")),
            [posted_int(pk) for pk in request.POST.getlist("entries") if pk],
            payout_percent=request.POST.get("payout_percent") or None,
            user=request.user,
        ),
    )


@login_required
@require_POST
def close(request: HttpRequest, event_id: int) -> HttpResponse:
    """Close the night: the ledger stored, the balances carried to the club's next event."""
    event = access.money_event(request.user, event_id)
    choices = {
        key.removeprefix("choice-"): value
        for key, value in request.POST.items()
        if key.startswith("choice-") and value
    }
    return _desk_action(
        request,
        event,
        lambda: services.close_night(
            event,
            user=request.user,
            confirm_owing=request.POST.get("confirm_owing") == "on",
            choices=choices,
        ),
        _("The night is closed: its balances carry to the next event."),
    )


@login_required
@require_POST
def part_pay(request: HttpRequest, event_id: int) -> HttpResponse:
    """A payment that is not the fee (part paid, a discount, two nights), with its reason."""
    event = access.money_event(request.user, event_id)
    return _desk_action(
        request,
        event,
        lambda: services.set_payment(
            event,
            posted_int(request.POST.get("entry")),
            Payment.Status.PAID,
            amount=parse_localized_amount(request.POST.get("amount", "")),
            reason=request.POST.get("reason", ""),
            user=request.user,
        ),
        _("The payment is recorded."),
    )


@login_required
@require_POST
def reopen(request: HttpRequest, event_id: int) -> HttpResponse:
    """Re-open the club's latest closed night."""
    event = access.money_event(request.user, event_id)
    return _desk_action(
        request,
        event,
        lambda: services.reopen_night(event, user=request.user),
        _("The night is open again."),
    )


def _desk_action(
    request: HttpRequest, event: Event, action: Callable[[], object], success: str = ""
) -> HttpResponse:
    """Run a desk action: its refusal, or ``success``, said on the desk it goes back to."""
    try:
        action()
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        if success:
            messages.success(request, success)
    return redirect("money-desk", event_id=event.pk)
