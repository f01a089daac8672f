from django.contrib import admin

from .models import MatchPointFormat, Standing


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

    def get_readonly_fields(self, request, obj=None):
        # Built-in formats are the spec's tables: copy one to make a variant.
        if obj is not None and obj.builtin:
            return [f.name for f in obj._meta.fields]
        return []


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    list_display = ["event", "rank", "entry", "game_points", "games_won", "spread", "after_game"]
    list_filter = ["event"]
    list_select_related = ["event", "entry__player"]

    def has_add_permission(self, request):
        return False  # written by the standings job only

    def has_change_permission(self, request, obj=None):
        return False
