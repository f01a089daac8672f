from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from . import seasons
from .models import (
    GrassRootsPoints,
    MasterPoints,
    MrpAward,
    MrpTable,
    Season,
    SeasonLedger,
    SeasonNight,
    SpecialHand,
    Standing,
    StandingsSnapshot,
    StandingsStatus,
)


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


class GrassRootsInline(admin.TabularInline):
    model = GrassRootsPoints
    extra = 0


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["club", "name", "start", "end", "computed_at"]
    list_filter = ["club"]
    readonly_fields = ["computed_at"]
    inlines = [GrassRootsInline]
    actions = ["recompute"]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if not change:
            seasons.seed_grass_roots(obj)  # a new season starts from the ACC's 9-game table

    @admin.action(description=_("Recompute the ledgers now"))
    def recompute(self, request, queryset):
        for season in queryset:
            seasons.request_recompute(season)
        self.message_user(request, _("Queued."))


@admin.register(MasterPoints)
class MasterPointsAdmin(admin.ModelAdmin):
    """Playoff places' points loaded by hand; the qualifying MRPs are computed (below)."""

    list_display = ["event", "place", "points"]
    list_filter = ["event"]


@admin.register(MrpAward)
class MrpAwardAdmin(admin.ModelAdmin):
    """Computed by scoring.mrp_awards (the event's finish, the TD's button, manage.py
    compute_mrp): read only here."""

    list_display = ["event", "qualifying_rank", "entry", "game_points", "points", "provisional"]
    list_filter = ["provisional", "basis"]
    list_select_related = ["event", "entry__player"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(MrpTable)
class MrpTableAdmin(admin.ModelAdmin):
    """The ACC's Master Points tables by format, loaded by the site or a club."""

    list_display = ["kind", "games", "club", "verified", "source"]
    list_filter = ["kind", "verified"]


@admin.register(SpecialHand)
class SpecialHandAdmin(admin.ModelAdmin):
    list_display = ["event", "entry", "points", "game_number"]
    list_filter = ["points", "event"]
    raw_id_fields = ["entry"]


@admin.register(SeasonLedger)
class SeasonLedgerAdmin(admin.ModelAdmin):
    list_display = ["season", "rank", "player", "grass_roots_points", "nights", "game_points"]
    list_filter = ["season"]
    list_select_related = ["season__club", "player"]

    def has_add_permission(self, request):
        return False  # written by the season job only

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(SeasonNight)
class SeasonNightAdmin(admin.ModelAdmin):
    list_display = [
        "season",
        "player",
        "event",
        "place",
        "game_points",
        "grass_roots_points",
        "why",
    ]
    list_filter = ["season", "why"]
    list_select_related = ["season__club", "player", "event"]

    def has_add_permission(self, request):
        return False  # written by the season job only

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(GrassRootsPoints)
class GrassRootsPointsAdmin(admin.ModelAdmin):
    list_display = ["season", "game_points", "points"]
    list_filter = ["season"]


@admin.register(StandingsStatus)
class StandingsStatusAdmin(admin.ModelAdmin):
    list_display = ["event", "version", "computed_at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


# Club ratings: written by the ratings job only (scoring.ratings), read here.
from .models import PlayerRating, RatingHistory, RatingState  # noqa: E402


class _JobWritten(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(PlayerRating)
class PlayerRatingAdmin(_JobWritten):
    list_display = ["club", "player", "mu", "sigma", "games"]
    list_filter = ["club"]
    list_select_related = ["club", "player"]


@admin.register(RatingHistory)
class RatingHistoryAdmin(_JobWritten):
    list_display = ["club", "player", "event", "mu", "sigma", "games"]
    list_filter = ["club"]
    list_select_related = ["club", "player", "event"]


@admin.register(RatingState)
class RatingStateAdmin(_JobWritten):
    list_display = ["club", "games", "full_runs", "computed_at"]
