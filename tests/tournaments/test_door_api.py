"""The TD API of the door (issue 28): registration and the waiting list, self check-in, and
event templates; another club's TD gets a 404, bad input a 400 with its code."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.factories import ClubMoneyFactory, EventFactory, UserFactory
from tournaments.models import Event, EventTemplate
from tournaments.services import registration
from treasury import services as money
from treasury.models import EventFees

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(td_user):
    club = ClubMoneyFactory(entry_fee=Decimal(5)).club
    club.directors.add(td_user)
    return EventFactory(club=club, name="Thursday Ösel", games_planned=6)


def test_registration_settings_and_the_waiting_list(api, td_user, event):
    api.force_authenticate(td_user)
    url = f"/api/v1/events/{event.pk}/registration/"
    body = api.put(url, {"registration_open": True, "cap": 2}, format="json").json()
    assert (body["registration_open"], body["cap"], body["entrants"]) == (True, 2, 0)
    assert body["register_url"].endswith(f"/events/{event.pk}/register/")
    for name in ("Ștefan Popescu", "Łucja Nowak", "Niccolò Bianchi"):
        registration.register_online(event, name=name, phone="+39 055 123 4567")
    body = api.get(url).json()
    assert body["entrants"] == 2
    assert [(p["position"], p["name"], p["phone"]) for p in body["waiting_list"]] == [
        (1, "Niccolò Bianchi", "+39 055 123 4567")
    ]
    refused = api.put(url, {"registration_open": True, "cap": 1}, format="json")
    assert (
        refused.status_code == 400 and refused.json()["errors"][0]["code"] == "cap_below_entrants"
    )
    body = api.put(url, {"registration_open": True, "cap": None}, format="json").json()
    assert body["entrants"] == 3 and body["waiting_list"] == []
    api.force_authenticate(UserFactory())
    assert api.get(url).status_code == 404


def test_self_check_in_door(api, td_user, event):
    api.force_authenticate(td_user)
    url = f"/api/v1/events/{event.pk}/self-check-in/"
    body = api.get(url).json()
    assert body["open"] is True and body["refusal"] == "" and event.door_token in body["door_url"]
    body = api.post(url, {"closed": True, "rotate": True}, format="json").json()
    event.refresh_from_db()
    assert body["open"] is False and body["door_closed"] is True
    assert event.door_token in body["door_url"] and "closed" in body["refusal"]
    assert event.audit.filter(action="door").count() == 1


def test_templates_save_list_use_and_delete(api, td_user, event):
    money.set_event_fees(event, "6.00", {})
    api.force_authenticate(td_user)
    url = f"/api/v1/clubs/{event.club_id}/templates/"
    made = api.post(url, {"event": event.pk, "name": "Weekly"}, format="json")
    assert made.status_code == 201
    template = made.json()
    assert template["settings"]["games_planned"] == 6
    assert template["extras"]["money"]["entry_fee"] == "6.00"
    again = api.post(url, {"event": event.pk, "name": "Weekly"}, format="json")
    assert again.status_code == 400 and again.json()["errors"][0]["code"] == "template_name_taken"
    assert [t["name"] for t in api.get(url).json()] == ["Weekly"]
    new = api.post(
        f"{url}{template['id']}/events/",
        {"name": "Weekly 4 Dec", "date": "2026-12-04"},
        format="json",
    )
    assert new.status_code == 201
    made_event = Event.objects.get(pk=new.json()["id"])
    assert made_event.games_planned == 6 and made_event.name == "Weekly 4 Dec"
    assert EventFees.objects.get(event=made_event).entry_fee == Decimal("6.00")
    assert api.delete(f"{url}{template['id']}/").status_code == 204
    assert not EventTemplate.objects.exists()
    # Another club's TD sees nothing of it.
    other = EventFactory()
    other.club.directors.add(UserFactory(username="other-td"))
    assert api.post(url, {"event": other.pk, "name": "X"}, format="json").status_code == 404
