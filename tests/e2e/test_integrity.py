"""Nothing recorded that nobody agreed to (issue 22, items 1 and 2), replayed in a browser.

1. The TD keys a loser's score of 125 on table 2: the error keeps the cursor on that score,
   the typed value kept, so the next keys fix table 2 (they used to land on table 1's winner
   and save a result nobody gave); a saved table moves on to the next open table after it,
   the first open one only when none is after it.
2. Hank reports "I won, 90"; Luca's page shows it; Hank changes it to "my opponent won, 60";
   Luca taps Confirm before his poll brings the change: nothing is confirmed, the page says
   Hank changed the report and shows it as it now stands.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.core.cache import cache
from playwright.sync_api import Page, Route, expect

from results import services as result_services
from tests.e2e.night import club_night, log_in, played_tables
from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, GameResult

pytestmark = pytest.mark.e2e


def focused(page: Page, selector: str):
    expect(page.locator(selector)).to_be_focused()


def test_a_refusal_that_comes_back_as_a_whole_page_keeps_the_cursor_on_the_error(
    open_page: Callable[[], Page], checks
):
    """Enter pressed before the page's scripts ran posts the card the old way: the page comes
    back (a 400) with the card in error, and the cursor lands on its score as htmx's would."""
    event = club_night(8)
    _t1, t2, _t3, _t4 = played_tables(event)
    td = open_page()
    log_in(td, f"/td/events/{event.pk}/games/1/")
    td.locator(f"label[for=t{t2.pk}-w{t2.seat_a_id}]").click()
    td.locator(f"#t{t2.pk}-loser_score").fill("125")
    with td.expect_navigation():
        td.evaluate(f"document.querySelector('#card-{t2.pk} form').submit()")  # no htmx
    expect(td.locator(f"#card-{t2.pk}")).to_contain_text("The loser's score must be below 121")
    focused(td, f"#t{t2.pk}-loser_score")
    expect(td.locator(f"#t{t2.pk}-loser_score")).to_have_value("125")
    # That 400 is the refusal itself (the form again, nothing saved): the browser logs it.
    checks.console_errors[:] = [e for e in checks.console_errors if "status of 400" not in e]
    assert not GameResult.objects.filter(table__round__event=event).exists()


def test_keyboard_entry_after_an_error_stays_on_the_table_in_error(
    open_page: Callable[[], Page], checks
):
    event = club_night(8)
    t1, t2, t3, t4 = played_tables(event)
    td = open_page()
    log_in(td, f"/td/events/{event.pk}/games/1/")

    # Table 2: its first player wins, the loser "scored" 125 (a slip of the keys).
    td.locator(f"#t{t2.pk}-w{t2.seat_a_id}").focus()
    td.keyboard.press("Space")
    td.keyboard.press("Tab")
    focused(td, f"#t{t2.pk}-loser_score")
    td.keyboard.type("125")
    td.keyboard.press("Enter")
    expect(td.locator(f"#card-{t2.pk}")).to_contain_text("The loser's score must be below 121")
    # The cursor stays on the score in error, the typed value kept (and selected).
    focused(td, f"#t{t2.pk}-loser_score")
    expect(td.locator(f"#t{t2.pk}-loser_score")).to_have_value("125")
    expect(td.locator(f"#t{t2.pk}-w{t2.seat_a_id}")).to_be_checked()
    checks.a11y(td, "TD game page: a refused score")

    # The keys the issue replayed (Space, Tab, 100, Enter) stay on table 2: the Space
    # replaces the score, Enter (on the forfeit box) sends table 2 without one: refused.
    td.keyboard.press("Space")
    td.keyboard.press("Tab")
    td.keyboard.type("100")
    td.keyboard.press("Enter")
    expect(td.locator(f"#card-{t2.pk}")).to_contain_text("Enter the loser's score.")
    focused(td, f"#t{t2.pk}-loser_score")
    assert not GameResult.objects.filter(table__round__event=event).exists()

    # The TD types the score where the cursor is; the save moves on to table 3, not table 1.
    td.keyboard.type("100")
    td.keyboard.press("Enter")
    expect(td.locator(f"#card-{t2.pk}")).to_contain_text("Saved.")
    focused(td, f"#t{t3.pk}-w{t3.seat_a_id}")
    expect(td.locator("#open-count")).to_have_text("3")  # 4 open tables, one saved
    result = GameResult.objects.get(table=t2)
    assert (result.winner_id, result.loser_score) == (t2.seat_a_id, 100)

    for table in (t3, t4):
        td.keyboard.press("Space")
        td.keyboard.press("Tab")
        td.keyboard.type("90")
        td.keyboard.press("Enter")
        expect(td.locator(f"#card-{table.pk}")).to_contain_text("Saved.")
    # No open table after table 4: back to the first open one.
    focused(td, f"#t{t1.pk}-w{t1.seat_a_id}")
    assert not GameResult.objects.filter(table=t1).exists()


def test_a_stale_confirm_is_refused_when_the_report_changed(open_page: Callable[[], Page], checks):
    cache.clear()  # the per-key report throttle lives in the cache
    event = EventFactory()
    hank = EntryFactory(event=event, player__name="Hank Marvin")
    luca = EntryFactory(event=event, player__name="Luca Bianchi")
    event.club.directors.add(UserFactory(username="director"))
    table = tournament_services.draw_next_game(event).tables.get()
    key_hank = result_services.key_for(hank).key
    result_services.submit(key_hank, table=table, winner=hank, loser_score=90)

    page = open_page()
    page.goto(f"/k/{result_services.key_for(luca).key}/")
    card = page.locator("#game-card")
    expect(card).to_contain_text("Hank Marvin reported: they won, you scored 90.")

    # Hank changes his report; Luca's poll has not brought it yet (it says "no change").
    def no_change_yet(route: Route) -> None:
        route.fulfill(status=204)

    page.route("**/k/*/?since=*", no_change_yet)
    result_services.submit(key_hank, table=table, winner=luca, loser_score=60)
    expect(card).to_contain_text("they won, you scored 90.")  # what Luca still sees
    page.get_by_role("button", name="Confirm this result").click()

    expect(page.get_by_role("alert")).to_contain_text(
        "Hank Marvin changed the report: check it again."
    )
    expect(card).to_contain_text("Hank Marvin reported: you won, they scored 60.")
    assert not GameResult.objects.filter(table=table).exists()
    assert not AuditEntry.objects.filter(table=table, action="confirmed").exists()
    checks.a11y(page, "player: the report changed")

    # Luca reads the new report and confirms that one.
    page.unroute("**/k/*/?since=*")
    page.get_by_role("button", name="Confirm this result").click()
    expect(card).to_contain_text("You won by")
    result = GameResult.objects.get(table=table)
    assert (result.winner_id, result.loser_score) == (luca.pk, 60)
