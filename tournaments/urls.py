from django.urls import path

from . import views, views_club, views_game
from .stoppa import views as views_stoppa
from .threehanded import views as views_three

urlpatterns = [
    path("", views.home, name="home"),
    path("td/clubs/<int:club_id>/", views_club.td_club, name="td-club"),
    path(
        "td/clubs/<int:club_id>/directors/",
        views_club.td_club_directors,
        name="td-club-directors",
    ),
    path("td/clubs/<int:club_id>/defaults/", views_club.td_club_defaults, name="td-club-defaults"),
    path(
        "td/clubs/<int:club_id>/chain/<str:game>/",
        views_club.td_club_chain,
        name="td-club-chain",
    ),
    path("td/clubs/<int:club_id>/events/new/", views_club.td_event_new, name="td-event-new"),
    path("td/clubs/<int:club_id>/players/", views_club.td_players, name="td-players"),
    path(
        "td/clubs/<int:club_id>/players/<int:player_id>/rename/",
        views_club.td_player_rename,
        name="td-player-rename",
    ),
    path(
        "td/clubs/<int:club_id>/players/merge/",
        views_club.td_player_merge,
        name="td-player-merge",
    ),
    path(
        "td/events/<int:event_id>/settings/",
        views_club.td_event_settings,
        name="td-event-settings",
    ),
    path(
        "td/events/<int:event_id>/players/search/",
        views.td_player_search,
        name="td-player-search",
    ),
    path("td/events/<int:event_id>/check-in-all/", views.td_check_in_all, name="td-check-in-all"),
    path("td/events/<int:event_id>/import/", views.td_import, name="td-import"),
    path("td/events/<int:event_id>/", views.td_event, name="td-event"),
    path("td/events/<int:event_id>/draw/", views.td_draw, name="td-draw"),
    path("td/events/<int:event_id>/finish/", views.td_finish, name="td-finish"),
    path("td/events/<int:event_id>/publish/", views.td_publish, name="td-publish"),
    path("td/events/<int:event_id>/reopen/", views.td_reopen, name="td-reopen"),
    path("td/events/<int:event_id>/undo-result/", views.td_undo_result, name="td-undo-result"),
    path("td/events/<int:event_id>/register/", views.td_register, name="td-register"),
    path("td/events/<int:event_id>/teams/", views.td_register_team, name="td-register-team"),
    path("td/events/<int:event_id>/ranking-chain/", views.td_chain, name="td-chain"),
    path("td/events/<int:event_id>/entries/<int:entry_id>/", views.td_entry, name="td-entry"),
    path("td/events/<int:event_id>/games/<int:number>/", views_game.td_game, name="td-game"),
    path("td/events/<int:event_id>/games/<int:number>/redraw/", views.td_redraw, name="td-redraw"),
    path(
        "td/events/<int:event_id>/games/<int:number>/release/",
        views.td_release,
        name="td-release",
    ),
    path("td/events/<int:event_id>/games/<int:number>/swap/", views_game.td_swap, name="td-swap"),
    path(
        "td/events/<int:event_id>/games/<int:number>/seating/",
        views.td_seating,
        name="td-seating",
    ),
    path("td/events/<int:event_id>/format/", views.td_format, name="td-format"),
    path("td/events/<int:event_id>/forbidden/", views.td_forbidden, name="td-forbidden"),
    path("td/events/<int:event_id>/playoff/", views.td_playoff, name="td-playoff"),
    path("td/events/<int:event_id>/consolation/", views.td_consolation, name="td-consolation"),
    path("events/<int:event_id>/bracket/", views.event_bracket, name="event-bracket"),
    path(
        "events/<int:event_id>/bracket/fragment/",
        views.bracket_fragment,
        name="event-bracket-fragment",
    ),
    path("events/<int:event_id>/sessions/", views_stoppa.event_sessions, name="event-sessions"),
    path(
        "td/events/<int:event_id>/sessions/<int:number>/",
        views_stoppa.td_session,
        name="td-session",
    ),
    path(
        "td/events/<int:event_id>/three-handed/<int:number>/",
        views_three.td_game,
        name="td-three-game",
    ),
    path(
        "td/events/<int:event_id>/place-points/",
        views_three.td_place_points,
        name="td-place-points",
    ),
    path(
        "td/events/<int:event_id>/stoppa-tables/",
        views_stoppa.td_table_sizes,
        name="td-stoppa-tables",
    ),
]

# An event's life outside play (tournaments.views_lifecycle).
from . import views_lifecycle  # noqa: E402

urlpatterns += [
    path(
        "td/events/<int:event_id>/season/",
        views_lifecycle.td_event_season,
        name="td-event-season",
    ),
    path(
        "td/events/<int:event_id>/cancel/", views_lifecycle.td_event_cancel, name="td-event-cancel"
    ),
    path(
        "td/events/<int:event_id>/delete/", views_lifecycle.td_event_delete, name="td-event-delete"
    ),
    path("td/events/<int:event_id>/clone/", views_lifecycle.td_clone_event, name="td-clone-event"),
]

# A club's members and its guest rule (issue 27).
from . import views_members  # noqa: E402

urlpatterns += [
    path("td/clubs/<int:club_id>/members/", views_members.td_members, name="td-members"),
    path(
        "td/clubs/<int:club_id>/members/<int:membership_id>/delete/",
        views_members.td_member_delete,
        name="td-member-delete",
    ),
    path("td/clubs/<int:club_id>/guest-rule/", views_members.td_guest_rule, name="td-guest-rule"),
]

# A club's leagues: teams meet in matches of several legs (issue 28).
from .leagues import views as views_leagues  # noqa: E402

urlpatterns += [
    path("td/clubs/<int:club_id>/leagues/", views_leagues.td_leagues, name="td-leagues"),
    path("td/leagues/<int:league_id>/", views_leagues.td_league, name="td-league"),
    path(
        "td/leagues/<int:league_id>/teams/<int:team_id>/",
        views_leagues.td_league_team,
        name="td-league-team",
    ),
    path(
        "td/leagues/<int:league_id>/fixtures/",
        views_leagues.td_league_fixtures,
        name="td-league-fixtures",
    ),
    path(
        "td/leagues/<int:league_id>/matches/<int:match_id>/",
        views_leagues.td_league_match,
        name="td-league-match",
    ),
    path(
        "td/leagues/<int:league_id>/export/",
        views_leagues.td_league_export,
        name="td-league-export",
    ),
    path("leagues/", views_leagues.leagues, name="leagues"),
    path("leagues/<int:league_id>/", views_leagues.league, name="league"),
    path(
        "leagues/<int:league_id>/matches/<int:match_id>/",
        views_leagues.league_match,
        name="league-match",
    ),
]

# The round clock (issue 28).
from . import views_clock  # noqa: E402

urlpatterns += [
    path(
        "td/events/<int:event_id>/games/<int:number>/clock/", views_clock.td_clock, name="td-clock"
    ),
    path(
        "td/events/<int:event_id>/games/<int:number>/called-at-time/",
        views_clock.td_call_at_time,
        name="td-call-at-time",
    ),
    path("td/clubs/<int:club_id>/clock/", views_clock.td_clock_rule, name="td-clock-rule"),
    path("events/<int:event_id>/clock/", views_clock.event_clock, name="event-clock"),
]

# A night that runs itself at the door (issue 28): registration, waiting list, self
# check-in, event templates.
from . import views_door  # noqa: E402

urlpatterns += [
    path("td/events/<int:event_id>/door/", views_door.td_door, name="td-door"),
    path("td/events/<int:event_id>/door/switch/", views_door.td_door_switch, name="td-door-switch"),
    path("td/events/<int:event_id>/door/qr/", views_door.td_door_print, name="td-door-qr"),
    path(
        "td/events/<int:event_id>/template/",
        views_door.td_save_template,
        name="td-save-template",
    ),
    path(
        "td/clubs/<int:club_id>/from-template/",
        views_door.td_event_from_template,
        name="td-event-from-template",
    ),
    path("events/<int:event_id>/register/", views_door.event_register, name="event-register"),
    path("r/<str:key>/", views_door.registration_page, name="registration-page"),
    path("events/<int:event_id>/door/<str:token>/", views_door.event_door, name="event-door"),
]
