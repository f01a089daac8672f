from django.urls import path

from . import views, views_stoppa

urlpatterns = [path("cribbage/", views.cribbage_checker, name="cribbage-checker")]
urlpatterns += [path("cribbage/discard", views.cribbage_discard, name="cribbage-discard")]
urlpatterns += [path("stoppa/", views_stoppa.stoppa_checker, name="stoppa-checker")]
