"""The club's rating list and a player's rating history, in a real browser, checked by axe."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from scoring import ratings
from tests.e2e.night import club_night, played_tables
from tournaments import services

pytestmark = pytest.mark.e2e


def test_club_ratings_and_player_history(open_page: Callable[[], Page], checks):
    event = club_night(4)
    for table in played_tables(event):
        services.record_result(event, table=table, winner=table.seat_a, loser_score=95)
    ratings.update_club(event.club_id)
    winner = played_tables(event)[0].seat_a.player
    page = open_page()
    page.goto(f"/clubs/{event.club_id}/archive/")
    page.get_by_role("link", name="Club ratings").click()
    table = page.locator("#club-ratings")
    expect(table.locator("tbody tr")).to_have_count(4)
    expect(table).to_contain_text("27.6 ± 8.1")
    expect(table.locator(".badge", has_text="provisional")).to_have_count(4)
    checks.a11y(page, "club ratings")
    table.get_by_role("link", name=winner.name).first.click()
    history = page.locator("#player-ratings")
    expect(history).to_contain_text("provisional")
    expect(history.locator("table.rating-history tbody tr")).to_have_count(1)
    checks.a11y(page, "player: rating history")
