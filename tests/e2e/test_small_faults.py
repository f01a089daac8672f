"""Small faults seen on the way (issue 22), each checked in a real browser.

- The tie popover of the standings says why once (it said it twice: header and body).
- No page scrolls sideways on a phone (390 px wide), not with a 120-character name, not the
  results desk: ``document.documentElement.scrollWidth`` is measured on each.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core.cache import cache
from playwright.sync_api import Page, expect

from results import services as result_services
from scoring.services import recompute_standings
from tests.e2e.conftest import PHONE
from tests.e2e.night import club_night, log_in, played_tables
from tests.factories import EntryFactory
from tournaments import services as tournament_services

pytestmark = pytest.mark.e2e

# 120 characters, the longest name a player may have; most of it one word (a real surname),
# which no browser breaks by itself.
LONG_NAME = (
    "Hubert Blaine Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewissenhaft"
    "schaferswessenschafewarenwohlgepflegeundsorgfaltigkeit"
)[:120]


@pytest.fixture
def viewport() -> dict:
    """These faults are a phone's."""
    return PHONE


def test_the_tie_popover_says_why_once(open_page: Callable[[], Page], checks):
    event = club_night(4)
    for table in played_tables(event):  # both winners 2 points, spread +21: tied first
        tournament_services.record_result(event, table=table, winner=table.seat_a, loser_score=100)
    recompute_standings(event.pk)
    page = open_page()
    page.goto(f"/events/{event.pk}/")
    rank = page.locator(".rank-why").first
    expect(rank).to_have_text("1=")
    why = rank.get_attribute("data-bs-content")
    assert why
    rank.focus()
    popover = page.get_by_role("tooltip")
    expect(popover).to_be_visible()
    checks.a11y(page, "standings: tie popover open")
    assert popover.inner_text().count(why) == 1, popover.inner_text()
    assert rank.get_attribute("title") in (None, "")  # a native tooltip would say it again


def _width(page: Page) -> int:
    page.wait_for_load_state("load")
    return page.evaluate("document.documentElement.scrollWidth")


def test_no_page_scrolls_sideways_on_a_phone_with_a_120_character_name(
    open_page: Callable[[], Page], checks
):
    assert len(LONG_NAME) == 120
    cache.clear()
    event = club_night(5)
    long_entry = EntryFactory(event=event, player__name=LONG_NAME)
    tournament_services.redraw_game(event.rounds.get(number=1))  # seat them too
    tables = played_tables(event)
    long_table = next(t for t in tables if long_entry.pk in (t.seat_a_id, t.seat_b_id))
    other, disputed = [t for t in tables if t.pk != long_table.pk]
    tournament_services.record_result(event, table=other, winner=other.seat_a, loser_score=100)
    for seat, loser_score in ((disputed.seat_a, 90), (disputed.seat_b, 80)):  # at the desk
        result_services.submit(
            result_services.key_for(seat).key,
            table=disputed,
            winner=disputed.seat_a,
            loser_score=loser_score,
        )
    recompute_standings(event.pk)
    key = result_services.key_for(long_entry).key
    opponent = long_table.seat_b if long_table.seat_a_id == long_entry.pk else long_table.seat_a
    result_services.submit(
        result_services.key_for(opponent).key,
        table=long_table,
        winner=opponent,
        loser_score=90,
    )
    page = open_page()
    widths = {}
    for url in [
        f"/k/{key}/",
        f"/k/{result_services.key_for(opponent).key}/",
        f"/events/{event.pk}/",
        f"/events/{event.pk}/?seat=Maria",
        f"/players/{long_entry.player_id}/",
    ]:
        page.goto(url)
        widths[url] = _width(page)
        checks.a11y(page, url)
    log_in(page, f"/td/events/{event.pk}/")
    for url in [
        f"/td/events/{event.pk}/",
        f"/td/events/{event.pk}/games/1/",
        f"/td/events/{event.pk}/results/",
        f"/td/clubs/{event.club_id}/players/",
    ]:
        page.goto(url)
        widths[url] = _width(page)
        checks.a11y(page, url)
    wide = {url: w for url, w in widths.items() if w > PHONE["width"]}
    assert not wide, wide


def test_the_results_desk_fits_a_phone(open_page: Callable[[], Page], checks):
    """A desk with a dispute, a correction open, the audit log and the private links shown."""
    event = club_night(8)
    first, second, *_rest = played_tables(event)
    tournament_services.record_result(event, table=first, winner=first.seat_a, loser_score=100)
    for seat, loser_score in ((second.seat_a, 90), (second.seat_b, 80)):
        result_services.submit(
            result_services.key_for(seat).key,
            table=second,
            winner=second.seat_a,
            loser_score=loser_score,
        )
    page = open_page()
    log_in(page, f"/td/events/{event.pk}/results/")
    page.goto(f"/td/events/{event.pk}/results/?game=1&table={first.number}#correct")
    expect(page.get_by_role("button", name="Correct", exact=True)).to_be_visible()
    page.get_by_text("Players' private links").click()
    checks.a11y(page, "desk on a phone")
    assert _width(page) <= PHONE["width"]
