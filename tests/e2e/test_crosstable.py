"""The crosstable in a browser (issue 28): from the event's public page to the wall chart, at
phone and laptop sizes, its PDF downloaded; a player's private page says what they need to
make the cut. Checked with axe-core, no console error allowed."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from results import services as result_services
from scoring.services import recompute_standings
from tests.e2e.night import NAMES, club_night, played_tables
from tournaments import services as tournament_services
from tournaments.models import Event

pytestmark = pytest.mark.e2e


def test_the_crosstable_its_pdf_and_what_a_player_needs(open_page: Callable[[], Page], checks):
    event = club_night(8)  # game 1 drawn and released
    Event.objects.filter(pk=event.pk).update(
        kind=Event.Kind.SANCTIONED, games_planned=2, qualifiers=2
    )
    event.refresh_from_db()
    tables = played_tables(event)
    for table in tables:
        score = 50 if table.number == 1 else 100
        tournament_services.record_result(
            event, table=table, winner=table.seat_a, loser_score=score
        )
    tournament_services.draw_next_game(event)
    recompute_standings(event.pk)
    leader = tables[0].seat_a

    page = open_page()
    page.goto(f"/events/{event.pk}/")
    page.get_by_role("link", name="Crosstable").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Crosstable")
    grid = page.locator("#crosstable")
    expect(grid.locator("tbody tr")).to_have_count(8)
    # The leader's row comes first: a win 121-50 with a double skunk, then game 2 to play.
    first = grid.locator("tbody tr").first
    expect(first).to_contain_text(leader.player.name)
    expect(first).to_contain_text("W 121\u201350 **")
    expect(first).to_contain_text(tables[0].seat_b.player.name)
    for name in NAMES[:8]:
        expect(grid).to_contain_text(name)
    checks.a11y(page, "crosstable")

    with page.expect_download() as download:
        page.get_by_role("link", name="Download the whole crosstable (PDF)").click()
    saved = download.value
    assert saved.suggested_filename.endswith("crosstable.pdf")
    with open(saved.path(), "rb") as file:
        assert file.read(5) == b"%PDF-"

    phone = open_page()
    phone.goto(f"/k/{result_services.key_for(leader).key}/")
    expect(phone.locator("#cut-need")).to_have_text("To make the cut: You need a win and a skunk.")
    checks.a11y(phone, "player page with what they need")
