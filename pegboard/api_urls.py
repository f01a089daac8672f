from django.urls import path

from scoring import api as scoring_api
from tournaments import api as tournaments_api

urlpatterns = [
    path("events/", tournaments_api.EventList.as_view(), name="api-events"),
    path("events/<int:event_id>/", tournaments_api.EventDetail.as_view(), name="api-event"),
    path(
        "events/<int:event_id>/standings/",
        scoring_api.EventStandings.as_view(),
        name="api-standings",
    ),
    path(
        "events/<int:event_id>/results/", tournaments_api.ResultCreate.as_view(), name="api-results"
    ),
]
