"""The money side of the ACC event report (``scoring.acc_report``): what each entrant was
paid from the main pot and the night's payback figures. Registered by the app at start-up:
scoring sits below treasury and never imports it."""

from __future__ import annotations

from decimal import Decimal

from django.utils.translation import gettext as _

from core.errors import ServiceError
from scoring.acc_report import Payback
from tournaments.models import Event

from .models import EventFees, Payment
from .selectors import payout_sheet


def acc_payback(event: Event) -> Payback:
    """The payback of ``event`` as the report shows it; empty for a night without the money
    desk (no fees set, nobody marked at the door) or whose sheet cannot be made yet."""
    used = (
        EventFees.objects.filter(event=event).exists()
        or Payment.objects.filter(event=event).exists()
    )
    if not used:
        return Payback()
    try:
        sheet = payout_sheet(event)
    except ServiceError:
        return Payback()
    by_entry: dict[int, Decimal] = {}
    for share in sheet.shares:
        entry_id = int(share.entry_id)  # type: ignore[call-overload]  # books keys are opaque
        by_entry[entry_id] = by_entry.get(entry_id, Decimal(0)) + share.amount
    figures = [
        (_("Paid entrants"), Decimal(sheet.paid_entrants)),
        (_("Entry fees taken"), sheet.gross),
        (_("Carried in"), sheet.carried_in),
        *((held.name, held.amount) for held in sheet.held_back),
        (_("Prize pot"), sheet.pot),
        (_("Paid out"), sum((s.amount for s in sheet.shares), Decimal(0))),
        (_("Remainder"), sheet.remainder),
    ]
    return Payback(by_entry=by_entry, figures=figures)
