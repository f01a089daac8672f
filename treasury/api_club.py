"""A club's books by API: its money settings, its payout table (with a preview), its side pools
and its treasurers, so a treasurer's every task needs no page.

Every route is for a signed-in TD or treasurer of the club (``treasury.access``): 401 when not
signed in, 404 for another club. Appointing or removing a treasurer is a TD's (403 for the
club's treasurer). A refused call answers 400 with the message and its code on its field
(``treasury.error_codes``); a payout table refused names every bad field
(``rows.1.percents``). Amounts are decimal strings ("10.00"); a JSON float is refused.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from drf_standardized_errors.openapi_serializers import ErrorResponse403Serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ErrorDetail, PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from books.payouts import PayoutSheet
from tournaments.api_td import TDView, valid
from tournaments.limits import MAX_ID
from tournaments.models import Club

from . import access, club_services, selectors
from .models import ClubMoney, ClubRole, RemainderRule, SidePool, UnpaidRule
from .payout_tables import PayoutTableRefused, TableProblem, check_rows

CLUB_ERRORS = (
    "400: refused, with the reason; 401: not signed in; 404: not the club's TD or treasurer."
)


class StrictDecimal(serializers.DecimalField):
    """A decimal given as text or a whole number: a JSON float (``0.1``) is refused, as the
    books refuse floats (0.1 + 0.2 is not money)."""

    default_error_messages = {"float": 'Give amounts as text ("10.50"), not as a float.'}

    def to_internal_value(self, data: Any) -> Decimal:
        if isinstance(data, float | bool):
            self.fail("float")
        return super().to_internal_value(data)  # type: ignore[return-value]


def _amount(**kwargs: Any) -> serializers.DecimalField:
    return StrictDecimal(max_digits=12, decimal_places=2, min_value=Decimal(0), **kwargs)


def _percent(**kwargs: Any) -> serializers.DecimalField:
    return StrictDecimal(
        max_digits=5, decimal_places=2, min_value=Decimal(0), max_value=Decimal(100), **kwargs
    )


def refused_table(problems: tuple[TableProblem, ...] | list[TableProblem]) -> ValidationError:
    """Every problem of a refused payout table, each on its field with its code."""
    found: dict[str, list[ErrorDetail]] = {}
    for problem in problems:
        found.setdefault(problem.field, []).append(ErrorDetail(problem.message, problem.code))
    return ValidationError(found)


class ClubView(TDView):
    """An action on one club's books: for its TDs and its treasurers; 404 for others."""

    def club(self) -> Club:
        return access.money_club(self.request.user, self.kwargs["club_id"])

    def directed(self) -> Club:
        """The club, for its TDs only: 403 for its treasurer, 404 for anyone else."""
        club = self.club()
        if not access.directs(self.request.user, club):
            raise PermissionDenied("Only a TD of the club names or removes its treasurers.")
        return club


# --- Money settings ------------------------------------------------------------------------------


class ClubMoneySettings(serializers.Serializer):
    """The club's money defaults; on PUT a field left out stays as it is."""

    currency = serializers.CharField(max_length=3, required=False)
    coin = _amount(required=False, help_text="The smallest coin paid out: 1, 0.25, 0.05...")
    entry_fee = _amount(required=False, help_text="The default entry fee of a night.")
    hold_back_name = serializers.CharField(max_length=60, required=False)
    hold_back_per_entrant = _amount(required=False)
    hold_back_percent = _percent(required=False, help_text="Of the takings, 0 to 100.")
    remainder_to = serializers.ChoiceField(choices=RemainderRule.choices, required=False)
    unpaid_rule = serializers.ChoiceField(
        choices=UnpaidRule.choices,
        required=False,
        help_text="A prize won by a player who has not paid: `settle` (the prize settles the "
        "fee first), `pass_down` (the place goes to the next who paid), `decide` (the TD "
        "decides at the close).",
    )
    reason = serializers.CharField(
        max_length=200, required=False, write_only=True, help_text="Why, for the club's log."
    )
    main_balance = _amount(read_only=True, help_text="The main pot carried to the next night.")


def money_data(settings: ClubMoney) -> dict[str, Any]:
    """The club's money settings as the API answers them."""
    fields = ClubMoneySettings().fields
    return {name: getattr(settings, name) for name in fields if not fields[name].write_only}


class ClubMoneyView(ClubView):
    """The club's money settings (GET); change them (PUT)."""

    @extend_schema(
        summary="Read a club's money settings (TD, treasurer)",
        description=CLUB_ERRORS,
        responses={200: ClubMoneySettings},
    )
    def get(self, request: Request, club_id: int) -> Response:
        return Response(ClubMoneySettings(money_data(selectors.club_money(self.club()))).data)

    @extend_schema(
        summary="Change a club's money settings (TD, treasurer)",
        description="Fields left out stay as they are. Audited in the club's money log. "
        + CLUB_ERRORS,
        request=ClubMoneySettings,
        responses={200: ClubMoneySettings},
    )
    def put(self, request: Request, club_id: int) -> Response:
        club = self.club()
        values = valid(ClubMoneySettings, request.data)
        settings = club_services.set_club_money(club, user=request.user, **values)
        return Response(ClubMoneySettings(money_data(settings)).data)


# --- The payout table ----------------------------------------------------------------------------


class PayoutRowData(serializers.Serializer):
    """A row: from ``min_entrants`` paid entrants on, each place's percent (1st first)."""

    min_entrants = serializers.IntegerField(min_value=1)
    percents = serializers.ListField(
        child=serializers.CharField(), help_text='Decimal text or whole numbers: ["50", "30", 20].'
    )


class ProblemData(serializers.Serializer):
    """A stored row the rules refuse (the table cannot be used until it is corrected)."""

    attr = serializers.CharField()
    code = serializers.CharField()
    detail = serializers.CharField()


class PayoutTableData(serializers.Serializer):
    """The club's payout table: its rows, or none (the built-in table: one in four paid)."""

    default = serializers.BooleanField(read_only=True, help_text="No rows: the built-in table.")
    rows = PayoutRowData(many=True)
    reason = serializers.CharField(
        write_only=True, required=False, allow_blank=True, help_text="For the club's log."
    )
    problems = ProblemData(
        many=True, read_only=True, help_text="What is wrong with the stored rows, if anything."
    )


def table_data(club: Club) -> dict[str, Any]:
    """The stored table as the API answers it, with the problems of a stored bad row."""
    stored = selectors.stored_table_rows(club)
    _table, problems = check_rows(stored, stored=True)
    return {
        "default": not stored,
        "rows": [
            {
                "min_entrants": row["min_entrants"],
                "percents": [str(p) for p in row["percents"]]
                if isinstance(row["percents"], list)
                else [str(row["percents"])],
            }
            for row in stored
        ],
        "problems": [{"attr": p.field, "code": p.code, "detail": p.message} for p in problems],
    }


class PayoutTableView(ClubView):
    """The club's payout table (GET); replace it whole (PUT)."""

    @extend_schema(
        summary="Read a club's payout table (TD, treasurer)",
        description=CLUB_ERRORS,
        responses={200: PayoutTableData},
    )
    def get(self, request: Request, club_id: int) -> Response:
        return Response(PayoutTableData(table_data(self.club())).data)

    @extend_schema(
        summary="Replace a club's payout table (TD, treasurer)",
        description="The rows in order of field size; each row's percents are 1st place "
        "first, each more than 0, never more for a lower place, adding up to 100, and no more "
        "places than the row's paid entrants. No rows: the built-in table. Every bad field is "
        "answered (`rows.1.percents`, codes `percents_rising`, `percents_not_100`...). "
        "Audited in the club's money log. " + CLUB_ERRORS,
        request=PayoutTableData,
        responses={200: PayoutTableData},
    )
    def put(self, request: Request, club_id: int) -> Response:
        club = self.club()
        # Read as sent, not through the serializer: the checks are the service's, field by
        # field, and a float must be refused rather than turned into text.
        data = request.data if isinstance(request.data, dict) else {}
        reason = data.get("reason", "")
        try:
            club_services.set_payout_table(
                club,
                data.get("rows"),  # type: ignore[arg-type]
                user=request.user,
                reason=reason if isinstance(reason, str) else "",
            )
        except PayoutTableRefused as exc:
            raise refused_table(exc.problems) from exc
        return Response(PayoutTableData(table_data(club)).data)


class HeldData(serializers.Serializer):
    """A fee held back from the takings."""

    name = serializers.CharField()
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)


class PreviewData(serializers.Serializer):
    """What each place would get for a field of paid entrants at a fee, each in a place of
    their own (no ties, nothing carried in), with the club's hold-back, coin and remainder."""

    currency = serializers.CharField()
    paid_entrants = serializers.IntegerField()
    entry_fee = serializers.DecimalField(max_digits=12, decimal_places=2)
    gross = serializers.DecimalField(max_digits=12, decimal_places=2)
    held_back = HeldData(many=True)
    pot = serializers.DecimalField(max_digits=12, decimal_places=2)
    place_amounts = serializers.ListField(
        child=serializers.DecimalField(max_digits=12, decimal_places=2),
        help_text="1st place first.",
    )
    remainder = serializers.DecimalField(max_digits=12, decimal_places=2)
    remainder_to = serializers.CharField()


def preview_data(club: Club, sheet: PayoutSheet) -> dict[str, Any]:
    """A preview sheet as the API answers it."""
    return {
        "currency": selectors.club_money(club).currency,
        "paid_entrants": sheet.paid_entrants,
        "entry_fee": sheet.fees.entry,
        "gross": sheet.gross,
        "held_back": [{"name": h.name, "amount": h.amount} for h in sheet.held_back],
        "pot": sheet.pot,
        "place_amounts": list(sheet.place_amounts),
        "remainder": sheet.remainder,
        "remainder_to": sheet.fees.remainder_to.value,
    }


class PayoutPreviewView(ClubView):
    """What the club's table pays each place of a field, at a fee."""

    @extend_schema(
        summary="Preview a club's payout table (TD, treasurer)",
        description=CLUB_ERRORS,
        parameters=[
            OpenApiParameter("entrants", int, required=True, description="Paid entrants, 1-2000."),
            OpenApiParameter("fee", str, required=True, description='The entry fee, "10.00".'),
        ],
        responses={200: PreviewData},
    )
    def get(self, request: Request, club_id: int) -> Response:
        club = self.club()
        sheet = selectors.payout_preview(
            club, request.query_params.get("entrants", ""), request.query_params.get("fee", "")
        )
        return Response(PreviewData(preview_data(club, sheet)).data)


# --- Side pools ----------------------------------------------------------------------------------


class PoolData(serializers.Serializer):
    """A club's side pool; ``balance`` is carried from night to night until won."""

    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(max_length=60)
    kind = serializers.ChoiceField(choices=SidePool.Kind.choices)
    fee = _amount(help_text="The default fee of a stake.")
    share = serializers.ChoiceField(choices=SidePool.Share.choices, required=False)
    ratios = serializers.ListField(
        child=StrictDecimal(max_digits=7, decimal_places=2, min_value=Decimal("0.01")),
        required=False,
        help_text='For a pool split by ratios: ["60", "40"].',
    )
    payout_percent = _percent(required=False, help_text="Paid when won, percent.")
    held_back_percent = _percent(required=False, help_text="Kept by the club, percent.")
    rolls_over = serializers.BooleanField(required=False)
    winner_rule = serializers.ChoiceField(choices=SidePool.WinnerRule.choices, required=False)
    active = serializers.BooleanField(read_only=True, help_text="False: retired.")
    balance = _amount(read_only=True)


class PoolChange(serializers.Serializer):
    """A pool renamed, its fee changed, retired (``active`` false) or brought back."""

    name = serializers.CharField(max_length=60, required=False)
    fee = _amount(required=False)
    active = serializers.BooleanField(required=False)


def pool_data(pool: SidePool) -> dict[str, Any]:
    """A side pool as the API answers it."""
    data = {name: getattr(pool, name) for name in PoolData().fields}
    data["ratios"] = [str(r) for r in pool.ratios or ()]
    return data


class ClubPoolsView(ClubView):
    """The club's side pools (GET, retired ones too); add one (POST)."""

    @extend_schema(
        summary="List a club's side pools (TD, treasurer)",
        description=CLUB_ERRORS,
        responses={200: PoolData(many=True)},
    )
    def get(self, request: Request, club_id: int) -> Response:
        pools = SidePool.objects.filter(club=self.club()).order_by("name")
        return Response(PoolData([pool_data(p) for p in pools], many=True).data)

    @extend_schema(
        summary="Add a side pool to a club (TD, treasurer)",
        description="Balance 0. Audited in the club's money log. " + CLUB_ERRORS,
        request=PoolData,
        responses={201: PoolData},
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = self.club()
        values = valid(PoolData, request.data)
        if "ratios" in values:
            values["ratios"] = [str(r) for r in values["ratios"]]
        pool = club_services.create_pool(
            club,
            values.pop("name"),
            values.pop("kind"),
            values.pop("fee"),
            user=request.user,
            **values,
        )
        return Response(PoolData(pool_data(pool)).data, status=status.HTTP_201_CREATED)


class ClubPoolView(ClubView):
    """One of the club's side pools (GET); rename it, change its fee, retire it (PATCH)."""

    def pool(self, club: Club) -> SidePool:
        pool = SidePool.objects.filter(club=club, pk=self.kwargs["pool_id"]).first()
        if pool is None:
            raise Http404("No such pool.")
        return pool

    @extend_schema(
        summary="Read a club's side pool (TD, treasurer)",
        description=CLUB_ERRORS,
        responses={200: PoolData},
    )
    def get(self, request: Request, club_id: int, pool_id: int) -> Response:
        return Response(PoolData(pool_data(self.pool(self.club()))).data)

    @extend_schema(
        summary="Change or retire a club's side pool (TD, treasurer)",
        description="`active: false` retires the pool: no new night runs it, its balance "
        "stays. Audited in the club's money log. " + CLUB_ERRORS,
        request=PoolChange,
        responses={200: PoolData},
    )
    def patch(self, request: Request, club_id: int, pool_id: int) -> Response:
        club = self.club()
        pool = self.pool(club)
        values = valid(PoolChange, request.data)
        pool = club_services.update_pool(club, pool.pk, user=request.user, **values)
        return Response(PoolData(pool_data(pool)).data)


# --- Treasurers ----------------------------------------------------------------------------------


class TreasurerData(serializers.Serializer):
    """A treasurer of the club."""

    user = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    email = serializers.CharField()


class TreasurerInput(serializers.Serializer):
    """The person to appoint: their account if one has the address, else a new one."""

    name = serializers.CharField(max_length=150)
    email = serializers.EmailField()


class AppointedData(TreasurerData):
    """The treasurer appointed; a new account's link to choose its password (also mailed)."""

    created = serializers.BooleanField(help_text="A new account was made.")
    set_password_url = serializers.CharField(
        allow_blank=True,
        help_text="For a new account: the link to choose its password (it works once).",
    )


def treasurer_data(user: Any) -> dict[str, Any]:
    """A treasurer's account as the API answers it."""
    return {
        "user": user.pk,
        "username": user.get_username(),
        "name": user.get_full_name(),
        "email": user.email,
    }


class TreasurersView(ClubView):
    """The club's treasurers (GET); appoint one by name and e-mail (POST, a TD's)."""

    @extend_schema(
        summary="List a club's treasurers (TD, treasurer)",
        description=CLUB_ERRORS,
        responses={200: TreasurerData(many=True)},
    )
    def get(self, request: Request, club_id: int) -> Response:
        staff = selectors.club_staff(self.club(), ClubRole.TREASURER)
        return Response(TreasurerData([treasurer_data(s.user) for s in staff], many=True).data)

    @extend_schema(
        summary="Appoint a club's treasurer (TD)",
        description="An account with the address becomes the club's treasurer; without one, "
        "an account is made (no password yet) and the link to choose its password is mailed "
        "and answered. Audited in the club's money log. 403: the club's treasurer (only its "
        "TDs appoint). " + CLUB_ERRORS,
        request=TreasurerInput,
        responses={201: AppointedData, 403: ErrorResponse403Serializer},
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = self.directed()
        values = valid(TreasurerInput, request.data)
        appointed = club_services.appoint_treasurer(
            club, name=values["name"], email=values["email"], user=request.user
        )
        url = ""
        if appointed.set_password_path:
            url = request.build_absolute_uri(appointed.set_password_path)
            club_services.mail_set_password_link(appointed.user, club, url)
        data = treasurer_data(appointed.user) | {
            "created": appointed.created,
            # An older account's link goes to its owner's mailbox only.
            "set_password_url": url if appointed.created else "",
        }
        return Response(AppointedData(data).data, status=status.HTTP_201_CREATED)


class TreasurerView(ClubView):
    """Take the role back from one of the club's treasurers (a TD's)."""

    @extend_schema(
        summary="Remove a club's treasurer (TD)",
        description="The account stays; it no longer opens the club's books. Audited. 403: "
        "the club's treasurer. " + CLUB_ERRORS,
        request=None,
        responses={204: None, 403: ErrorResponse403Serializer},
    )
    def delete(self, request: Request, club_id: int, user_id: int) -> Response:
        club = self.directed()
        staff = (
            selectors.club_staff(club, ClubRole.TREASURER).filter(user_id=user_id).first()
            if user_id <= MAX_ID  # a foreign key's lookup is not bounded as a pk's is
            else None
        )
        if staff is None:
            raise Http404("No such treasurer.")
        club_services.set_club_role(
            club, staff.user.get_username(), ClubRole.TREASURER, on=False, by=request.user
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
