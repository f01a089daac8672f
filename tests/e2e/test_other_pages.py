"""The pages no journey walks through, checked the same way: axe-core and console errors.

A survey, not a journey: the home page, the checkers, the seasons, the login page, the API's
Swagger page, the public event page and playoff bracket, the TD's event page and settings, the
club's page, new-event form and players, at a phone's size and a laptop's.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.night import club_night, log_in, played_tables
from tests.e2e.test_journeys import playoff_event
from tournaments import services as tournament_services

pytestmark = pytest.mark.e2e


def test_other_pages_pass_axe_and_log_no_errors(open_page: Callable[[], Page], checks):
    event = club_night(8)
    for table in played_tables(event)[:2]:
        tournament_services.record_result(event, table=table, winner=table.seat_a, loser_score=90)
    page = open_page()
    for url, heading in [
        ("/", None),
        ("/cribbage/", None),
        ("/stoppa/", None),
        ("/seasons/", None),
        ("/accounts/login/", "Tournament director log in"),
        (f"/events/{event.pk}/", event.name),
    ]:
        page.goto(url)
        if heading:
            expect(page.get_by_role("heading", level=1)).to_have_text(heading)
        checks.a11y(page, url)
    playoff = playoff_event()
    page.goto(f"/events/{playoff.pk}/bracket/")
    expect(page.locator(".bracket-match").first).to_be_visible()
    checks.a11y(page, "public bracket")
    page.goto("/api/v1/docs/")
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible()
    # Swagger UI's own colours and page are fixed in templates/drf_spectacular/swagger_ui.html
    # and static/css/swagger.css; its deep links (links inside buttons) are off in settings.
    checks.a11y(page, "API docs (Swagger UI)")
    log_in(page, f"/td/events/{event.pk}/")
    checks.a11y(page, "TD event page")
    for url in [
        f"/td/events/{event.pk}/settings/",
        f"/td/clubs/{event.club_id}/",
        f"/td/clubs/{event.club_id}/events/new/",
        f"/td/clubs/{event.club_id}/players/",
        f"/td/clubs/{event.club_id}/seasons/",
        f"/td/events/{event.pk}/games/1/",
        f"/td/events/{event.pk}/results/",
        f"/td/events/{event.pk}/?lang=it",
        f"/td/events/{event.pk}/?lang=ro",
    ]:
        page.goto(url)
        checks.a11y(page, url)
    # A season made from its page, then its edit page (dates, the Grass Roots table).
    page.goto(f"/td/clubs/{event.club_id}/seasons/?lang=en")
    page.get_by_role("button", name="Create the season").click()
    expect(page.get_by_role("heading", name="Grass Roots table")).to_be_visible()
    checks.a11y(page, "TD season page")
