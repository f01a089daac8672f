from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from core.errors import ServiceError

from . import hooks, services
from .models import (
    AuditEntry,
    Bracket,
    Club,
    Entry,
    Event,
    EventTemplate,
    ForbiddenPair,
    GameResult,
    MatchPointFormat,
    Membership,
    Player,
    PlayoffGame,
    PlayoffMatch,
    Registration,
    Round,
    StoppaSeat,
    StoppaTable,
    Table,
    WaitingPlace,
)


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
    """The event's entries, to read (they change through the services, audited)."""

    model = Entry
    extra = 0
    fields = ["player", "partner", "checked_in", "withdrawn"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "season_start", "season_end", "acc_number", "dues_paid"]
    list_filter = ["club"]
    raw_id_fields = ["player"]
    list_select_related = ["player", "club"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "date", "game", "kind", "pairing", "games_planned", "status"]
    list_filter = ["status", "game", "kind", "pairing", "club"]
    search_fields = ["name"]
    date_hierarchy = "date"
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    """Entries are shown, never changed here: a check-in, a withdrawal or an entry goes
    through the services, which audit who did it (and move the waiting list)."""

    list_display = ["player", "event", "checked_in", "withdrawn"]
    list_filter = ["checked_in", "withdrawn", "event"]
    search_fields = ["player__name"]
    list_select_related = ["player", "event"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    raw_id_fields = ["seat_a", "seat_b"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "status", "method", "seed", "created_at"]
    list_filter = ["status", "event"]
    inlines = [TableInline]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["round", "number", "seat_a", "seat_b"]
    list_select_related = ["round__event", "seat_a__player", "seat_b__player"]
    raw_id_fields = ["seat_a", "seat_b", "round"]


class ResultChangesAnnounced(admin.ModelAdmin):
    """Results are shown here, never changed, added or deleted: a change of a result goes
    through the one result service, which checks the winner is seated at the table, derives
    the points, margin and skunk, and audits it with a reason (the TD's pages and the API).
    Should a change ever come through here, it is announced as the services announce theirs
    (the event's results version bumped)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @staticmethod
    def event_of(obj) -> int:
        raise NotImplementedError

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        hooks.results_changed(self.event_of(obj))

    def delete_model(self, request, obj):
        event_id = self.event_of(obj)
        super().delete_model(request, obj)
        hooks.results_changed(event_id)

    def delete_queryset(self, request, queryset):
        events = {self.event_of(obj) for obj in queryset}
        super().delete_queryset(request, queryset)
        for event_id in sorted(events):
            hooks.results_changed(event_id)


@admin.register(GameResult)
class GameResultAdmin(ResultChangesAnnounced):
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

    @staticmethod
    def event_of(obj) -> int:
        return obj.table.round.event_id


@admin.register(ForbiddenPair)
class ForbiddenPairAdmin(admin.ModelAdmin):
    list_display = ["event", "entry_a", "entry_b", "reason"]
    list_select_related = ["event", "entry_a__player", "entry_b__player"]
    raw_id_fields = ["event", "entry_a", "entry_b"]


class PlayoffMatchInline(admin.TabularInline):
    model = PlayoffMatch
    extra = 0
    fields = ["code", "seat_a", "seat_b", "wins_a", "wins_b", "winner", "decided"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Bracket)
class BracketAdmin(admin.ModelAdmin):
    list_display = ["event", "source", "entrants", "champion", "updated_at"]
    raw_id_fields = ["event", "ranking_event", "champion"]
    # Matches are written from the pure bracket by tournaments.services only.
    readonly_fields = ["seeds", "places", "champion"]
    inlines = [PlayoffMatchInline]


@admin.register(PlayoffMatch)
class PlayoffMatchAdmin(admin.ModelAdmin):
    list_display = ["bracket", "code", "seat_a", "seat_b", "wins_a", "wins_b", "winner"]
    list_select_related = ["bracket__event", "seat_a__player", "seat_b__player", "winner__player"]
    raw_id_fields = ["bracket", "seat_a", "seat_b", "winner"]

    def has_add_permission(self, request):
        return False


@admin.register(PlayoffGame)
class PlayoffGameAdmin(ResultChangesAnnounced):
    list_display = ["match", "number", "winner", "loser_score", "forfeit", "entered_at"]
    raw_id_fields = ["match", "winner", "entered_by"]

    @staticmethod
    def event_of(obj) -> int:
        return obj.match.bracket.event_id


class StoppaSeatInline(admin.TabularInline):
    model = StoppaSeat
    extra = 0
    fields = ["position", "entry", "net"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(StoppaTable)
class StoppaTableAdmin(admin.ModelAdmin):
    list_display = ["round", "number", "source", "entered_at"]
    list_select_related = ["round__event"]
    list_filter = ["source"]
    raw_id_fields = ["round", "entered_by"]
    # Nets go through the TD's session page or the API, which check that they sum to zero.
    readonly_fields = ["source", "deals", "entered_by", "entered_at"]
    inlines = [StoppaSeatInline]

    def has_add_permission(self, request):
        return False


@admin.register(StoppaSeat)
class StoppaSeatAdmin(admin.ModelAdmin):
    list_display = ["table", "position", "entry", "net"]
    list_select_related = ["table__round__event", "entry__player"]
    raw_id_fields = ["table", "round", "entry"]
    readonly_fields = ["net"]

    def has_add_permission(self, request):
        return False


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
        # Built-in formats are the tables of docs/rules/cribbage.md, and a format a finished
        # event was scored with is history: copy it to make a variant.
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


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["at", "event", "actor", "action", "reason"]
    list_filter = ["action", "event"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# The leagues' admin (issue 28) lives with the leagues.
from tournaments.leagues import admin as leagues_admin  # noqa: E402, F401


# The door (issue 28): read-only here, since registering, moving up the waiting list and
# checking in go through tournaments.services.door, which audits them.
@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["event", "player", "entry", "created_at", "moved_up_at", "left_at"]
    list_select_related = ["event", "player", "entry__player"]
    search_fields = ["player__name", "email"]
    fields = ["event", "player", "entry", "email", "phone", "created_at", "moved_up_at", "left_at"]
    readonly_fields = fields


@admin.register(WaitingPlace)
class WaitingPlaceAdmin(admin.ModelAdmin):
    list_display = ["event", "position", "registration", "created_at"]
    list_select_related = ["event", "registration__player", "registration__event"]
    fields = ["event", "registration", "position", "created_at"]
    readonly_fields = fields


@admin.register(EventTemplate)
class EventTemplateAdmin(admin.ModelAdmin):
    list_display = ["club", "name", "created_at"]
    list_select_related = ["club"]
    search_fields = ["name"]
    readonly_fields = ["created_at"]
