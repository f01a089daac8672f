"""The TD API and the TD page register a team of two partners as one entry."""

from __future__ import annotations

import pytest

from tests.factories import EventFactory, PlayerFactory, event_with_field
from tournaments.models import Entry, Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def td(api, td_user):
    api.force_authenticate(td_user)
    return api


@pytest.fixture
def event(td_user):
    found = EventFactory(game="partners", pairing=Event.Pairing.SWISS, name="Partners night")
    found.club.directors.add(td_user)
    return found


def errors(response) -> list[tuple[str | None, str, str]]:
    assert response.status_code == 400, response.content
    return [(e["attr"], e["code"], e["detail"]) for e in response.json()["errors"]]


def test_the_api_registers_a_team_by_names_and_by_ids(td, event):
    entries = f"/api/v1/events/{event.pk}/entries/"
    response = td.post(entries, {"name": "Anna Rossi", "partner_name": "Ștefan Pop"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    team = Entry.objects.get(pk=body["id"])
    assert body["name"] == "Anna Rossi & Ștefan Pop"
    assert (body["player"], body["partner"]) == (team.player_id, team.partner_id)
    a = PlayerFactory(name="Łucja Nowak", home_club=event.club)
    b = PlayerFactory(name="Jürgen Weiß", home_club=event.club)
    response = td.post(entries, {"player": a.pk, "partner": b.pk}, format="json")
    assert response.status_code == 201 and response.json()["name"] == "Łucja Nowak & Jürgen Weiß"
    listed = td.get(entries).json()["results"]
    assert [row["name"] for row in listed] == [
        "Anna Rossi & Ștefan Pop",
        "Łucja Nowak & Jürgen Weiß",
    ]


def test_the_api_refuses_a_bad_team_with_a_400_and_its_code(td, event):
    entries = f"/api/v1/events/{event.pk}/entries/"
    td.post(entries, {"name": "Anna Rossi", "partner_name": "Ștefan Pop"}, format="json")
    same = td.post(entries, {"name": "Mara Dinu", "partner_name": "mara dinu"}, format="json")
    assert errors(same) == [("partner", "same_player", "A team needs two different players.")]
    taken = td.post(entries, {"name": "Mara Dinu", "partner_name": "Ștefan Pop"}, format="json")
    assert errors(taken) == [
        (
            "partner",
            "already_in_team",
            "Ștefan Pop already plays in this event: Anna Rossi & Ștefan Pop.",
        )
    ]
    alone = td.post(entries, {"name": "Mara Dinu"}, format="json")
    assert errors(alone)[0][:2] == ("partner", "partner_required")
    assert Entry.objects.filter(event=event).count() == 1


def test_a_partner_on_a_two_player_event_is_a_400(td, td_user):
    crib = event_with_field(2)
    crib.club.directors.add(td_user)
    response = td.post(
        f"/api/v1/events/{crib.pk}/entries/",
        {"name": "Anna Rossi", "partner_name": "Ștefan Pop"},
        format="json",
    )
    assert errors(response)[0][:2] == ("partner", "not_team_game")
    assert crib.entries.count() == 2


def test_the_td_page_registers_a_team_and_shows_a_refusal_beside_the_field(td_client, event):
    page = td_client.get(f"/td/events/{event.pk}/")
    assert 'id="register-team"' in page.content.decode()
    assert 'id="register"' not in page.content.decode()  # no lone-player form
    done = td_client.post(
        f"/td/events/{event.pk}/teams/", {"name": "Anna Rossi", "partner": "Ștefan Pop"}
    )
    assert done.status_code == 302
    page = td_client.get(done["Location"]).content.decode()
    assert "Anna Rossi &amp; Ștefan Pop" in page
    refused = td_client.post(
        f"/td/events/{event.pk}/teams/", {"name": "Ștefan Pop", "partner": "Mara Dinu"}
    )
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "Ștefan Pop already plays in this event: Anna Rossi &amp; Ștefan Pop." in html
    assert 'value="Mara Dinu"' in html
    assert event.entries.count() == 1


def test_a_typo_of_a_club_players_name_is_refused_unless_new_players_are_asked(td_client, event):
    PlayerFactory(name="Ann Whitfield", home_club=event.club)
    url = f"/td/events/{event.pk}/teams/"
    refused = td_client.post(url, {"name": "Ann Whitfeld", "partner": "Bob Ng"})
    assert refused.status_code == 400
    assert "The club has players with a name like this: Ann Whitfield." in refused.content.decode()
    assert event.entries.count() == 0
    done = td_client.post(url, {"name": "ann whitfield", "partner": "Bob Ng"})
    assert done.status_code == 302
    team = event.entries.select_related("player", "partner").get()
    assert team.name == "Ann Whitfield & Bob Ng"  # the club's player, not a copy
    done = td_client.post(url, {"name": "Ann Whitfeld", "partner": "Cleo Ng", "new": "on"})
    assert done.status_code == 302 and event.entries.count() == 2
