from django.urls import path

from . import views, views_stoppa

urlpatterns = [
    path("", views.home, name="home"),
    path("td/events/<int:event_id>/", views.td_event, name="td-event"),
    path("td/events/<int:event_id>/draw/", views.td_draw, name="td-draw"),
    path("td/events/<int:event_id>/finish/", views.td_finish, name="td-finish"),
    path("td/events/<int:event_id>/publish/", views.td_publish, name="td-publish"),
    path("td/events/<int:event_id>/register/", views.td_register, name="td-register"),
    path("td/events/<int:event_id>/ranking-chain/", views.td_chain, name="td-chain"),
    path("td/events/<int:event_id>/entries/<int:entry_id>/", views.td_entry, name="td-entry"),
    path("td/events/<int:event_id>/games/<int:number>/", views.td_game, name="td-game"),
    path("td/events/<int:event_id>/games/<int:number>/redraw/", views.td_redraw, name="td-redraw"),
    path(
        "td/events/<int:event_id>/games/<int:number>/release/",
        views.td_release,
        name="td-release",
    ),
    path("td/events/<int:event_id>/games/<int:number>/swap/", views.td_swap, name="td-swap"),
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
        "td/events/<int:event_id>/stoppa-tables/",
        views_stoppa.td_table_sizes,
        name="td-stoppa-tables",
    ),
]
