from django.urls import path

from . import views

urlpatterns = [
    path("k/<str:key>/", views.player_page, name="player-page"),
    path(
        "td/clubs/<int:club_id>/scorekeepers/",
        views.club_scorekeepers,
        name="td-club-scorekeepers",
    ),
    path("td/events/<int:event_id>/results/", views.results_desk, name="results-desk"),
    path("td/events/<int:event_id>/results/rule/", views.rule_view, name="results-rule"),
    path("td/events/<int:event_id>/results/check/", views.check_view, name="results-check"),
    path("td/events/<int:event_id>/results/accept/", views.accept_view, name="results-accept"),
    path("td/events/<int:event_id>/results/correct/", views.correct_view, name="results-correct"),
    path("td/events/<int:event_id>/results/import/", views.import_view, name="results-import"),
    path(
        "td/events/<int:event_id>/results/import/<int:job_id>/",
        views.import_job_view,
        name="results-import-job",
    ),
    path("td/events/<int:event_id>/results/print/", views.print_view, name="results-print"),
    path(
        "td/events/<int:event_id>/results/print/<int:job_id>/",
        views.print_job_view,
        name="results-print-job",
    ),
]

# The event archive: the TD's download and the club's import.
from . import views_archive  # noqa: E402 - appended with its routes (a file several edit)

urlpatterns += [
    path(
        "td/events/<int:event_id>/archive.json",
        views_archive.td_event_archive,
        name="td-event-archive",
    ),
    path("td/clubs/<int:club_id>/import/", views_archive.td_club_import, name="td-club-import"),
]

# The private-link page as an installable web app (manifest, service worker over /k/).
from . import views_offline  # noqa: E402

urlpatterns += [
    path("k/sw.js", views_offline.service_worker, name="player-sw"),
    path("k/<str:key>/manifest.webmanifest", views_offline.manifest, name="player-manifest"),
]
