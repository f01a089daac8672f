"""A Stoppa session from the draw to every player's private page (issue 22, item 7).

The TD draws and releases session 1 in the browser; at table 1 each player opens their link,
sees their table, seat and tablemates, one sends the table's nets and the others confirm
them on their own phones (the sender's page follows by its poll); table 2's nets are
entered by the TD, with the round clock running on the session page. Every player then sees
the table's nets and their running chips, and the desk shows no cribbage tool. Checked with
axe-core, no console error allowed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.core.cache import cache
from playwright.sync_api import Page, expect

from results import services as result_services
from tests.e2e.night import NAMES, clock_poll_keeps_the_cursor, log_in, start_the_clock
from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.models import Event, Round, StoppaTable
from tournaments.templatetags.pegboard import chips

pytestmark = pytest.mark.e2e


def stoppa_night(players: int) -> Event:
    """A Stoppa event (tables of 3 to 4) with ``players`` checked-in entries and its TD."""
    cache.clear()  # the per-key report throttle lives in the cache
    event = EventFactory(game="stoppa", table_size=4, min_table_size=3, name="Stoppa night")
    for i in range(players):
        EntryFactory(event=event, player__name=NAMES[i])
    event.club.directors.add(UserFactory(username="director"))
    return event


def _seats(table: StoppaTable) -> list:
    return list(table.seats.select_related("entry__player").order_by("position"))


def _link(seat) -> str:
    return f"/k/{result_services.key_for(seat.entry).key}/"


def test_a_stoppa_session_from_the_draw_to_every_players_page(
    open_page: Callable[[], Page], checks
):
    event = stoppa_night(7)
    td = open_page()
    log_in(td, f"/td/events/{event.pk}/")
    td.get_by_role("button", name="Start: draw session 1").click()
    expect(td).to_have_url(re.compile(rf"/td/events/{event.pk}/sessions/1/$"))
    release = td.get_by_role("button", name="Release to the players")
    if release.is_visible():
        release.click()
    expect(td.get_by_role("button", name="Release to the players")).to_have_count(0)
    round_ = Round.objects.get(event=event, number=1)
    assert round_.status == Round.Status.RELEASED
    one, two = (
        round_.stoppa_tables.filter(number__isnull=False).order_by("number").prefetch_related()
    )
    at_one, at_two = _seats(one), _seats(two)
    assert sorted([len(at_one), len(at_two)]) == [3, 4]

    # Table 1: every player opens their link and sees table, seat and tablemates.
    phones = []
    for seat in at_one:
        phone = open_page()
        phone.goto(_link(seat))
        card = phone.locator("#game-card")
        expect(card).to_contain_text(f"Session 1 · table 1 · seat {seat.position}")
        expect(card).not_to_contain_text("No game has been released yet")
        for other in at_one:
            expect(card).to_contain_text(other.entry.player.name)
        expect(phone.locator("#running-chips")).to_have_text("Your chips so far: 0")
        phones.append(phone)
    checks.a11y(phones[0], "player page: the table's nets to send")

    # The first player sends the nets; a sum other than zero is refused beside the form.
    nets = [12, -5, -4, -3][: len(at_one)]
    nets[-1] = -sum(nets[:-1])
    sender = phones[0]
    for seat, net in zip(at_one, nets, strict=True):
        sender.get_by_label(f"{seat.position}. {seat.entry.player.name}").fill(str(net + 1))
    sender.get_by_role("button", name="Send the table's nets").click()
    expect(sender.get_by_role("alert")).to_contain_text("not 0")
    # The refusal is an HTTP 400 (nothing written), which Chromium logs (the message may
    # arrive a moment after the page shows): that one is expected, and only that one.
    for _ in range(100):
        if checks.console_errors:
            break
        sender.wait_for_timeout(50)
    assert len(checks.console_errors) == 1 and "status of 400" in checks.console_errors[0]
    checks.console_errors.clear()
    checks.a11y(sender, "player page: nets that do not sum to zero")
    for seat, net in zip(at_one, nets, strict=True):
        sender.get_by_label(f"{seat.position}. {seat.entry.player.name}").fill(str(net))
    sender.get_by_role("button", name="Send the table's nets").click()
    expect(sender.locator("#game-card")).to_contain_text("Waiting for")

    # The others confirm it on their own phones (the open page shows the sheet by its poll).
    for phone in phones[1:]:
        card = phone.locator("#game-card")
        expect(card).to_contain_text(f"{at_one[0].entry.player.name} reported the table's nets")
        expect(card.locator("#table-nets")).to_contain_text(chips(nets[0]))
        phone.get_by_role("button", name="Confirm these nets").click()
    checks.a11y(phones[-1], "player page: the nets recorded")
    one.refresh_from_db()
    assert one.has_result
    assert [s.net for s in _seats(one)] == nets

    # The sender's page follows by its poll; every player sees the nets and their chips.
    for phone, net in zip(phones, nets, strict=True):
        expect(phone.locator("#game-card")).to_contain_text("Recorded")
        expect(phone.locator("#running-chips")).to_have_text(f"Your chips so far: {chips(net)}")
        expect(phone.locator("#my-sessions")).to_contain_text(chips(net))

    # Table 2: the TD enters the nets on the session page, where the round clock runs as on
    # a cribbage game's page; its panel's poll never moves the TD's cursor.
    td.goto(f"/td/events/{event.pk}/sessions/1/")
    start_the_clock(td)
    checks.a11y(td, "TD session page, clock running")
    row = td.locator(f"#stoppa-row-{two.pk}")
    clock_poll_keeps_the_cursor(td, event, 1, row.locator("input.net").nth(1))
    two_nets = [6, -1, -5, 0][: len(at_two)]
    two_nets[-1] = -sum(two_nets[:-1])
    for seat, net in zip(at_two, two_nets, strict=True):
        row.get_by_label(f"{seat.position}. {seat.entry.player.name}").fill(str(net))
    row.get_by_role("button", name="Save").click()
    expect(td.locator(f"#stoppa-row-{two.pk}")).to_contain_text("Saved.")
    for seat, net in zip(at_two, two_nets, strict=True):
        phone = open_page()
        phone.goto(_link(seat))
        card = phone.locator("#game-card")
        expect(card).to_contain_text(f"Session 1 · table 2 · seat {seat.position}")
        expect(card).to_contain_text("Recorded")
        expect(card.locator("#table-nets")).to_contain_text(seat.entry.player.name)
        expect(phone.locator("#running-chips")).to_have_text(f"Your chips so far: {chips(net)}")
        phone.close()

    # The desk speaks of nets, not of W/L cards or discards.
    td.goto(f"/td/events/{event.pk}/results/")
    expect(td.get_by_role("heading", name=re.compile("Nets waiting"))).to_be_visible()
    expect(td.get_by_text("Import paper cards")).to_have_count(0)
    expect(td.get_by_text("Missed points at the discard")).to_have_count(0)
    checks.a11y(td, "Stoppa results desk")
