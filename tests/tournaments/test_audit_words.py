"""The audit log reads as sentences with names and scores, never a dict of ids."""

from __future__ import annotations

import pytest
from django.urls import reverse

from results import services as result_services
from tests.factories import event_with_field
from tournaments import services
from tournaments.templatetags.pegboard import audit_action, audit_value

pytestmark = pytest.mark.django_db


def test_audit_values_read_as_sentences():
    assert audit_value(None) == ""
    assert (
        audit_value({"winner": "Zoë", "loser": "Ștefan", "loser_score": 95, "forfeit": False})
        == "Zoë won, Ștefan 95"
    )
    assert audit_value({"winner": "Zoë", "loser": "Ștefan", "forfeit": True}) == (
        "Zoë won by forfeit"
    )
    assert audit_value({"match": "A1", "game": 2, "winner": "Zoë", "loser_score": 80}) == (
        "Match A1, game 2: Zoë won, loser's score 80"
    )
    assert audit_value({"session": 2, "table": 3, "nets": {"Ann": 5, "Bob": -5}}) == (
        "Session 2, table 3: Ann +5, Bob -5"
    )
    assert audit_action("to_check") == "agreed, to check"
    assert audit_action("mystery_code") == "mystery code"


def test_the_desk_shows_a_correction_with_names_and_scores(client, td_user):
    event = event_with_field(4, name="Desk night")
    event.club.directors.add(td_user)
    round_ = services.draw_next_game(event)
    table = round_.tables.order_by("number").first()
    services.record_result(event, table=table, winner=table.seat_a, loser_score=90, user=td_user)
    result_services.correct(
        event,
        table=table,
        winner=table.seat_b,
        loser_score=100,
        reason="card misread",
        user=td_user,
    )
    client.force_login(td_user)
    body = client.get(reverse("results-desk", args=[event.pk])).content.decode()
    a, b = table.seat_a.player.name, table.seat_b.player.name
    assert f"{a} won, {b} 90" in body and f"{b} won, {a} 100" in body
    assert "card misread" in body and "{&#x27;winner" not in body and "{'winner" not in body
