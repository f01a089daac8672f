from django.urls import path

from . import api

urlpatterns = [
    path("report", api.ReportView.as_view(), name="api-results-report"),
    path("confirm", api.ConfirmView.as_view(), name="api-results-confirm"),
    path("dispute", api.DisputeView.as_view(), name="api-results-dispute"),
    path("events/<int:event_id>/rulings", api.RulingView.as_view(), name="api-results-rulings"),
]

# A table's nets (Stoppa), sent by one player and confirmed by the others.
from . import api_sheets  # noqa: E402 - appended with its routes (a file several edit)

urlpatterns += [
    path("nets", api_sheets.NetsView.as_view(), name="api-results-nets"),
    path("nets/confirm", api_sheets.ConfirmNetsView.as_view(), name="api-results-nets-confirm"),
]

# What the player needs to make the cut (issue 28).
from . import api_need  # noqa: E402

urlpatterns += [path("cut", api_need.NeedView.as_view(), name="api-results-cut")]
