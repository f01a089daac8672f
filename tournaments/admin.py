from django.contrib import admin

from .models import Club, Entry, Event, GameResult, Player, Round, Table


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "city"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["directors"]
    search_fields = ["name", "city"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "acc_number", "home_club", "status"]
    list_filter = ["status", "home_club"]
    search_fields = ["name", "acc_number"]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "date", "game", "kind", "games_planned", "status"]
    list_filter = ["status", "game", "kind", "club"]
    search_fields = ["name"]
    date_hierarchy = "date"
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["player", "event", "checked_in", "withdrawn"]
    list_filter = ["checked_in", "withdrawn", "event"]
    search_fields = ["player__name"]
    list_select_related = ["player", "event"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    raw_id_fields = ["seat_a", "seat_b"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "seed", "created_at"]
    list_filter = ["event"]
    inlines = [TableInline]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["round", "number", "seat_a", "seat_b"]
    list_select_related = ["round__event", "seat_a__player", "seat_b__player"]
    raw_id_fields = ["seat_a", "seat_b", "round"]


@admin.register(GameResult)
class GameResultAdmin(admin.ModelAdmin):
    list_display = [
        "table",
        "kind",
        "winner",
        "loser_score",
        "winner_points",
        "margin",
        "skunk_level",
    ]
    list_filter = ["kind", "skunk_level"]
    raw_id_fields = ["table", "winner", "loser", "entered_by"]
    # Derived values are written by tournaments.services.record_result only.
    readonly_fields = ["winner_points", "loser_points", "margin", "skunk_level"]

    def has_add_permission(self, request):
        # Results go through the TD page or the API, which derive the points and spread.
        return False
