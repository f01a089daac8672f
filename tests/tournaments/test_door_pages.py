"""The door's pages (issue 28): the public registration page and a registration's own page,
"I'm here" on a player's link, the door QR's page, the TD's door page and event templates."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from results import services as result_services
from tests.factories import EventFactory, UserFactory, event_with_field
from tournaments import services
from tournaments.models import Entry, Event, EventTemplate, Registration
from tournaments.services import registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_event(td_user):
    event = EventFactory(name="Thursday Ösel")
    event.club.directors.add(td_user)
    return registration.set_registration(event, registration_open=True, cap=2)


def test_registering_online_below_and_above_the_cap(client, open_event):
    url = reverse("event-register", args=[open_event.pk])
    assert client.get(url).status_code == 200
    for name in ("Ștefan Popescu", "Łucja Nowak", "Niccolò Bianchi"):
        response = client.post(url, {"name": name, "email": "", "phone": ""})
        assert response.status_code == 302
    page = client.get(response.url).content.decode()
    assert "Niccolò Bianchi" in page and "You are number 1 on the waiting list." in page
    # Bad input: beside the field, nothing made.
    bad = client.post(url, {"name": "Eve", "email": "not-an-email", "phone": ""})
    assert (bad.status_code == 400 and "is-invalid" in bad.content.decode()) or (
        "Enter a valid email address." in bad.content.decode()
    )
    twice = client.post(url, {"name": "stefan popescu", "email": "", "phone": ""})
    assert twice.status_code == 400
    assert "Ștefan Popescu is already registered for this event." in twice.content.decode()
    assert Registration.objects.filter(event=open_event).count() == 3
    # Łucja can't come: Niccolò's page then says he is in.
    lucja = Registration.objects.get(event=open_event, player__name="Łucja Nowak")
    client.post(reverse("registration-page", args=[lucja.key]), {"action": "withdraw"})
    page = client.get(response.url).content.decode()
    assert "You&#x27;re in" in page or "You're in" in page
    # Closed registration: no page for an unknown or closed event.
    registration.set_registration(open_event, registration_open=False, cap=2)
    assert client.get(url).status_code == 404
    assert client.get(reverse("registration-page", args=["nope"])).status_code == 404


def test_im_here_on_the_private_link(client, td_client):
    event = event_with_field(3)
    event.club.directors.add(UserFactory())
    entry = event.entries.order_by("pk").first()
    Entry.objects.filter(pk=entry.pk).update(checked_in=False)
    key = result_services.key_for(entry).key
    page = client.get(reverse("player-page", args=[key])).content.decode()
    assert 'id="im-here"' in page
    assert client.post(reverse("player-page", args=[key]), {"action": "here"}).status_code == 302
    entry.refresh_from_db()
    assert entry.checked_in and entry.checked_in_how == Entry.CheckIn.LINK
    assert 'id="im-here"' not in client.get(reverse("player-page", args=[key])).content.decode()
    assert event.audit.filter(action="self_check_in").count() == 1


def test_the_door_page_finds_a_name_and_checks_in(client, td_client, td_user):
    event = event_with_field(0)
    event.club.directors.add(td_user)
    from tests.factories import PlayerFactory

    for name in ("Jürgen Weiß", "Ann Whitfield"):
        services.enter_player(event, PlayerFactory(name=name, home_club=event.club))
    door_url = reverse("event-door", args=[event.pk, event.door_token])
    page = client.get(door_url, {"q": "jurgen weiss"}).content.decode()
    assert "Check in Jürgen Weiß" in page and "Ann Whitfield" not in page
    jurgen = event.entries.get(player__name="Jürgen Weiß")
    ann = event.entries.get(player__name="Ann Whitfield")
    client.post(door_url, {"entry": jurgen.pk})
    client.post(door_url, {"entry": ann.pk})  # the same phone checks in someone else
    assert set(event.entries.filter(checked_in=True).values_list("pk", flat=True)) == {
        jurgen.pk,
        ann.pk,
    }
    td = td_client.get(reverse("td-door", args=[event.pk])).content.decode()
    assert "Checked in from the phone that checked in Jürgen Weiß." in td
    assert "<svg" in td and event.door_token in td
    # A new QR code: the old link is a 404.
    td_client.post(reverse("td-door-switch", args=[event.pk]), {"action": "rotate"})
    assert client.get(door_url).status_code == 404
    event.refresh_from_db()
    new_url = reverse("event-door", args=[event.pk, event.door_token])
    td_client.post(reverse("td-door-switch", args=[event.pk]), {"action": "close"})
    assert "Check-in at the door is closed." in client.get(new_url).content.decode()


def test_the_td_sets_the_cap_with_errors_beside_the_field(td_client, open_event):
    url = reverse("td-door", args=[open_event.pk])
    for name in ("A One", "B Two"):
        registration.register_online(open_event, name=name)
    refused = td_client.post(url, {"registration_open": "on", "cap": "1"})
    assert refused.status_code == 400
    assert "2 players are entered already: the cap cannot be lower." in refused.content.decode()
    assert td_client.post(url, {"registration_open": "on", "cap": "10"}).status_code == 302
    open_event.refresh_from_db()
    assert open_event.cap == 10


def test_save_as_template_and_new_event_from_it(td_client, td_user):
    event = event_with_field(2, games_planned=5)
    event.club.directors.add(td_user)
    td_client.post(reverse("td-save-template", args=[event.pk]), {"name": "Weekly"})
    template = EventTemplate.objects.get(club=event.club)
    club_page = td_client.get(reverse("td-club", args=[event.club_id])).content.decode()
    assert 'id="from-template"' in club_page and "Weekly" in club_page
    response = td_client.post(
        reverse("td-event-from-template", args=[event.club_id]),
        {"template": template.pk, "name": "Weekly 4 Dec", "date": "2026-12-04"},
    )
    made = Event.objects.get(name="Weekly 4 Dec")
    assert response.url == reverse("td-event", args=[made.pk])
    assert (made.games_planned, made.date) == (5, datetime.date(2026, 12, 4))
    # Another club's TD: a 404, nothing made.
    td_client.force_login(UserFactory())
    url = reverse("td-event-from-template", args=[event.club_id])
    assert td_client.post(url, {"template": template.pk}).status_code == 404


def test_a_flood_of_registrations_from_one_address_is_stopped(client, open_event):
    from tournaments.views_door import REGISTRATIONS_PER_ADDRESS

    registration.set_registration(open_event, registration_open=True, cap=None)
    url = reverse("event-register", args=[open_event.pk])
    for n in range(REGISTRATIONS_PER_ADDRESS):
        client.post(url, {"name": f"Flood Player {n:02d}"})
    refused = client.post(url, {"name": "One Too Many"})
    assert refused.status_code == 429
    assert "Too many tries from this phone" in refused.content.decode()
    assert Registration.objects.filter(event=open_event).count() == REGISTRATIONS_PER_ADDRESS


def test_a_bad_new_event_from_template_says_why_beside_the_field(td_client, td_user):
    event = event_with_field(2)
    event.club.directors.add(td_user)
    td_client.post(reverse("td-save-template", args=[event.pk]), {"name": "Weekly"})
    template = EventTemplate.objects.get(club=event.club)
    url = reverse("td-event-from-template", args=[event.club_id])
    refused = td_client.post(url, {"template": template.pk, "name": "Weekly", "date": "soon"})
    page = refused.content.decode()
    assert refused.status_code == 400 and "Enter a valid date." in page
    assert 'id="from-template-date"' in page and "is-invalid" in page
    assert Event.objects.filter(club=event.club).count() == 1


def test_im_here_on_the_registration_page(client, open_event):
    made = registration.register_online(open_event, name="Zoë Lindqvist")
    url = reverse("registration-page", args=[made.key])
    assert 'id="im-here"' in client.get(url).content.decode()
    client.post(url, {"action": "here"})
    made.entry.refresh_from_db()
    assert made.entry.checked_in and made.entry.checked_in_how == Entry.CheckIn.LINK
    page = client.get(url).content.decode()
    assert 'id="im-here"' not in page and "Checked in" in page


def test_a_partners_event_registers_a_team_on_the_public_page(client, td_client, td_user):
    event = EventFactory(game="partners", pairing=Event.Pairing.SWISS, name="Partners night")
    event.club.directors.add(td_user)
    registration.set_registration(event, registration_open=True, cap=8)
    url = reverse("event-register", args=[event.pk])
    assert 'name="partner"' in client.get(url).content.decode()
    alone = client.post(url, {"name": "Ștefan Popescu", "partner": "", "email": "", "phone": ""})
    assert alone.status_code == 400
    assert (
        'id="id_partner"' in alone.content.decode() and "invalid-feedback" in alone.content.decode()
    )
    assert not event.registrations.exists()
    made = client.post(
        url, {"name": "Ștefan Popescu", "partner": "Łucja Nowak", "email": "", "phone": ""}
    )
    assert made.status_code == 302
    page = client.get(made.url).content.decode()
    assert "Ștefan Popescu &amp; Łucja Nowak" in page
    door = td_client.get(reverse("td-door", args=[event.pk])).content.decode()
    assert "Ștefan Popescu &amp; Łucja Nowak" in door
    api = td_client.get(f"/api/v1/events/{event.pk}/registration/").json()
    assert [(r["name"], r["partner"]) for r in api["registrations"]] == [
        ("Ștefan Popescu & Łucja Nowak", "Łucja Nowak")
    ]
    # One who plays alone sees no partner field.
    solo = EventFactory(club=event.club)
    registration.set_registration(solo, registration_open=True, cap=None)
    page = client.get(reverse("event-register", args=[solo.pk])).content.decode()
    assert 'name="partner"' not in page


def test_a_withdrawal_that_moves_someone_up_reloads_the_td_page(td_client, open_event):
    """The row alone would leave the page stale: the one moved up missing from the entries,
    the count and the "waiting" badge as they were."""
    made = [registration.register_online(open_event, name=n) for n in ("Ann", "Bob", "Zoë")]
    url = reverse("td-entry", args=[open_event.pk, made[0].entry_id])
    response = td_client.post(url, {"action": "withdraw"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response.headers["HX-Refresh"] == "true"
    page = td_client.get(reverse("td-event", args=[open_event.pk])).content.decode()
    assert "Zoë" in page and "waiting</span>" not in page
    # A withdrawal with nobody waiting swaps its row only.
    response = td_client.post(
        reverse("td-entry", args=[open_event.pk, made[1].entry_id]),
        {"action": "withdraw"},
        HTTP_HX_REQUEST="true",
    )
    assert "HX-Refresh" not in response.headers and "withdrawn" in response.content.decode()


@pytest.mark.parametrize("bad", ["abc", "", "1.5", "1e999", "\x00", "٣", "9" * 30])
def test_a_hand_made_door_post_is_a_400_page_not_a_500(client, bad):
    """Issue 34, item 9: ``entry=abc`` (or empty, 1.5, 1e999, a NUL) was a 500."""
    event = event_with_field(2)
    door_url = reverse("event-door", args=[event.pk, event.door_token])
    response = client.post(door_url, {"entry": bad})
    assert response.status_code == 400
    assert "Find your name below and press it to check in." in response.content.decode()
    assert not event.entries.filter(checked_in_how=Entry.CheckIn.DOOR).exists()


def test_registrations_behind_the_load_balancer_count_each_client(client, open_event, settings):
    """Issue 34, item 8: behind the documented proxy every registrant shared one counter
    (REMOTE_ADDR), so 21 posts locked registration for everyone."""
    from tournaments.views_door import REGISTRATIONS_PER_ADDRESS

    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    registration.set_registration(open_event, registration_open=True, cap=None)
    url = reverse("event-register", args=[open_event.pk])
    for n in range(REGISTRATIONS_PER_ADDRESS + 3):
        response = client.post(
            url,
            {"name": f"Hall Player {n:02d}"},
            REMOTE_ADDR="10.0.0.1",  # the load balancer
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n + 1}",
        )
        assert response.status_code != 429, n
    flood = [
        client.post(
            url,
            {"name": f"Flood {n:02d}"},
            REMOTE_ADDR="10.0.0.1",
            HTTP_X_FORWARDED_FOR="198.51.100.7",
        ).status_code
        for n in range(REGISTRATIONS_PER_ADDRESS + 1)
    ]
    assert flood[-1] == 429 and 429 not in flood[:-1]


def test_the_td_is_asked_whether_a_waiting_name_is_the_same_person(client, td_client, open_event):
    """Issue 34, item 6, on the TD's page: entering a name that waits on the online list asks
    whether it is the one who registered, with two buttons; "someone else" leaves the online
    registration holding nothing."""
    for name in ("Ștefan Popescu", "Łucja Nowak", "Niccolò Bianchi"):
        registration.register_online(open_event, name=name)
    waiting = Registration.objects.get(event=open_event, player__name="Niccolò Bianchi")
    url = reverse("td-register", args=[open_event.pk])
    asked = td_client.post(url, {"name": "Niccolò Bianchi", "status": "member"})
    assert asked.status_code == 400
    page = asked.content.decode()
    assert 'id="same-as-waiting"' in page and "Yes, the same person" in page
    assert not open_event.entries.filter(player__name="Niccolò Bianchi").exists()
    done = td_client.post(
        url, {"name": "Niccolò Bianchi", "status": "member", "same_as_waiting": "no"}
    )
    assert done.status_code == 302
    waiting.refresh_from_db()
    entry = open_event.entries.get(player__name="Niccolò Bianchi")
    assert waiting.entry is None
    assert not Registration.objects.filter(entry=entry).exists()
