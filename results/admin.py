from django.contrib import admin

from .models import (
    DiscardReview,
    Dispute,
    ImportJob,
    NetSheet,
    PlayerKey,
    PrintJob,
    Scorekeeper,
    Submission,
)


@admin.register(PlayerKey)
class PlayerKeyAdmin(admin.ModelAdmin):
    list_display = ["entry", "created_at"]
    raw_id_fields = ["entry"]
    readonly_fields = ["key", "created_at"]


@admin.register(Scorekeeper)
class ScorekeeperAdmin(admin.ModelAdmin):
    list_display = ["user", "club"]
    list_filter = ["club"]


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ["table", "source", "by_entry", "winner", "loser_score", "status", "created_at"]
    list_filter = ["status", "source", "event"]
    raw_id_fields = ["table", "event", "by_entry", "by_user", "winner"]

    def has_change_permission(self, request, obj=None):
        return False  # versions are history: the results desk rules and corrects


@admin.register(Dispute)
class DisputeAdmin(admin.ModelAdmin):
    list_display = ["table", "event", "opened_at", "ruled_at", "ruled_by"]
    list_filter = ["event"]
    raw_id_fields = ["table", "event", "ruling", "ruled_by"]


@admin.register(PrintJob)
class PrintJobAdmin(admin.ModelAdmin):
    list_display = ["event", "status", "done", "total", "created_at", "finished_at"]
    list_filter = ["status"]
    exclude = ["pdf"]


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    list_display = ["event", "status", "done", "total", "created_at", "finished_at"]
    list_filter = ["status"]
    readonly_fields = ["status", "done", "total", "report", "error", "finished_at"]


@admin.register(DiscardReview)
class DiscardReviewAdmin(admin.ModelAdmin):
    list_display = ["table", "submission", "status", "created_at"]
    list_filter = ["status", "event"]
    raw_id_fields = ["submission", "event", "table"]
    readonly_fields = ["created_at"]

    def has_change_permission(self, request, obj=None):
        return False  # made by the review task from the stored record


@admin.register(NetSheet)
class NetSheetAdmin(admin.ModelAdmin):
    """A Stoppa table's nets as a player sent them, and who confirmed them."""

    list_display = ["table", "by_entry", "status", "created_at"]
    list_filter = ["status"]
    raw_id_fields = ["table", "by_entry"]
    readonly_fields = ["created_at"]
