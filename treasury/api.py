"""The money desk's TD API: an event's fees, an entry's payment, the payout sheet, the ledger.

Every route is for a signed-in TD or treasurer of the event's club (``treasury.access``; the
rest of the TD API, ``tournaments.api_td``, stays the TDs'): 401 when not signed in, 404 for
another club's event. A refused call answers 400 with the service's message and its code
(``treasury.error_codes``). Amounts are decimal strings ("10.00"), never floats.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from books.payouts import PayoutSheet
from books.pools import NightLedger as BooksLedger
from core.drf import BoundedJSONParser
from core.errors import ServiceError
from tournaments.api_td import TD_ERRORS, TDView, valid
from tournaments.models import Event

from . import access, season, selectors, services
from .amounts import parse_amount
from .models import Payment, UnpaidChoice, UnpaidRule

MONEY = {"max_digits": 12, "decimal_places": 2, "min_value": Decimal(0)}


class AmountField(serializers.DecimalField):
    """An amount as the desk reads one (``treasury.amounts.parse_amount``): "7.50" or 10;
    never a float (``7.5``), an exponent ("1E+2"), a sign ("-0.00") or "1_0"."""

    def to_internal_value(self, data: Any) -> Decimal:
        try:
            return parse_amount(data, self.field_name or "amount")
        except ServiceError as exc:
            raise serializers.ValidationError(str(exc), code=str(exc.code)) from None


def _amount(**kwargs: Any) -> serializers.DecimalField:
    return AmountField(**MONEY, **kwargs)  # type: ignore[arg-type]


# --- Serializers ---------------------------------------------------------------------------------


class EventPoolFee(serializers.Serializer):
    """A side pool run at the event, with tonight's fee."""

    pool = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    fee = _amount()
    name = serializers.CharField(read_only=True)
    kind = serializers.CharField(read_only=True)
    balance = _amount(read_only=True, help_text="Carried in from the club's last night.")


class EventFeesInput(serializers.Serializer):
    """The event's entry fee and the pools run tonight (a pool left out is not run)."""

    entry_fee = _amount()
    pools = EventPoolFee(many=True, required=False)


class EventFeesOutput(serializers.Serializer):
    """The event's fees in the club's currency, and the state of its books."""

    currency = serializers.CharField()
    coin = _amount()
    entry_fee = _amount()
    pools = EventPoolFee(many=True)
    closed = serializers.BooleanField(help_text="The night is closed: its ledger is stored.")
    to_recheck = serializers.BooleanField(
        help_text="A result changed after the night was closed: check the payouts again."
    )


class PaymentInput(serializers.Serializer):
    """Paid, unpaid or waived; a paid entry pays the event's fee unless ``amount`` is given
    (with a ``reason`` when it is not the fee: part paid, a discount, two nights)."""

    status = serializers.ChoiceField(choices=Payment.Status.choices)
    amount = _amount(required=False, allow_null=True)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200)


class PaymentOutput(serializers.Serializer):
    """An entry's payment at the door."""

    entry = serializers.IntegerField()
    player = serializers.CharField()
    status = serializers.ChoiceField(choices=Payment.Status.choices)
    amount = _amount()
    reason = serializers.CharField(
        allow_blank=True, help_text="Why the amount is not the fee (empty when it is)."
    )
    owing = serializers.IntegerField(help_text="How many entries of the event still owe.")


class ShareOutput(serializers.Serializer):
    """One paid entrant's money."""

    entry = serializers.IntegerField()
    player = serializers.CharField()
    place = serializers.IntegerField()
    tied = serializers.IntegerField(help_text="How many share the place.")
    amount = _amount(help_text="What is handed over.")
    from_remainder = _amount()
    settled = _amount(help_text="The part of the prize kept to settle the fee still owed.")


class UnpaidOutput(serializers.Serializer):
    """An entrant who has not paid the fee."""

    entry = serializers.IntegerField()
    player = serializers.CharField()


class OwingOutput(UnpaidOutput):
    """An entrant who still owes the fee, and how much."""

    owes = _amount()


class HeldOutput(serializers.Serializer):
    """A fee held back from the takings."""

    name = serializers.CharField()
    amount = _amount()


class PayoutSheetOutput(serializers.Serializer):
    """The payout sheet from the final places (after the playoff where there is one)."""

    currency = serializers.CharField()
    coin = _amount()
    paid_entrants = serializers.IntegerField()
    entry_fee = _amount()
    gross = _amount()
    carried_in = _amount()
    held_back = HeldOutput(many=True)
    pot = _amount()
    place_amounts = serializers.ListField(child=_amount())
    shares = ShareOutput(many=True)
    remainder = _amount(help_text="What did not divide into coins, and unfilled places.")
    remainder_to = serializers.CharField()
    carried_out = _amount()
    to_club = _amount()
    settled = _amount(
        help_text="Fees settled from unpaid winners' prizes (carried or to the club)."
    )
    unpaid_rule = serializers.ChoiceField(choices=UnpaidRule.choices)
    owing = OwingOutput(many=True, help_text="Who has neither paid nor been waived.")
    passed_down = UnpaidOutput(many=True, help_text="Unpaid finishers whose place passed down.")
    to_decide = UnpaidOutput(
        many=True, help_text="Unpaid finishers the TD decides for at the close."
    )
    notes = serializers.ListField(child=serializers.CharField())
    to_recheck = serializers.BooleanField()
    final = serializers.BooleanField(
        help_text="Whether the places are final (the event finished); before, the amounts "
        "follow the current standings."
    )


class LedgerLineOutput(serializers.Serializer):
    """One line of the night ledger."""

    pot = serializers.CharField()
    item = serializers.CharField()
    amount = _amount()
    entry = serializers.IntegerField(allow_null=True)
    player = serializers.CharField()
    label = serializers.CharField()


class LedgerOutput(serializers.Serializer):
    """The night ledger: the stored one once closed, else as it would close now."""

    closed = serializers.BooleanField()
    currency = serializers.CharField()
    takings = _amount()
    carried_in = _amount()
    payouts = _amount()
    held_back = _amount()
    carried_out = _amount()
    balance = serializers.DecimalField(max_digits=12, decimal_places=2)
    lines = LedgerLineOutput(many=True)


class CloseInput(serializers.Serializer):
    """Closing the night: that those who still owe are known, and the TD's choices."""

    confirm_owing = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Close although some players have not paid (they are listed in the log).",
    )
    choices = serializers.DictField(
        child=serializers.ChoiceField(choices=UnpaidChoice.choices),
        required=False,
        help_text="Under the club's `decide` rule: entry id -> `settle` (the prize settles the "
        "fee first) or `pass_down` (the place goes to the next who paid).",
    )


# --- Answers -------------------------------------------------------------------------------------


def fees_data(event: Event) -> dict[str, Any]:
    """The event's fees as the API answers them."""
    settings = selectors.club_money(event.club)
    fees = selectors.event_fees(event)
    pools = [
        {
            "pool": night.pool.pk,
            "fee": night.fee,
            "name": night.pool.name,
            "kind": night.pool.kind,
            "balance": night.result.carried_in,
        }
        for night in selectors.pool_nights(event)
        if night.fee is not None
    ]
    return {
        "currency": settings.currency,
        "coin": settings.coin,
        "entry_fee": fees.entry_fee,
        "pools": pools,
        "closed": selectors.stored_ledger(event) is not None,
        "to_recheck": selectors.payouts_to_recheck(event),
    }


def sheet_data(event: Event, sheet: PayoutSheet) -> dict[str, Any]:
    """A payout sheet as the API answers it, with the players' names."""
    names = selectors.entry_names(event)
    unpaid = selectors.unpaid_finishers(event)
    fee = selectors.event_fees(event).entry_fee
    return {
        "currency": selectors.club_money(event.club).currency,
        "coin": sheet.fees.coin,
        "paid_entrants": sheet.paid_entrants,
        "entry_fee": sheet.fees.entry,
        "gross": sheet.gross,
        "carried_in": sheet.carried_in,
        "held_back": [{"name": h.name, "amount": h.amount} for h in sheet.held_back],
        "pot": sheet.pot,
        "place_amounts": list(sheet.place_amounts),
        "shares": [
            {
                "entry": s.entry_id,
                "player": names.get(s.entry_id, ""),  # type: ignore[call-overload]
                "place": s.place,
                "tied": s.tied,
                "amount": s.amount,
                "from_remainder": s.from_remainder,
                "settled": s.settled,
            }
            for s in sheet.shares
        ],
        "settled": sheet.settled,
        "unpaid_rule": unpaid.rule,
        "owing": [
            {"entry": entry.pk, "player": entry.name, "owes": fee}
            for entry in (selectors.who_owes(event) if fee else [])
        ],
        "passed_down": [{"entry": pk, "player": names.get(pk, "")} for pk in unpaid.passed_down],
        "to_decide": [{"entry": pk, "player": names.get(pk, "")} for pk in unpaid.to_decide],
        "remainder": sheet.remainder,
        "remainder_to": sheet.fees.remainder_to.value,
        "carried_out": sheet.carried_out,
        "to_club": sheet.to_club,
        "notes": list(sheet.notes),
        "to_recheck": selectors.payouts_to_recheck(event),
        "final": event.status == Event.Status.FINISHED,
    }


def ledger_data(event: Event) -> dict[str, Any]:
    """The stored ledger once the night is closed, else the preview, as the API answers it."""
    stored = selectors.stored_ledger(event)
    if stored is not None:
        lines = [
            {
                "pot": line.pot,
                "item": line.item,
                "amount": line.amount,
                "entry": line.entry_id,
                "player": line.name,
                "label": line.label,
            }
            for line in selectors.ledger_lines(stored)
        ]
        totals: Any = stored
        currency = stored.currency
    else:
        books: BooksLedger = selectors.ledger_preview(event)
        names = selectors.entry_names(event)
        lines = [
            {
                "pot": line.pot,
                "item": line.item.value,
                "amount": line.amount,
                "entry": line.entry_id,
                "player": names.get(line.entry_id, "") if line.entry_id else "",  # type: ignore[call-overload]
                "label": line.label,
            }
            for line in books.lines
        ]
        totals = books
        currency = selectors.club_money(event.club).currency
    return {
        "closed": stored is not None,
        "currency": currency,
        "takings": totals.takings,
        "carried_in": totals.carried_in,
        "payouts": totals.payouts,
        "held_back": totals.held_back,
        "carried_out": totals.carried_out,
        "balance": totals.balance,
        "lines": lines,
    }


# --- Views ---------------------------------------------------------------------------------------


class MoneyView(TDView):
    """A money action on one event: for the club's TDs and its treasurers; 404 for others."""

    def event(self) -> Event:
        return access.money_event(self.request.user, self.kwargs["event_id"])


class EventFeesView(MoneyView):
    """The event's entry fee and side pools (GET); set them (PUT)."""

    @extend_schema(
        summary="Read an event's fees (TD)", description=TD_ERRORS, responses={200: EventFeesOutput}
    )
    def get(self, request: Request, event_id: int) -> Response:
        return Response(EventFeesOutput(fees_data(self.event())).data)

    @extend_schema(
        summary="Set an event's fees (TD)",
        description="The entry fee and, when `pools` is given, the pools run tonight with "
        "their fees (a pool left out is not run). " + TD_ERRORS,
        request=EventFeesInput,
        responses={200: EventFeesOutput},
    )
    def put(self, request: Request, event_id: int) -> Response:
        event = self.event()
        values = valid(EventFeesInput, request.data)
        pools = values.get("pools")
        services.set_event_fees(
            event,
            values["entry_fee"],
            None if pools is None else {p["pool"]: p["fee"] for p in pools},
            user=request.user,
        )
        return Response(EventFeesOutput(fees_data(event)).data)


class EntryPaymentView(MoneyView):
    """An entry's payment at the door."""

    @extend_schema(
        summary="Mark an entry paid, unpaid or waived (TD)",
        description=TD_ERRORS,
        request=PaymentInput,
        responses={200: PaymentOutput},
    )
    def patch(self, request: Request, event_id: int, entry_id: int) -> Response:
        event = self.event()
        values = valid(PaymentInput, request.data)
        payment = services.set_payment(
            event,
            entry_id,
            values["status"],
            amount=values.get("amount"),
            reason=values.get("reason", ""),
            user=request.user,
        )
        return Response(
            PaymentOutput(
                {
                    "entry": payment.entry_id,
                    "player": payment.entry.name,
                    "status": payment.status,
                    "amount": payment.amount,
                    "reason": payment.reason,
                    "owing": len(selectors.who_owes(event)),
                }
            ).data
        )


class PayoutSheetView(MoneyView):
    """The event's payout sheet from its final places."""

    @extend_schema(
        summary="Read an event's payout sheet (TD)",
        description=TD_ERRORS,
        responses={200: PayoutSheetOutput},
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = self.event()
        return Response(PayoutSheetOutput(sheet_data(event, selectors.payout_sheet(event))).data)


class LedgerView(MoneyView):
    """The event's night ledger: stored once closed, else as it would close now."""

    @extend_schema(
        summary="Read an event's night ledger (TD)",
        description=TD_ERRORS,
        responses={200: LedgerOutput},
    )
    def get(self, request: Request, event_id: int) -> Response:
        return Response(LedgerOutput(ledger_data(self.event())).data)


class CloseNightView(MoneyView):
    """Close the night: the ledger stored, the balances carried to the club's next event."""

    # The close as it always was, an empty POST (a form's, too), still closes: no JSON needed.
    parser_classes = [BoundedJSONParser, FormParser, MultiPartParser]

    @extend_schema(
        summary="Close an event's night (TD)",
        description="Who has not paid is listed in a 400 `owing_not_confirmed` until the close "
        "says `confirm_owing`; under the club's `decide` rule each unpaid player in the money "
        "needs a choice (`decision_needed`). " + TD_ERRORS,
        request=CloseInput,
        responses={200: LedgerOutput},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        values = valid(CloseInput, request.data)
        services.close_night(
            event,
            user=request.user,
            confirm_owing=values.get("confirm_owing", False),
            choices=values.get("choices") or {},
        )
        return Response(LedgerOutput(ledger_data(event)).data)


class ReopenNightView(MoneyView):
    """Re-open the club's latest closed night: its pots get back what they started it with."""

    @extend_schema(
        summary="Re-open an event's night (TD, treasurer)",
        description="Only the club's latest closed night; the desk takes changes again. "
        "Audited. " + TD_ERRORS,
        request=None,
        responses={200: LedgerOutput},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        services.reopen_night(event, user=request.user)
        return Response(LedgerOutput(ledger_data(event)).data)


# --- The club's season books ---------------------------------------------------------------------


class SeasonNightOutput(serializers.Serializer):
    """One closed night of the season: ``held_back`` is the ACC's (or the named fund's),
    ``to_club`` what went to the club."""

    event = serializers.IntegerField()
    date = serializers.DateField()
    name = serializers.CharField()
    currency = serializers.CharField()
    takings = _amount()
    carried_in = _amount()
    payouts = _amount()
    held_back = _amount()
    to_club = _amount()
    carried_out = _amount(help_text="Carried over to the club's next event.")


class SeasonBooksOutput(serializers.Serializer):
    """A season's closed nights and their totals, in the club's currency."""

    season = serializers.IntegerField()
    name = serializers.CharField()
    start = serializers.DateField()
    end = serializers.DateField()
    currency = serializers.CharField()
    nights = SeasonNightOutput(many=True)
    open_nights = serializers.IntegerField(help_text="Nights in the dates not closed yet.")
    open_takings = _amount(help_text="What the doors of those nights took so far.")
    takings = _amount()
    payouts = _amount()
    held_back = _amount()
    to_club = _amount()
    opened_with = _amount(help_text="The first night's carried-in balance.")
    closed_with = _amount(help_text="The last night's carried-over balance.")


def season_data(books: season.SeasonBooks) -> dict[str, Any]:
    """The season books as the API's plain values."""
    return {
        "season": books.season.pk,
        "name": books.season.name,
        "start": books.season.start,
        "end": books.season.end,
        "currency": books.currency,
        "nights": [
            {
                "event": night.event_id,
                "date": night.date,
                "name": night.name,
                "currency": night.currency,
                "takings": night.takings,
                "carried_in": night.carried_in,
                "payouts": night.payouts,
                "held_back": night.held_back,
                "to_club": night.to_club,
                "carried_out": night.carried_out,
            }
            for night in books.nights
        ],
        "open_nights": books.open_nights,
        "open_takings": books.open_takings,
        "takings": books.takings,
        "payouts": books.payouts,
        "held_back": books.held_back,
        "to_club": books.to_club,
        "opened_with": books.opened_with,
        "closed_with": books.closed_with,
    }


class SeasonBooksView(TDView):
    """A club's season books: for its TDs and treasurers; 404 for another club's season."""

    @extend_schema(
        summary="Read a club's season books (TD, treasurer)",
        description=TD_ERRORS,
        responses={200: SeasonBooksOutput},
    )
    def get(self, request: Request, club_id: int, season_id: int) -> Response:
        club = access.money_club(request.user, club_id)
        books = season.season_books(season.club_season(club, season_id))
        return Response(SeasonBooksOutput(season_data(books)).data)
