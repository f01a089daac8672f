from django.urls import path

from . import views

urlpatterns = [path("cribbage/", views.cribbage_checker, name="cribbage-checker")]
