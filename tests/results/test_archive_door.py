"""The archive carries the door (issue 28): online registrations, the waiting list, how each
entry was checked in, and the event's registration settings."""

from __future__ import annotations

import json

import pytest
from django.core.serializers.json import DjangoJSONEncoder

from results.archive import export_event, import_event
from tests.factories import ClubFactory, EventFactory
from tournaments.models import Entry, Registration
from tournaments.services import door, registration

pytestmark = pytest.mark.django_db


def test_registrations_and_the_waiting_list_survive_export_and_import():
    event = registration.set_registration(
        EventFactory(name="Thursday Ösel"), registration_open=True, cap=2
    )
    names = ["Ștefan Popescu", "Łucja Nowak", "Niccolò Bianchi", "Jürgen Weiß"]
    made = [registration.register_online(event, name=n, email="") for n in names]
    Registration.objects.filter(pk=made[2].pk).update(phone="+40 21 555 0101")
    door.self_check_in(made[0].entry, how=Entry.CheckIn.LINK)
    data = json.loads(json.dumps(export_event(event), cls=DjangoJSONEncoder, ensure_ascii=False))
    assert data["event"]["cap"] == 2 and data["event"]["registration_open"] is True
    assert [(r["name"], r["waiting_position"]) for r in data["registrations"]] == [
        ("Ștefan Popescu", None),
        ("Łucja Nowak", None),
        ("Niccolò Bianchi", 1),
        ("Jürgen Weiß", 2),
    ]
    assert data["entries"][0]["checked_in_how"] == "link"
    fresh = ClubFactory()
    copy = import_event(data, club=fresh)
    assert (copy.cap, copy.registration_open) == (2, True)
    waiting = copy.waiting_list.order_by("position")
    assert [(p.position, p.registration.player.name) for p in waiting] == [
        (1, "Niccolò Bianchi"),
        (2, "Jürgen Weiß"),
    ]
    assert waiting[0].registration.phone == "+40 21 555 0101"
    assert copy.entries.get(player__name="Ștefan Popescu").checked_in_how == "link"
    assert {r.key for r in copy.registrations.all()}.isdisjoint({r.key for r in made})
    # The moving up works on the imported event too.
    from tournaments import services

    services.withdraw_entry(copy.entries.get(player__name="Łucja Nowak"))
    assert copy.waiting_list.get().registration.player.name == "Jürgen Weiß"


def test_a_waiting_team_survives_export_and_import_with_its_partner():
    from core.errors import ServiceError
    from tournaments import services
    from tournaments.models import Event

    event = registration.set_registration(
        EventFactory(game="partners", pairing=Event.Pairing.SWISS), registration_open=True, cap=2
    )
    registration.register_online(event, name="Ștefan Popescu", partner_name="Łucja Nowak")
    registration.register_online(event, name="Ann Whitfield", partner_name="Bob Ng")
    registration.register_online(event, name="Niccolò Bianchi", partner_name="Jürgen Weiß")
    data = json.loads(json.dumps(export_event(event), cls=DjangoJSONEncoder, ensure_ascii=False))
    assert [
        (r["name"], r["partner_name"], r["waiting_position"]) for r in data["registrations"]
    ] == [
        ("Ștefan Popescu", "Łucja Nowak", None),
        ("Ann Whitfield", "Bob Ng", None),
        ("Niccolò Bianchi", "Jürgen Weiß", 1),
    ]
    copy = import_event(data, club=ClubFactory())
    waiting = copy.waiting_list.get().registration
    assert waiting.name == "Niccolò Bianchi & Jürgen Weiß"
    services.withdraw_entry(copy.entries.get(player__name="Ann Whitfield"))
    waiting.refresh_from_db()
    assert waiting.entry.name == "Niccolò Bianchi & Jürgen Weiß"
    # A registration that names one player twice is refused with its path.
    data["registrations"][2]["partner_name"] = "Niccolò Bianchi"
    with pytest.raises(ServiceError) as exc:
        import_event(data, club=ClubFactory())
    assert "registrations[2]" in str(exc.value.message)
