"""The TD's game page of a large game in a browser (issue 26): a page of tables that fits a
phone, and result entry from the score cards by table number: the number, Enter, that table's
card; after a save the cursor goes to the next open table, fetched when it is not on the page.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.night import club_night, log_in, played_tables
from tournaments.models import GameResult
from tournaments.selectors_game import PAGE_SIZE

pytestmark = pytest.mark.e2e


def focused(page: Page, selector: str):
    expect(page.locator(selector)).to_be_focused()


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width


def test_a_large_game_by_table_number(open_page: Callable[[], Page], checks):
    event = club_night(2 * (PAGE_SIZE + 4))  # 44 tables: a page and a bit
    tables = played_tables(event)
    first, last = tables[0], tables[-1]
    before_last = tables[-2]
    td = open_page()
    log_in(td, f"/td/events/{event.pk}/games/1/")
    expect(td.locator("#tables .col")).to_have_count(PAGE_SIZE)
    expect(td.locator("#table-pages")).to_contain_text("Page 1 of 2")
    no_sideways_scroll(td)
    checks.a11y(td, "TD game page, a large game")

    # Table 43 is on page 2: its number and Enter open its card, the cursor on its winner.
    td.locator("#enter-table-number").focus()
    td.keyboard.type(str(before_last.number))
    td.keyboard.press("Enter")
    focused(td, f"#t{before_last.pk}-w{before_last.seat_a_id}")
    td.keyboard.press("Space")
    td.keyboard.press("Tab")
    td.keyboard.type("90")
    td.keyboard.press("Enter")
    expect(td.locator(f"#card-{before_last.pk}")).to_contain_text("Saved.")
    # The next open table (44) is not on the page either: fetched, the cursor on it.
    focused(td, f"#t{last.pk}-w{last.seat_a_id}")
    td.keyboard.press("Space")
    td.keyboard.press("Tab")
    td.keyboard.type("80")
    td.keyboard.press("Enter")
    expect(td.locator(f"#card-{last.pk}")).to_contain_text("Saved.")
    # None open after the last table: back to the first open one, on the page.
    focused(td, f"#t{first.pk}-w{first.seat_a_id}")
    assert GameResult.objects.filter(table__round__event=event).count() == 2

    # A table that does not exist: said so, the cursor stays in the box with the number.
    td.locator("#enter-table-number").focus()
    td.keyboard.type("99")
    td.keyboard.press("Enter")
    expect(td.locator("#entry-cards")).to_contain_text("Game 1 has no table 99.")
    focused(td, "#enter-table-number")
    no_sideways_scroll(td)
    checks.a11y(td, "TD game page, cards opened by number")

    # Page 2 by its link: the rest of the open tables (two now have a result).
    td.get_by_role("link", name="Next").click()
    expect(td.locator("#tables .col")).to_have_count(len(tables) - 2 - PAGE_SIZE)
    no_sideways_scroll(td)
