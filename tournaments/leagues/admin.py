"""The leagues in the Django admin. A leg is a result: it is written only through
``services.record_leg`` (audited), so the admin shows legs and the log read-only."""

from __future__ import annotations

from django.contrib import admin

from .models import League, LeagueAuditEntry, LeagueMatch, LeagueTeam, Leg


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "season_start", "season_end", "win_on"]
    list_filter = ["club"]
    search_fields = ["name"]


@admin.register(LeagueTeam)
class LeagueTeamAdmin(admin.ModelAdmin):
    list_display = ["name", "league"]
    filter_horizontal = ["players"]
    search_fields = ["name"]


@admin.register(LeagueMatch)
class LeagueMatchAdmin(admin.ModelAdmin):
    list_display = ["league", "round", "date", "home", "away", "status"]
    list_filter = ["league", "status"]


@admin.register(Leg)
class LegAdmin(ReadOnly):
    list_display = ["match", "number", "kind", "winner", "loser_score", "spread"]


@admin.register(LeagueAuditEntry)
class LeagueAuditEntryAdmin(ReadOnly):
    list_display = ["at", "league", "actor", "action"]
    list_filter = ["action"]

    def has_delete_permission(self, request, obj=None):
        return False
