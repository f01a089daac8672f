"""Django admin: every model has a working changelist and add page for a superuser."""

from __future__ import annotations

import pytest
from django.contrib import admin

from tests.factories import UserFactory, event_with_field
from tournaments import services

pytestmark = pytest.mark.django_db

OUR_APPS = {"tournaments", "scoring", "results", "treasury"}


def test_every_model_is_in_the_admin_and_its_pages_open(client):
    from django.apps import apps

    ours = [m for m in apps.get_models() if m._meta.app_label in OUR_APPS]
    assert ours and all(m in admin.site._registry for m in ours)

    event = event_with_field(5)
    services.draw_next_game(event)
    user = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(user)
    for model in ours:
        meta = model._meta
        url = f"/admin/{meta.app_label}/{meta.model_name}/"
        assert client.get(url).status_code == 200, url
        first = model.objects.first()
        if first is not None:
            assert client.get(f"{url}{first.pk}/change/").status_code == 200, url
