"""The door's pages (issue 28): the public registration page and a registration's own page,
"I'm here" on a player's link, the door QR's page, the TD's door page and event templates."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from results import services as result_services
from tests.factories import EventFactory, UserFactory, event_with_field
from tournaments import services
from tournaments.models import Entry, Event, EventTemplate, Registration
from tournaments.services import door, registration

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
    assert f'value="{door.entry_token(event, jurgen.pk)}"' in page
    client.post(door_url, {"entry": door.entry_token(event, jurgen.pk)})
    # The same phone checks in someone else.
    client.post(door_url, {"entry": door.entry_token(event, ann.pk)})
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
    assert len(open_event.audit.get(action="self_check_in").new["device"]) == 8
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


# --- Issue 34, item 7: one phone checked in the whole field ------------------------------------


def _door_field(n: int):
    """An event of ``n`` entrants, none checked in, and its door's URL."""
    event = event_with_field(n)
    Entry.objects.filter(event=event).update(checked_in=False)
    return event, reverse("event-door", args=[event.pk, event.door_token])


def _checked_in_at_door(event) -> int:
    return event.entries.filter(checked_in=True, checked_in_how=Entry.CheckIn.DOOR).count()


def test_dropping_the_session_cookie_cannot_pass_the_device_limit(client):
    """The issue's way round: the session cookie dropped before each post. The device cookie
    kept, the phone is still one device: past CHECK_INS_PER_PHONE, a 429 that says to see
    the TD, and nothing written."""
    event, url = _door_field(door.CHECK_INS_PER_PHONE + 4)
    entries = list(event.entries.order_by("pk"))
    codes = []
    for entry in entries:
        client.cookies.pop("sessionid", None)
        response = client.post(url, {"entry": door.entry_token(event, entry.pk)})
        codes.append(response.status_code)
    assert codes[: door.CHECK_INS_PER_PHONE] == [302] * door.CHECK_INS_PER_PHONE
    assert set(codes[door.CHECK_INS_PER_PHONE :]) == {429}
    assert "please see the tournament director" in response.content.decode()
    assert _checked_in_at_door(event) == door.CHECK_INS_PER_PHONE
    devices = {row.new["device"] for row in door.self_check_ins(event)}
    assert len(devices) == 1


def test_dropping_both_cookies_is_still_capped_per_address(client, settings):
    """Every post a new device (no cookie at all): the address's limit stops the flood;
    behind the load balancer (NUM_PROXIES=1) by the address it reports, so another phone in
    the hall still checks in."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    event, url = _door_field(door.CHECK_INS_PER_ADDRESS + 3)
    entries = list(event.entries.order_by("pk"))
    codes = []
    for entry in entries[:-1]:
        client.cookies.clear()
        response = client.post(
            url,
            {"entry": door.entry_token(event, entry.pk)},
            REMOTE_ADDR="10.0.0.1",  # the load balancer
            HTTP_X_FORWARDED_FOR="198.51.100.7",
        )
        assert "pegboard_device" in response.cookies  # a new device each time
        codes.append(response.status_code)
    assert codes[: door.CHECK_INS_PER_ADDRESS] == [302] * door.CHECK_INS_PER_ADDRESS
    assert set(codes[door.CHECK_INS_PER_ADDRESS :]) == {429}
    assert _checked_in_at_door(event) == door.CHECK_INS_PER_ADDRESS
    client.cookies.clear()
    other = client.post(
        url,
        {"entry": door.entry_token(event, entries[-1].pk)},
        REMOTE_ADDR="10.0.0.1",
        HTTP_X_FORWARDED_FOR="203.0.113.9",
    )
    assert other.status_code == 302
    assert _checked_in_at_door(event) == door.CHECK_INS_PER_ADDRESS + 1


def test_the_door_takes_no_entry_id_and_no_other_events_token(client):
    """The door page shows no entry id; a sequential id posted by hand is a 400 page, and so
    is a token of another event's entry (or of a door QR since rotated). Nothing written."""
    event, url = _door_field(2)
    entry = event.entries.order_by("pk").first()
    page = client.get(url, {"q": entry.player.name}).content.decode()
    assert f'value="{entry.pk}"' not in page
    assert f'value="{door.entry_token(event, entry.pk)}"' in page
    by_id = client.post(url, {"entry": str(entry.pk)})
    assert by_id.status_code == 400
    assert "Find your name below and press it to check in." in by_id.content.decode()
    other, _url = _door_field(2)
    stranger = other.entries.order_by("pk").first()
    assert client.post(url, {"entry": door.entry_token(other, stranger.pk)}).status_code == 400
    # A token of this event's entry but for another event's door is no good either.
    assert client.post(url, {"entry": door.entry_token(other, entry.pk)}).status_code == 400
    old = door.entry_token(event, entry.pk)
    event = door.set_door(event, rotate=True)
    new_url = reverse("event-door", args=[event.pk, event.door_token])
    assert client.post(new_url, {"entry": old}).status_code == 400
    assert not Entry.objects.filter(checked_in=True).exists()


def test_every_self_check_in_names_its_device(td_user):
    """At the door and by the private link: each audit row names a device; one device
    checking in a second player is named by the first, whatever its session; the TD's door
    page (and the API) lists the device."""
    event, url = _door_field(3)
    event.club.directors.add(td_user)
    client, td_client = Client(), Client()
    td_client.force_login(td_user)
    ann, bob, carl = event.entries.select_related("player").order_by("pk")
    client.post(url, {"entry": door.entry_token(event, ann.pk)})
    client.cookies.pop("sessionid", None)
    client.post(url, {"entry": door.entry_token(event, bob.pk)})
    phone = Client()
    key = result_services.key_for(carl).key
    assert phone.post(reverse("player-page", args=[key]), {"action": "here"}).status_code == 302
    rows = list(reversed(door.self_check_ins(event)))
    assert [row.new["player"] for row in rows] == [ann.name, bob.name, carl.name]
    assert all(len(row.new["device"]) == 8 for row in rows)
    assert rows[0].new["device"] == rows[1].new["device"] != rows[2].new["device"]
    assert rows[1].new["by"] == ann.name and "by" not in rows[0].new and "by" not in rows[2].new
    td = td_client.get(reverse("td-door", args=[event.pk])).content.decode()
    assert f"phone {rows[0].new['device']}" in td and f"phone {rows[2].new['device']}" in td
    assert f"Checked in from the phone that checked in {ann.name}." in td
    api = td_client.get(f"/api/v1/events/{event.pk}/self-check-in/").json()
    assert sorted(row["device"] for row in api["check_ins"]) == sorted(
        row.new["device"] for row in rows
    )


def test_the_device_cookie_is_signed_long_lived_and_http_only(client, settings):
    """The door page gives a phone its device cookie; a forged (unsigned) one is replaced."""
    event, url = _door_field(1)
    morsel = client.get(url).cookies["pegboard_device"]
    assert morsel["httponly"] and morsel["samesite"] == "Lax" and int(morsel["max-age"]) > 86400
    assert "pegboard_device" not in client.get(url).cookies  # kept: not set again
    client.cookies["pegboard_device"] = "a" * 30
    assert "pegboard_device" in client.get(url).cookies
    settings.SESSION_COOKIE_SECURE = True  # a site on HTTPS: the cookie is Secure too
    client.cookies.clear()
    assert client.get(url).cookies["pegboard_device"]["secure"]
