"""Public "find me" and the seating search find a player however their name is typed:
accents, case and the order of its words aside (issue 22, item 8)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import event_with_field
from tournaments import services

pytestmark = pytest.mark.django_db

NAMES = ["Zoë Lindqvist", "Ștefan Țurcanu", "Tomás Ruiz", "Dolores Ibáñez", "Łucja Nowak"]


@pytest.fixture
def event(django_capture_on_commit_callbacks):
    event = event_with_field(30)
    for entry, name in zip(event.entries.order_by("pk"), NAMES, strict=False):
        entry.player.name = name
        entry.player.save()
    round_ = services.draw_next_game(event)
    with django_capture_on_commit_callbacks(execute=True):
        for table in round_.tables.filter(seat_b__isnull=False):
            services.record_result(event, table=table, winner=table.seat_a, loser_score=90)
    return event


TYPED = [
    ("zoe", "Zoë Lindqvist"),
    ("ZOË", "Zoë Lindqvist"),
    ("stefan", "Ștefan Țurcanu"),
    ("turcanu", "Ștefan Țurcanu"),
    ("Tomas", "Tomás Ruiz"),
    ("Dolores Ibanez", "Dolores Ibáñez"),
    ("Lindqvist, Zoe", "Zoë Lindqvist"),
    ("lucja", "Łucja Nowak"),
]


@pytest.mark.parametrize(("typed", "name"), TYPED)
def test_find_me_is_accent_case_and_order_blind(client, event, typed, name):
    body = client.get(reverse("event-standings", args=[event.pk]), {"find": typed}).content
    page = body.decode()
    assert page.count("<tr") == 2 and name in page  # the header and that one player


@pytest.mark.parametrize(("typed", "name"), TYPED)
def test_the_seating_search_is_accent_case_and_order_blind(client, event, typed, name):
    page = client.get(reverse("event-seating", args=[event.pk]), {"game": 1, "seat": typed})
    body = page.content.decode()
    assert name in body
    others = [other for other in NAMES if other != name]
    # Only that player's table is listed: no other renamed player shows.
    seated_with = {
        t.seat_b.player.name if t.seat_a.player.name == name else t.seat_a.player.name
        for t in event.rounds.get().tables.select_related("seat_a__player", "seat_b__player")
        if name in (t.seat_a.player.name, t.seat_b.player.name)
    }
    assert all(other not in body for other in others if other not in seated_with)


def test_nothing_but_a_comma_finds_nobody(client, event):
    page = client.get(reverse("event-standings", args=[event.pk]), {"find": ","}).content
    assert page.decode().count("<tr") <= 1
