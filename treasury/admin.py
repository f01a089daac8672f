"""The money desk's rows in the admin, to read: money moves only through the desk's services,
which check every figure and record who changed what and why (the club money page, the money
desk, the treasury API): the club's settings, payout table and money log, the events' fees,
payments and closed ledgers are shown, never edited here. The pools' set-up and the staff stay
editable here."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import (
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
)


class ReadOnly(admin.ModelAdmin):
    """Shown, never changed, added or deleted here: the services are the one way in."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ClubAudit)
class ClubAuditAdmin(ReadOnly):
    list_display = ["club", "at", "actor", "action", "reason"]
    list_filter = ["club", "action"]


@admin.register(ClubMoney)
class ClubMoneyAdmin(ReadOnly):
    list_display = ["club", "currency", "coin", "entry_fee", "remainder_to", "main_balance"]
    list_select_related = ["club"]


class ReadOnly(admin.ModelAdmin):
    """Shown, never written here: the rows' rules and audit live in the services."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PayoutTableRow)
class PayoutTableRowAdmin(ReadOnly):
    """Read only: the table is edited whole on the club's money page or by the API, checked
    field by field and audited (``club_services.set_payout_table``); a row saved alone here
    could make every sheet of the club refuse."""

    list_display = ["club", "min_entrants", "percents"]
    list_filter = ["club"]


@admin.register(SidePool)
class SidePoolAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "kind", "fee", "rolls_over", "active", "balance"]
    list_filter = ["club", "kind"]
    # The balance is carried by closing nights, never typed.
    readonly_fields = ["balance"]


@admin.register(EventFees)
class EventFeesAdmin(ReadOnly):
    list_display = ["event", "entry_fee"]
    raw_id_fields = ["event"]


@admin.register(EventPool)
class EventPoolAdmin(admin.ModelAdmin):
    list_display = ["event", "pool", "fee"]
    raw_id_fields = ["event"]


@admin.register(Payment)
class PaymentAdmin(ReadOnly):
    list_display = ["entry", "event", "status", "amount", "at"]
    list_filter = ["status"]
    raw_id_fields = ["event", "entry", "by"]


@admin.register(PoolEntry)
class PoolEntryAdmin(admin.ModelAdmin):
    list_display = ["event", "pool", "entry", "count"]
    raw_id_fields = ["event", "entry"]


@admin.register(PoolWin)
class PoolWinAdmin(admin.ModelAdmin):
    list_display = ["event", "pool", "entry", "order", "payout_percent"]
    raw_id_fields = ["event", "entry"]


class LedgerLineInline(admin.TabularInline):
    model = LedgerLine
    extra = 0
    can_delete = False
    fields = ["order", "pot", "item", "amount", "name", "label"]
    readonly_fields = fields


@admin.register(NightLedger)
class NightLedgerAdmin(ReadOnly):
    list_display = ["event", "closed_at", "closed_by", "takings", "payouts", "carried_out"]
    raw_id_fields = ["event", "club"]
    inlines = [LedgerLineInline]


@admin.register(LedgerLine)
class LedgerLineAdmin(ReadOnly):
    list_display = ["ledger", "pot", "item", "amount", "name"]
    raw_id_fields = ["ledger", "event", "pool", "entry"]


@admin.register(ClubStaff)
class ClubStaffAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "role"]
    list_filter = ["role", "club"]
    list_select_related = ["club", "user"]
    raw_id_fields = ["user"]
