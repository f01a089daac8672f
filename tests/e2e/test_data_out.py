"""Data out in a browser: the public page's CSV link downloads the standings, the club's
results archive and the TD's import page pass axe and log no errors."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from scoring.services import recompute_standings
from tests.e2e.night import club_night, log_in, played_tables
from tournaments import services as tournament_services
from tournaments.models import Event

pytestmark = pytest.mark.e2e


def test_downloads_and_the_results_archive(open_page: Callable[[], Page], checks):
    event = club_night(8)
    for table in played_tables(event):
        tournament_services.record_result(event, table=table, winner=table.seat_a, loser_score=90)
    recompute_standings(event.pk)
    page = open_page()
    page.goto(f"/events/{event.pk}/")
    with page.expect_download() as download:
        page.get_by_role("link", name="standings", exact=True).click()
    saved = download.value
    assert saved.suggested_filename.endswith("standings.csv")
    with open(saved.path(), encoding="utf-8-sig") as file:
        rows = list(csv.DictReader(io.StringIO(file.read())))
    assert len(rows) == 8 and rows[0]["Rank"] == "1"

    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    page.goto(f"/clubs/{event.club_id}/archive/")
    expect(page.get_by_role("link", name=event.name)).to_be_visible()
    checks.a11y(page, "club results archive")
    log_in(page, f"/td/clubs/{event.club_id}/import/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Import an event")
    checks.a11y(page, "club import page")
