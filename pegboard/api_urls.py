from django.urls import path

from games_web import api as games_api
from games_web import api_stoppa
from scoring import api as scoring_api
from tournaments import api as tournaments_api
from tournaments import api_stoppa as tournaments_api_stoppa

urlpatterns = [
    path("events/", tournaments_api.EventList.as_view(), name="api-events"),
    path("events/<int:event_id>/", tournaments_api.EventDetail.as_view(), name="api-event"),
    path(
        "events/<int:event_id>/standings/",
        scoring_api.EventStandings.as_view(),
        name="api-standings",
    ),
    path(
        "events/<int:event_id>/entries/", tournaments_api.EventEntries.as_view(), name="api-entries"
    ),
    path("events/<int:event_id>/games/", tournaments_api.EventGames.as_view(), name="api-games"),
    path(
        "events/<int:event_id>/games/<int:number>/tables/",
        tournaments_api.GameTables.as_view(),
        name="api-game-tables",
    ),
    path(
        "events/<int:event_id>/results/", tournaments_api.EventResults.as_view(), name="api-results"
    ),
    path(
        "events/<int:event_id>/bracket/", tournaments_api.EventBracket.as_view(), name="api-bracket"
    ),
]

urlpatterns += [
    path("cribbage/hand", games_api.HandScoreView.as_view(), name="api-cribbage-hand"),
    path("cribbage/play", games_api.PlayScoreView.as_view(), name="api-cribbage-play"),
    path("cribbage/claim", games_api.ClaimCheckView.as_view(), name="api-cribbage-claim"),
    path("cribbage/game", games_api.GameVerifyView.as_view(), name="api-cribbage-game"),
]

urlpatterns += [
    path("stoppa/piccolo", api_stoppa.PiccoloView.as_view(), name="api-stoppa-piccolo"),
    path("stoppa/grosso", api_stoppa.GrossoView.as_view(), name="api-stoppa-grosso"),
    path("stoppa/stop", api_stoppa.StopView.as_view(), name="api-stoppa-stop"),
    path("stoppa/payments", api_stoppa.PaymentsView.as_view(), name="api-stoppa-payments"),
    path("stoppa/deck", api_stoppa.DeckView.as_view(), name="api-stoppa-deck"),
    path("stoppa/deal", api_stoppa.DealVerifyView.as_view(), name="api-stoppa-deal"),
]

urlpatterns += [
    path(
        "events/<int:event_id>/stoppa/sessions/",
        tournaments_api_stoppa.StoppaSessions.as_view(),
        name="api-stoppa-sessions",
    ),
    path(
        "events/<int:event_id>/stoppa/results/",
        tournaments_api_stoppa.StoppaResultCreate.as_view(),
        name="api-stoppa-results",
    ),
]

# Data out: an event's exports (?format=csv|json).
from scoring import api_export as scoring_api_export  # noqa: E402 - appended with its route

urlpatterns += [
    path(
        "events/<int:event_id>/export/<str:what>",
        scoring_api_export.EventExport.as_view(),
        name="api-event-export",
    ),
]
