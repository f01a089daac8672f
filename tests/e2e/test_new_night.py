"""A TD creates a club night from nothing, in a real browser, at a phone's size and a laptop's.

The TD directs an empty club (no players, no events): from the home page to the club page, the
new-event form (name, date, number of games), then 12 players entered at the door one at a
time by keyboard (each name typed, Enter), "Check in all", and game 1 drawn: 6 tables. The
clicks and keystrokes the TD needed are counted and printed (run pytest with -s).

Every page is checked with axe-core and for console errors (``checks``, tests/e2e/conftest.py).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.core.cache import cache
from playwright.sync_api import Locator, Page, expect

from tests.e2e.night import NAMES, log_in
from tests.factories import ClubFactory, UserFactory, acc_format
from tournaments.models import Entry, Event, Table

pytestmark = pytest.mark.e2e

# Twelve players, none known to the club yet: the accented eight and four more.
PLAYERS = [*NAMES, "Åsa Berggren", "Kwame Mensah", "Siobhán Kennedy", "Hiroshi Tanaka"]


@dataclass
class Tally:
    """The TD's clicks and key presses (a typed character counts one)."""

    clicks: int = 0
    keys: int = 0

    def click(self, target: Locator) -> None:
        target.click()
        self.clicks += 1

    def type(self, page: Page, text: str) -> None:
        page.keyboard.type(text)
        self.keys += len(text)

    def press(self, page: Page, key: str) -> None:
        page.keyboard.press(key)
        self.keys += 1

    def __str__(self) -> str:
        return f"{self.clicks} clicks + {self.keys} keystrokes = {self.clicks + self.keys}"


def test_td_creates_a_club_night_from_nothing(open_page: Callable[[], Page], checks, viewport):
    cache.clear()
    acc_format()  # the match-point format the form needs (the live server's flush removes it)
    club = ClubFactory(name="Harbour Cribbage Club")
    club.directors.add(UserFactory(username="director"))
    td = open_page()
    log_in(td, "/")
    checks.a11y(td, "home: the TD's clubs")

    # (a) Creating the event, from the club page.
    td.get_by_role("link", name="Club", exact=True).click()
    expect(td).to_have_url(re.compile(rf"/td/clubs/{club.pk}/$"))
    checks.a11y(td, "TD club page, no events")

    create = Tally()
    create.click(td.get_by_role("link", name="New event", exact=True))
    expect(td).to_have_url(re.compile(rf"/td/clubs/{club.pk}/events/new/$"))
    checks.a11y(td, "new-event form")
    create.click(td.get_by_label("Name", exact=True))
    create.type(td, "Friday night")
    # A week ahead, typed as a TD setting up next week's night would.
    date = datetime.date.today() + datetime.timedelta(days=7)
    create.press(td, "Tab")  # to the date's first part (a click lands on the part it hits)
    # A date input takes the digits in the browser's locale order (en: month, day, year).
    create.type(td, date.strftime("%m%d%Y"))
    create.click(td.get_by_label("Number of games", exact=True))
    create.press(td, "ControlOrMeta+a")
    create.type(td, "6")
    create.click(td.get_by_role("button", name="Create the event"))
    expect(td).to_have_url(re.compile(r"/td/events/\d+/$"))
    event = Event.objects.get(club=club)
    assert (event.name, event.date, event.games_planned) == ("Friday night", date, 6)
    expect(td.get_by_role("heading", name="Friday night", level=1)).to_be_visible()
    checks.a11y(td, "TD event page, no entries")

    # (b) Twelve players at the door, each name typed into the name field, then Enter.
    roster = Tally()
    name_field = td.get_by_role("textbox", name="Name", exact=True)
    entries = td.locator("section", has=td.get_by_role("heading", name=re.compile("^Entries")))
    for i, name in enumerate(PLAYERS):
        if i == 0:
            roster.click(name_field)
        else:  # an added player's page comes back with the cursor in the name field
            expect(name_field).to_be_focused()
        roster.type(td, name)
        roster.press(td, "Enter")
        new_player = td.get_by_role("button", name="Add as a new player")
        row = entries.get_by_role("cell", name=name, exact=True)
        expect(row.or_(new_player).first).to_be_visible()
        if new_player.is_visible() and not row.is_visible():  # a name like a known player's
            checks.a11y(td, f"TD event page: a name like a known player's ({name})")
            roster.click(new_player)
        expect(row).to_be_visible()
        expect(td.get_by_role("heading", name=re.compile("^Entries"))).to_contain_text(f"({i + 1})")
    assert Entry.objects.filter(event=event).count() == 12
    checks.a11y(td, "TD event page, 12 entries")

    td.get_by_role("button", name="Check in all").click()
    expect(entries.get_by_text("checked in", exact=True)).to_have_count(12)
    assert Entry.objects.filter(event=event, checked_in=True).count() == 12

    td.get_by_role("button", name="Start: draw game 1").click()
    expect(td).to_have_url(re.compile(rf"/td/events/{event.pk}/games/1/$"))
    expect(td.get_by_text(re.compile(r"^Table \d+$"))).to_have_count(6)
    assert Table.objects.filter(round__event=event, round__number=1).count() == 6
    checks.a11y(td, "TD game page, game 1 drawn")

    print(
        f"\n[{viewport['width']}x{viewport['height']}] clicks and keystrokes for creating a "
        f"12-player night from nothing: (a) the event from the club page: {create}; "
        f"(b) 12 players: {roster} "
        f"({sum(len(n) for n in PLAYERS)} of them the names' characters); "
        f"total {create.clicks + roster.clicks} clicks + {create.keys + roster.keys} keystrokes"
    )
