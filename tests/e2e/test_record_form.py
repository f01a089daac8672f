"""A player at the table, on a phone, adds a deal of the hand-by-hand record with the card
picker (rank, then suit; the picker moves on to the next card by itself) and reports.

Checked with axe-core with the picker open and closed (``checks``, tests/e2e/conftest.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from results import services as result_services
from results.models import Submission
from tests.e2e.conftest import PHONE
from tests.e2e.night import club_night, played_tables

pytestmark = pytest.mark.e2e

SUIT_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# games/cribbage/README.md's example deal, I deal: starter, my hand, theirs, the crib, then
# the pegging in the order laid (the page's order of the cards).
STARTER = "5D"
MINE = ["5H", "5C", "5S", "JD"]
THEIRS = ["2C", "3C", "4D", "9S"]
CRIB = ["KH", "QS", "7D", "AC"]
PLAY = ["9S", "5H", "2C", "5C", "4D", "5S", "3C", "JD"]


@pytest.fixture
def viewport() -> dict:
    """Players enter the record on their phones at the table."""
    return PHONE


def pick(page: Page, card: str) -> None:
    """Tap the rank, then the suit, on the open picker."""
    picker = page.get_by_role("dialog")
    picker.get_by_role("button", name=card[:-1], exact=True).click()
    picker.get_by_role("button", name=SUIT_NAMES[card[-1]], exact=True).click()


def test_a_player_enters_a_deal_with_the_card_picker(open_page: Callable[[], Page], checks):
    event = club_night(4)
    table = played_tables(event)[0]
    page = open_page()
    page.goto(f"/k/{result_services.key_for(table.seat_a).key}/")
    report = page.locator("form.report-form")
    report.locator("label", has_text="I won").click()
    report.get_by_label("Loser's score").fill("95")

    report.get_by_text("Add the hand-by-hand record (optional)").click()
    deal = report.locator("#deal-1")
    deal.locator("label", has_text=re.compile("^Me$")).click()
    deal.get_by_role("button", name="Starter card: not chosen").click()
    expect(page.get_by_role("dialog")).to_be_visible()
    # The page polls every 4 s (204: nothing new); the picker stays open through the polls.
    for _poll in range(2):
        with page.expect_response(lambda r: "since=" in r.url, timeout=10_000):
            pass
    expect(page.get_by_role("dialog")).to_be_visible()
    checks.a11y(page, "record: picker open")
    pick(page, STARTER)
    with page.expect_response(lambda r: "since=" in r.url, timeout=10_000):
        pass
    expect(page.get_by_role("dialog")).to_be_visible()  # and after a card is picked
    for card in [*MINE, *THEIRS, *CRIB]:
        pick(page, card)
    # The pegging offers the cards of the two hands not laid yet: one tap each.
    picker = page.get_by_role("dialog")
    expect(picker.get_by_role("group", name="Cards of the two hands")).to_be_visible()
    checks.a11y(page, "record: pegging from the hands")
    for card in PLAY:
        picker.get_by_role("button", name=card[:-1] + SYMBOLS[card[-1]], exact=True).click()
    # After the last card of the deal the picker closes by itself.
    expect(page.get_by_role("dialog")).to_be_hidden()
    expect(deal.get_by_role("button", name="Your hand, card 1: 5♥")).to_be_visible()
    deal.get_by_label("Points pegged with card 6").fill("1")
    deal.get_by_label("Points pegged with card 8").fill("1")
    deal.get_by_label("Your hand", exact=True).fill("29")
    checks.a11y(page, "record: one deal filled")

    report.get_by_role("button", name="Report the result").click()
    expect(page.locator("#game-card")).to_contain_text("Reported: you won, 95.")
    checks.a11y(page, "record: reported")
    record = Submission.objects.get(table=table).record
    assert record["players"] == [table.seat_a.player.name, table.seat_b.player.name]
    (only,) = record["deals"]
    assert only["dealer"] == 0 and only["starter"] == STARTER
    assert only["hands"] == [MINE, THEIRS] and only["crib"] == CRIB
    assert [p["card"] for p in only["play"]] == PLAY
    assert [p.get("claim") for p in only["play"]] == [None] * 5 + [1, None, 1]
    assert only["show"] == [{"by": 0, "claim": 29}]
    # The crib's first two cards are mine: the six cards dealt, so the discards are reviewed.
    assert only["dealt"] == [MINE + CRIB[:2], THEIRS + CRIB[2:]]
    expect(page.get_by_role("heading", name="Your discards")).to_be_visible()


def test_an_impossible_deal_shows_the_error_at_the_deal(open_page: Callable[[], Page], checks):
    event = club_night(4)
    table = played_tables(event)[0]
    page = open_page()
    page.goto(f"/k/{result_services.key_for(table.seat_a).key}/")
    report = page.locator("form.report-form")
    report.locator("label", has_text="I won").click()
    report.get_by_label("Loser's score").fill("95")
    report.get_by_text("Add the hand-by-hand record (optional)").click()
    deal = report.locator("#deal-1")
    deal.locator("label", has_text=re.compile("^Me$")).click()
    # By keyboard: Enter opens the picker on the ranks, Enter picks, Escape gives focus back.
    starter = deal.get_by_role("button", name="Starter card: not chosen")
    starter.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("dialog").get_by_role("button", name="A", exact=True)).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_be_hidden()
    expect(starter).to_be_focused()
    starter.click()
    for card in [STARTER, *MINE[:3]]:  # a hand of three, and nothing else
        pick(page, card)
    page.get_by_role("dialog").get_by_role("button", name="Done").click()
    report.get_by_role("button", name="Add a deal").click()
    expect(report.locator("#deal-2")).to_be_visible()
    report.get_by_role("button", name="Report the result").click()
    expect(page.locator("#deal-1")).to_contain_text("3 cards where 4 are needed.")
    expect(page.locator("#record-errors")).to_contain_text("The record has mistakes")
    # The deal added (its dealer alternated, nothing else) is left out: no error there.
    expect(page.locator("#deal-2 .deal-error")).to_have_count(0)
    # What was typed is still there, as the picker's buttons.
    expect(page.locator("#deal-1").get_by_role("button", name="Starter card: 5♦")).to_be_visible()
    checks.a11y(page, "record: errors")
    assert not Submission.objects.exists()
