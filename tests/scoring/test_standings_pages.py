"""Standings pages belong to scoring: the TD's panel is loaded into the TD's event page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory, event_with_field
from tournaments import services

pytestmark = pytest.mark.django_db


def test_the_td_panel_shows_unpublished_standings_to_the_td_only(
    client, td_user, django_capture_on_commit_callbacks
):
    event = event_with_field(4, name="Martedì")
    event.club.directors.add(td_user)
    round_ = services.draw_next_game(event)
    table = round_.tables.order_by("number").first()
    with django_capture_on_commit_callbacks(execute=True):
        services.record_result(event, table=table, winner=table.seat_a, loser_score=88)
    services.set_standings_published(event, False)
    url = reverse("td-standings", args=[event.pk])

    assert client.get(url).status_code == 302  # login first
    stranger = UserFactory(username="stranger")
    ClubFactory().directors.add(stranger)
    client.force_login(stranger)
    assert client.get(url).status_code == 404  # another club's TD

    client.force_login(td_user)
    page = client.get(reverse("td-event", args=[event.pk])).content.decode()
    assert url in page  # the TD page loads the panel
    panel = client.get(url).content.decode()
    assert table.seat_a.player.name in panel and "+33" in panel
    assert "has not published" not in panel
