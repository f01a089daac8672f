"""Names as people type them: accents, case and order aside, wherever a name is typed, and
entry lists in the language's alphabetical order (issue 22, item 8)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, EntryFactory, EventFactory, PlayerFactory
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(td_user):
    club = ClubFactory(name="Brașov Pegs")
    club.directors.add(td_user)
    return club


@pytest.fixture
def event(club):
    return EventFactory(club=club, name="Joi seara")


def _entry_names(page: str) -> list[str]:
    """The TD's entry list, top to bottom."""
    return re.findall(r'<tr id="entry-\d+">\s*<td[^>]*>(.*?)\s*(?:<small|</td>)', page)


def test_a_pasted_surname_first_name_is_the_clubs_player_or_asked_about(td_client, club, event):
    zoe = PlayerFactory(name="Zoë Lindqvist", home_club=club)
    response = td_client.post(
        reverse("td-import", args=[event.pk]),
        {"names": "Lindqvist, Zoë\nIbanez, Dolores\nzoe lindqvist"},
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "Added 0 new, entered 1 known, skipped 2." in body
    assert list(event.entries.values_list("player_id", flat=True)) == [zoe.pk]
    # Nobody of that name: asked about, not a new player called "Ibanez, Dolores".
    assert "Is this Dolores Ibanez?" in body
    assert not Player.objects.filter(name__contains="Ibanez").exists()
    assert "Listed twice" in body  # the same Zoë, written given name first


def test_the_registration_form_offers_the_player_for_a_surname_first_name(td_client, club, event):
    PlayerFactory(name="Zoë Lindqvist", home_club=club)
    response = td_client.post(
        reverse("td-register", args=[event.pk]), {"name": "Lindqvist, Zoe", "status": "member"}
    )
    assert response.status_code == 400
    assert "Zoë Lindqvist" in response.content.decode()
    assert not event.entries.exists() and Player.objects.count() == 1


@pytest.mark.parametrize(
    ("language", "order"),
    [
        # Łucja among the L, Ștefan among the S: never after Zoë as code points put them.
        ("en", ["Ana Pop", "Łucja Nowak", "Lupu Ion", "Sandu Mara", "Ștefan Țurcanu",
                "Szabo Ede", "Zoë Lindqvist"]),
        # Romanian: Ș is a letter of its own, after S and before T.
        ("ro", ["Ana Pop", "Łucja Nowak", "Lupu Ion", "Sandu Mara", "Szabo Ede",
                "Ștefan Țurcanu", "Zoë Lindqvist"]),
    ],
)  # fmt: skip
def test_the_td_entry_list_is_in_the_languages_alphabetical_order(
    td_client, club, event, language, order
):
    for name in ["Zoë Lindqvist", "Ștefan Țurcanu", "Łucja Nowak", "Szabo Ede", "Sandu Mara",
                 "Lupu Ion", "Ana Pop"]:  # fmt: skip
        EntryFactory(event=event, player__name=name, player__home_club=club)
    page = td_client.get(
        reverse("td-event", args=[event.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    assert _entry_names(page) == order


def test_a_renamed_player_is_found_by_the_new_name_folded(td_client, club, event):
    from tournaments import services

    player = PlayerFactory(name="Tomas Ruiz", home_club=club)
    EntryFactory(event=event, player=player)
    services.rename_player(club, player, "Tomás Ruíz")
    assert Player.objects.filter(name_folded="tomas ruiz").get() == player
    created = Player.objects.bulk_create([Player(name="Dolores IBÁÑEZ", home_club=club)])
    assert Player.objects.get(pk=created[0].pk).name_folded == "dolores ibanez"


def test_the_migration_fills_every_players_folded_name():
    import importlib

    from django.apps import apps

    migration = importlib.import_module("tournaments.migrations.0011_player_name_folded")
    players = [PlayerFactory(name=name) for name in ("Ștefan Țurcanu", "Łucja Nowak", "Zoë")]
    Player.objects.update(name_folded="")  # as before the migration
    migration.fill_folded_names(apps, None)
    assert sorted(Player.objects.values_list("name_folded", flat=True)) == [
        "lucja nowak",
        "stefan turcanu",
        "zoe",
    ]
    assert len(players) == 3


def test_the_api_registers_a_name_typed_without_accents_or_surname_first(td_user, club, event):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(td_user)
    zoe = PlayerFactory(name="Zoë Lindqvist", home_club=club)
    stefan = PlayerFactory(name="Ștefan Țurcanu", home_club=club, acc_number="A-77")
    entries = f"/api/v1/events/{event.pk}/entries/"
    typed = api.post(entries, {"name": "zoe LINDQVIST"}, format="json")
    assert typed.status_code == 201 and typed.json()["player"] == zoe.pk
    by_number = api.post(entries, {"name": "Turcanu, Stefan", "acc_number": "A-77"}, format="json")
    assert by_number.status_code == 201 and by_number.json()["player"] == stefan.pk
    unknown = api.post(entries, {"name": "Ibanez, Dolores"}, format="json")
    assert unknown.status_code == 400
    error = unknown.json()["errors"][0]
    assert error["code"] == "surname_first" and "Is this Dolores Ibanez?" in error["detail"]
    assert Player.objects.count() == 2 and event.entries.count() == 2
