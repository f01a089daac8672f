from django.urls import path

from . import views, views_seasons

urlpatterns = [
    path("events/<int:event_id>/", views.event_public, name="event"),
    path("events/<int:event_id>/standings/", views.standings_fragment, name="event-standings"),
    path("events/<int:event_id>/seating/", views.seating_fragment, name="event-seating"),
    path("events/<int:event_id>/projector/", views.projector, name="event-projector"),
    path(
        "events/<int:event_id>/projector/seating/",
        views.board_fragment,
        name="event-projector-seating",
    ),
    path("td/events/<int:event_id>/standings/", views.td_standings, name="td-standings"),
    path("seasons/", views.season_list, name="season-list"),
    path("seasons/<int:season_id>/", views.season_detail, name="season"),
    path("seasons/<int:season_id>/recompute/", views.season_recompute, name="season-recompute"),
    path("players/<int:player_id>/", views.player_ledgers, name="player-ledgers"),
]

# The TD's season pages.
urlpatterns += [
    path("td/clubs/<int:club_id>/seasons/", views_seasons.td_seasons, name="td-seasons"),
    path("td/seasons/<int:season_id>/", views_seasons.td_season, name="td-season"),
]

# Data out: exports of an event (public and the TD's), a season's ACC report and printable
# summary, a club's public results archive.
from . import views_export  # noqa: E402 - appended with its routes (a file several edit)

urlpatterns += [
    path(
        "events/<int:event_id>/export/<str:what>.<str:fmt>",
        views_export.event_export,
        name="event-export",
    ),
    path(
        "td/events/<int:event_id>/export/<str:what>.<str:fmt>",
        views_export.td_event_export,
        name="td-event-export",
    ),
    path(
        "seasons/<int:season_id>/export/acc.csv",
        views_export.season_acc_report,
        name="season-acc-report",
    ),
    path(
        "seasons/<int:season_id>/summary.pdf",
        views_export.season_summary_pdf,
        name="season-summary-pdf",
    ),
    path("clubs/<int:club_id>/archive/", views_export.club_archive, name="club-archive"),
]

# Club ratings (scoring.ratings).
from . import views_ratings  # noqa: E402

urlpatterns += [
    path("clubs/<int:club_id>/ratings/", views_ratings.club_ratings, name="club-ratings"),
    path(
        "clubs/<int:club_id>/ratings/recompute/",
        views_ratings.club_ratings_recompute,
        name="club-ratings-recompute",
    ),
]

# The public check of an event's results log (issue 27).
from . import views_verify  # noqa: E402

urlpatterns += [
    path("events/<int:event_id>/verify/", views_verify.event_verify, name="event-verify"),
]

# The ACC paperwork of an event (issue 27): the event report and the MRPs' button.
from . import views_acc  # noqa: E402

urlpatterns += [
    path(
        "td/events/<int:event_id>/acc-report.csv",
        views_acc.td_acc_report_csv,
        name="td-acc-report-csv",
    ),
    path(
        "td/events/<int:event_id>/acc-report.pdf",
        views_acc.td_acc_report_pdf,
        name="td-acc-report-pdf",
    ),
    path("td/events/<int:event_id>/compute-mrp/", views_acc.td_compute_mrp, name="td-compute-mrp"),
]

# The crosstable (wall chart) of an event (issue 28): a page and the whole of it as a PDF.
from . import views_crosstable  # noqa: E402

urlpatterns += [
    path(
        "events/<int:event_id>/crosstable/",
        views_crosstable.event_crosstable,
        name="event-crosstable",
    ),
    path(
        "events/<int:event_id>/crosstable.pdf",
        views_crosstable.event_crosstable_pdf,
        name="event-crosstable-pdf",
    ),
]
