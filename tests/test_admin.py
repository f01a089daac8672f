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


def test_results_entries_and_money_are_read_only_in_the_admin(client):
    """Issue 34, item 3: ``loser_score=3`` posted to a result's change form saved with no
    audit row and left margin and skunk inconsistent; results, entries, payments and ledgers
    change only through the services now."""
    from tournaments.models import AuditEntry, GameResult

    event = event_with_field(4)
    round_ = services.draw_next_game(event)
    table = round_.tables.order_by("number").first()
    services.record_result(event, table=table, winner=table.seat_a, loser_score=90)
    result = GameResult.objects.get(table=table)
    user = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(user)
    url = f"/admin/tournaments/gameresult/{result.pk}/change/"
    page = client.get(url).content.decode()
    assert 'name="loser_score"' not in page  # shown, not a field to change
    posted = client.post(url, {"loser_score": "3", "winner": result.winner_id})
    assert posted.status_code == 403
    result.refresh_from_db()
    assert result.loser_score == 90
    assert AuditEntry.objects.filter(event=event).count() == 1
    entry = event.entries.first()
    assert client.post(f"/admin/tournaments/entry/{entry.pk}/change/", {}).status_code == 403
    assert (
        client.post(
            f"/admin/tournaments/gameresult/{result.pk}/delete/", {"post": "yes"}
        ).status_code
        == 403
    )
