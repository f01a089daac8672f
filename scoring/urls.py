from django.urls import path

from . import views

urlpatterns = [
    path("seasons/", views.season_list, name="season-list"),
    path("seasons/<int:season_id>/", views.season_detail, name="season"),
    path("seasons/<int:season_id>/recompute/", views.season_recompute, name="season-recompute"),
    path("players/<int:player_id>/", views.player_ledgers, name="player-ledgers"),
]
