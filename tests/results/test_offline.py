"""The private-link page as an installable web app, and a report resent after an outage."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.urls import reverse

from results import services
from results.models import Submission
from tests.factories import event_with_field
from tournaments import services as tournament_services
from tournaments.models import GameResult

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    cache.clear()  # the per-key report throttle lives in the cache
    event = event_with_field(4)
    table = tournament_services.draw_next_game(event).tables.order_by("number").first()
    return event, table, services.key_for(table.seat_a).key, services.key_for(table.seat_b).key


def report(client, key: str, table, *, winner: str = "me", loser_score: int = 95):
    """The report form's POST, as the page (or offline.js's resend) sends it."""
    return client.post(
        reverse("player-page", args=[key]),
        {"action": "report", "table": table.pk, "winner": winner, "loser_score": loser_score},
    )


def test_the_page_links_its_manifest_and_offline_script(client, game):
    _event, _table, key, _ = game
    html = client.get(reverse("player-page", args=[key])).content.decode()
    assert f'rel="manifest" href="/k/{key}/manifest.webmanifest"' in html
    assert "js/offline.js" in html and 'data-sw="/k/sw.js"' in html
    assert "Saved on this phone: will be sent when you are back online." in html


def test_the_manifest_opens_the_players_own_link(client, game):
    event, _table, key, _ = game
    response = client.get(reverse("player-manifest", args=[key]))
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["start_url"] == data["scope"] == f"/k/{key}/"
    assert data["display"] == "standalone" and event.name in data["name"]
    assert {icon["sizes"] for icon in data["icons"]} == {"192x192", "512x512", "any"}
    assert client.get(reverse("player-manifest", args=["nope"])).status_code == 404


def test_the_service_worker_covers_the_private_links(client):
    response = client.get("/k/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/k/"
    body = response.content.decode()
    assert 'const STATIC = "/static/";' in body and "{%" not in body


def test_a_resent_report_is_not_a_second_version(client, game):
    _event, table, key_a, key_b = game
    assert report(client, key_a, table).status_code == 302
    # The phone never saw the answer and sends the kept report again.
    assert report(client, key_a, table).status_code == 302
    assert Submission.objects.filter(table=table).count() == 1


def test_a_report_resent_after_the_opponent_confirmed_stays_one_version(client, game):
    _event, table, key_a, key_b = game
    report(client, key_a, table)
    services.confirm_opponent(key_b, table=table, winner=table.seat_a, loser_score=95)
    assert GameResult.objects.get(table=table).winner_id == table.seat_a_id
    again = report(client, key_a, table)
    assert again.status_code == 302  # taken as the same report, not an error
    assert Submission.objects.filter(table=table, by_entry=table.seat_a).count() == 1
    # A different report after the confirmation is still refused.
    other = report(client, key_a, table, loser_score=80)
    assert other.status_code == 400
    assert Submission.objects.filter(table=table, by_entry=table.seat_a).count() == 1
    assert GameResult.objects.get(table=table).loser_score == 95
