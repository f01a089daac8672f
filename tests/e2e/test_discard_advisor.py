"""The discard advisor at a phone's size: the six cards through the picker, the ranking,
axe-core with the picker open and with the result shown."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from results import services as result_services
from tests.e2e.conftest import PHONE
from tests.e2e.night import club_night, log_in, played_tables
from tests.e2e.test_record_form import pick

pytestmark = pytest.mark.e2e

EXAMPLE = Path(__file__).resolve().parents[2] / "games" / "cribbage" / "example_game.json"
DEALT = ["5H", "5D", "JS", "6C", "4H", "KD"]


@pytest.fixture
def viewport() -> dict:
    """Players look up a discard on their phones."""
    return PHONE


def test_advisor_with_the_card_picker_on_a_phone(open_page: Callable[[], Page], checks):
    page = open_page()
    page.goto("/cribbage/discard")
    expect(page.get_by_role("heading", level=1)).to_have_text("Discard advisor")
    checks.a11y(page, "advisor: empty")
    page.get_by_role("button", name="Card 1: not chosen").click()
    expect(page.get_by_role("dialog")).to_be_visible()
    checks.a11y(page, "advisor: picker open")
    for card in DEALT:  # the picker moves on to the next card by itself
        pick(page, card)
    expect(page.get_by_role("dialog")).to_be_hidden()  # closed after the sixth card
    expect(page.get_by_role("button", name="Card 6: K♦")).to_be_visible()
    page.get_by_label("My crib (I deal; with 4 players, I or my partner)").check()
    page.get_by_role("button", name="Rank the discards").click()
    items = page.locator("#result li")
    expect(items).to_have_count(15)
    expect(items.first).to_contain_text("hand 15.96 (from 12 to 24; 12 or more: 100%)")
    expect(items.first).to_contain_text("19.93")
    checks.a11y(page, "advisor: result")


def test_review_on_the_players_page_and_the_desk(open_page: Callable[[], Page], checks):
    event = club_night(4)
    table = played_tables(event)[0]
    record = json.loads(EXAMPLE.read_text())
    record["players"] = [table.seat_a.player.name, table.seat_b.player.name]
    record.pop("result", None)
    key = result_services.key_for(table.seat_a).key
    # the live server's database commits: the review task runs (eagerly) on commit
    result_services.submit(key, table=table, winner=table.seat_b, loser_score=59, record=record)
    page = open_page()
    page.goto(f"/k/{key}/")
    review = page.get_by_role("region", name="Your discards")
    expect(review).to_contain_text("33.68 points given away over 7 discards (0 best).")
    checks.a11y(page, "player's page with the discard review")
    log_in(page, f"/td/events/{event.pk}/results/")
    expect(page.get_by_role("heading", name="Missed points at the discard")).to_be_visible()
    expect(page.locator("#missed-points + p + table")).to_contain_text("33.68")
    checks.a11y(page, "desk with the missed points")
