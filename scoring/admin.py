from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from pegboard.errors import ServiceError

from . import services
from .models import MatchPointFormat, Standing, StandingsSnapshot


@admin.register(MatchPointFormat)
class MatchPointFormatAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "code",
        "club",
        "win",
        "skunk",
        "double_skunk",
        "triple_skunk",
        "builtin",
    ]
    list_filter = ["builtin", "club"]
    actions = ["copy_formats"]

    def get_readonly_fields(self, request, obj=None):
        # Built-in formats are the spec's tables, and a format a finished event was scored
        # with is history: copy it to make a variant.
        if obj is not None and (obj.builtin or obj.locked):
            return [f.name for f in obj._meta.fields]
        return []

    def has_delete_permission(self, request, obj=None):
        return obj is None or not (obj.builtin or obj.locked)

    @admin.action(description=_("Copy the selected formats"))
    def copy_formats(self, request, queryset):
        for fmt in queryset:
            try:
                copy = services.copy_format(fmt)
            except ServiceError as exc:
                self.message_user(request, exc.message, messages.ERROR)
            else:
                self.message_user(request, _("Copied as %(code)s.") % {"code": copy.code})


class StandingInline(admin.TabularInline):
    model = Standing
    extra = 0
    can_delete = False
    fields = ["rank", "tied", "entry", "game_points", "games_won", "spread", "separated_by"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(admin.ModelAdmin):
    list_display = ["event", "after_game", "complete", "version", "computed_at"]
    list_filter = ["event"]
    inlines = [StandingInline]
    readonly_fields = ["event", "after_game", "complete", "version", "computed_at"]

    def has_add_permission(self, request):
        return False  # written by the standings job only


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    list_display = ["event", "snapshot", "rank", "entry", "game_points", "games_won", "spread"]
    list_filter = ["event"]
    list_select_related = ["event", "entry__player", "snapshot"]

    def has_add_permission(self, request):
        return False  # written by the standings job only

    def has_change_permission(self, request, obj=None):
        return False
