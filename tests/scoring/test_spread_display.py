"""Spreads are shown with their sign and no zero padding (+6, -6, 6), on every page, the API,
the printed card and the projector: "+06" read as a typo to players."""

from __future__ import annotations

import pytest
from django.urls import reverse

from results import printables
from scoring.services import recompute_standings
from tests.factories import event_with_field
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def close_game(td_user):
    """A 4-player night, game 1: table 1 won by 6 (115 of 121)."""
    event = event_with_field(4)
    event.club.directors.add(td_user)
    round_ = services.draw_next_game(event)
    table = round_.tables.order_by("number").first()
    services.record_result(event, table=table, winner=table.seat_a, loser_score=115)
    recompute_standings(event.pk)
    return event, table


def test_pages_show_a_small_spread_as_plus_6(client, td_user, close_game):
    event, table = close_game
    client.force_login(td_user)
    pages = {
        "standings": reverse("event-standings", args=[event.pk]),
        "projector": reverse("event-projector", args=[event.pk]),
        "TD game": reverse("td-game", args=[event.pk, 1]),
        "TD standings": reverse("td-standings", args=[event.pk]),
    }
    for where, url in pages.items():
        page = client.get(url).content.decode()
        assert "+6" in page, where
        assert "+06" not in page and "-06" not in page, where


def test_the_api_and_the_printed_card_show_6_unpadded(client, td_user, close_game):
    event, table = close_game
    client.force_login(td_user)
    body = client.get(reverse("api-results", args=[event.pk])).json()
    results = body["results"] if isinstance(body, dict) and "results" in body else body
    assert [r["spread"] for r in results] == ["+6"]
    cards = {c["entry"].pk: c for c in printables.score_cards(event, "http://club.example/")}
    assert cards[table.seat_a_id]["rows"][0]["plus"] == "6"
    assert cards[table.seat_b_id]["rows"][0]["minus"] == "6"
