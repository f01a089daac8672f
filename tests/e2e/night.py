"""What the browser tests share: a club night built through the services, the TD's login."""

from __future__ import annotations

import re

from django.core.cache import cache
from playwright.sync_api import Locator, Page, expect

from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments import services as tournament_services
from tournaments.models import Event, Table

# Accented names on purpose: they must survive every page (and the demo night has them too).
NAMES = [
    "Zoë Lindqvist",
    "Niccolò Ferrà",
    "Jürgen Weiß",
    "Ștefan Țurcanu",
    "Dolores Ibáñez",
    "Margaret O'Brien",
    "Tomás Ó Briain",
    "Ioana Năstase",
]
TD_PASSWORD = "secret-pass-123"  # tests.factories.UserFactory's


def club_night(players: int) -> Event:
    """An event with ``players`` checked-in entries (the first ones named from NAMES), its TD
    (``director``) and game 1 drawn and released."""
    cache.clear()  # the per-key report throttle lives in the cache
    event = EventFactory()
    for i in range(players):
        EntryFactory(event=event, player__name=NAMES[i] if i < len(NAMES) else f"Player {i:03d}")
    event.club.directors.add(UserFactory(username="director"))
    tournament_services.draw_next_game(event)
    return event


def played_tables(event: Event, game: int = 1) -> list[Table]:
    """The tables of a game that have two players, by number."""
    return list(
        Table.objects.filter(round__event=event, round__number=game, seat_b__isnull=False)
        .select_related("seat_a__player", "seat_b__player")
        .order_by("number")
    )


def log_in(page: Page, next_url: str) -> None:
    """The TD logs in on the login page and lands on ``next_url``."""
    page.goto(f"/accounts/login/?next={next_url}")
    page.get_by_label("Username").fill("director")
    page.get_by_label("Password").fill(TD_PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page).to_have_url(re.compile(re.escape(next_url) + "$"))
    # The URL changes when the page starts to arrive; keys typed before its scripts ran
    # (htmx wires the forms at DOMContentLoaded) would post a form the old way.
    page.wait_for_load_state()


def start_the_clock(td: Page) -> None:
    """The TD starts the round clock from the panel on a game (or session) page."""
    panel = td.locator("#td-clock")
    panel.get_by_role("button", name="Start the clock").click()
    expect(panel.get_by_role("button", name="Pause")).to_be_visible()


def clock_poll_keeps_the_cursor(td: Page, event: Event, number: int, typing: Locator) -> None:
    """With the cursor in ``typing``, the clock panel polls (forced, not waited for): the
    panel is swapped and the cursor stays where the TD is typing."""
    typing.focus()
    td.evaluate(
        "url => htmx.ajax('GET', url, {target: '#td-clock', swap: 'outerHTML'})",
        f"/td/events/{event.pk}/games/{number}/clock/",
    )
    expect(td.locator("#td-clock").get_by_role("button", name="Pause")).to_be_visible()
    expect(typing).to_be_focused()
