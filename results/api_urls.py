from django.urls import path

from . import api

urlpatterns = [
    path("report", api.ReportView.as_view(), name="api-results-report"),
    path("confirm", api.ConfirmView.as_view(), name="api-results-confirm"),
    path("dispute", api.DisputeView.as_view(), name="api-results-dispute"),
    path("events/<int:event_id>/rulings", api.RulingView.as_view(), name="api-results-rulings"),
]
