"""Issue 28's "done when", in a browser: a night that runs itself at the door.

Pre-registration with a cap of 8 puts the 9th on the waiting list; a withdrawal moves them up
and their own page then says they are in. A player checks in with "I'm here" on their link
and the TD's page shows them checked in; the door QR's page finds a name (accents aside) and
checks them in. Every page is checked with axe at a phone's size and a laptop's.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from results import services as result_services
from tests.e2e.night import NAMES, log_in
from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.models import Entry, Registration
from tournaments.services import registration

pytestmark = pytest.mark.e2e


def test_the_ninth_waits_and_moves_up_when_someone_withdraws(
    open_page: Callable[[], Page], checks, viewport
):
    event = EventFactory(name="Thursday Ösel", games_planned=3)
    event.club.directors.add(UserFactory(username="director"))
    registration.set_registration(event, registration_open=True, cap=8)
    for name in NAMES[:8]:
        registration.register_online(event, name=name)

    # The 9th registers on the public page: a bad email first, said beside the field.
    player = open_page()
    player.goto(f"/events/{event.pk}/register/")
    expect(player.locator("#places")).to_contain_text("The field is full")
    checks.a11y(player, "registration page, full")
    player.get_by_label("Your name").fill("Łucja Kowalczyk")
    player.get_by_label("Email (optional)").fill("not an email")
    player.get_by_role("button", name="Register").click()
    expect(player.locator(".invalid-feedback")).to_contain_text("Enter a valid email address.")
    # That answer is a 400 on purpose (the form again, nothing made): the browser logs it.
    expected = f"/events/{event.pk}/register/: Failed to load resource: the server responded"
    checks.console_errors[:] = [e for e in checks.console_errors if expected not in e]
    checks.a11y(player, "registration page, a bad email")
    player.get_by_label("Email (optional)").fill("lucja@example.org")
    player.get_by_role("button", name="Register").click()
    expect(player).to_have_url(re.compile(r"/r/[\w-]+/$"))
    expect(player.locator("#position")).to_have_text("You are number 1 on the waiting list.")
    checks.a11y(player, "registration page, waiting")
    ninth = Registration.objects.get(event=event, player__name="Łucja Kowalczyk")
    assert ninth.entry is None and ninth.email == "lucja@example.org"

    # The TD sees the waiting list, then withdraws one of the eight on the event's page.
    td = open_page()
    log_in(td, f"/td/events/{event.pk}/door/")
    expect(td.locator("#waiting-list")).to_contain_text("Łucja Kowalczyk")
    expect(td.locator("#entrant-count")).to_have_text("8 of 8 places taken.")
    checks.a11y(td, "TD door page, one waiting")
    leaving = event.entries.get(player__name=NAMES[2])
    td.goto(f"/td/events/{event.pk}/")
    row = td.locator(f"#entry-{leaving.pk}")
    td.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Withdraw").click()
    expect(td.locator(f"#entry-{leaving.pk}")).to_contain_text("withdrawn")
    # The pointer rests where "Withdraw" was, now over "Reinstate": move it off so axe reads
    # the button's colours, not a frame of its hover transition.
    td.mouse.move(0, 0)
    expect(row.get_by_role("button", name="Reinstate")).not_to_have_css(
        "background-color", "rgb(13, 110, 253)"
    )
    td.wait_for_timeout(300)  # Bootstrap's .15 s colour transition, back to rest
    checks.a11y(td, "TD event page, one withdrawn")

    # The 9th's own page now says they are in.
    player.reload()
    expect(player.locator("#state-title")).to_have_text("You're in")
    expect(player.locator("#game-card, .card")).to_contain_text("moved up from the waiting list")
    checks.a11y(player, "registration page, in")
    ninth.refresh_from_db()
    assert ninth.entry is not None and not ninth.entry.withdrawn
    assert event.entries.filter(withdrawn=False).count() == 8


def test_im_here_on_the_link_and_the_door_qr(open_page: Callable[[], Page], checks, viewport):
    event = EventFactory(name="Thursday Ösel", games_planned=3)
    event.club.directors.add(UserFactory(username="director"))
    for name in NAMES[:4]:
        EntryFactory(event=event, player__name=name, checked_in=False)
    zoe = event.entries.get(player__name="Zoë Lindqvist")
    key = result_services.key_for(zoe).key

    # Zoë taps "I'm here" on her own link.
    player = open_page()
    player.goto(f"/k/{key}/")
    checks.a11y(player, "private link, before check-in")
    player.get_by_role("button", name="I'm here").click()
    expect(player.locator("#check-in")).to_contain_text("Checked in")
    checks.a11y(player, "private link, checked in")

    # The TD's page shows her checked in, by her own link.
    td = open_page()
    log_in(td, f"/td/events/{event.pk}/")
    expect(td.locator(f"#entry-{zoe.pk}")).to_contain_text("checked in")
    expect(td.locator(f"#entry-{zoe.pk} .check-in-how")).to_have_text("I'm here")
    checks.a11y(td, "TD event page, one checked in by link")

    # The door QR: on the TD's door page, and its page to print.
    td.get_by_role("link", name="Door and registration").click()
    expect(td.locator(".door-qr svg")).to_be_visible()
    door_url = td.locator("#door-link").inner_text()
    td.get_by_role("link", name="Print or show the QR code").click()
    expect(td.locator("#door-qr svg")).to_be_visible()
    checks.a11y(td, "door QR to print")

    # A player scans it, finds his name without its accents and checks in.
    other = open_page()
    other.goto(door_url)
    other.get_by_label("Your name").fill("jurgen weiss")
    other.get_by_role("button", name="Find me").click()
    checks.a11y(other, "door page, found")
    other.get_by_role("button", name="Check in Jürgen Weiß").click()
    expect(other.locator("body")).to_contain_text("Welcome, Jürgen Weiß: you are checked in.")
    checks.a11y(other, "door page, checked in")
    jurgen = event.entries.get(player__name="Jürgen Weiß")
    assert jurgen.checked_in and jurgen.checked_in_how == Entry.CheckIn.DOOR

    td.goto(f"/td/events/{event.pk}/door/")
    expect(td.locator("#check-ins")).to_contain_text("Jürgen Weiß")
    expect(td.locator("#check-ins")).to_contain_text("Zoë Lindqvist")
    # Each names its phone (issue 34, item 7): Zoë's and Jürgen's, two devices.
    expect(td.locator("#check-ins .check-in-device")).to_have_count(2)
    checks.a11y(td, "TD door page, who checked in how")


def test_a_team_registers_for_a_partners_night_and_waits_as_a_team(
    open_page: Callable[[], Page], checks, viewport
):
    from tournaments.models import Event

    event = EventFactory(name="Partners Ösel", game="partners", pairing=Event.Pairing.SWISS)
    registration.set_registration(event, registration_open=True, cap=2)
    registration.register_online(event, name=NAMES[0], partner_name=NAMES[1])
    registration.register_online(event, name=NAMES[2], partner_name=NAMES[3])

    # A third team: the partner's name forgotten first, said beside the field.
    player = open_page()
    player.goto(f"/events/{event.pk}/register/")
    checks.a11y(player, "partners' registration page, full")
    player.get_by_label("Your name").fill("Łucja Kowalczyk")
    player.get_by_role("button", name="Register").click()
    expect(
        player.locator("#id_partner + .invalid-feedback, #id_partner ~ .invalid-feedback")
    ).to_be_visible()
    expected = f"/events/{event.pk}/register/: Failed to load resource: the server responded"
    checks.console_errors[:] = [e for e in checks.console_errors if expected not in e]
    checks.a11y(player, "partners' registration page, no partner")
    player.get_by_label("Your partner's name").fill("Dolores Ibáñez")
    player.get_by_role("button", name="Register").click()
    expect(player).to_have_url(re.compile(r"/r/[\w-]+/$"))
    expect(player.locator("h1")).to_have_text("Łucja Kowalczyk & Dolores Ibáñez")
    expect(player.locator("#position")).to_have_text("You are number 1 on the waiting list.")
    checks.a11y(player, "partners' registration page, waiting")

    # A team withdraws: the waiting team is in, with its partner.
    from tournaments import services

    services.withdraw_entry(event.entries.get(player__name=NAMES[0]))
    player.reload()
    expect(player.locator("#state-title")).to_have_text("You're in")
    entry = Registration.objects.get(event=event, player__name="Łucja Kowalczyk").entry
    assert entry is not None and entry.name == "Łucja Kowalczyk & Dolores Ibáñez"
