"""URL map: public pages, TD pages, the admin, and the REST API under /api/v1/."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from .api import api_not_found

urlpatterns = [
    path("", include("tournaments.urls")),
    path("", include("games_web.urls")),
    path("", include("scoring.urls")),
    path("", include("results.urls")),
    path("", include("treasury.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("config.api_urls")),
    path("api/v1/results/", include("results.api_urls")),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/v1/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/v1/redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("api/<path:rest>", api_not_found),
]
