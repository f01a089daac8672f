"""The browser tests' own checks: axe measures a page at rest, not a button mid-transition.

CI once failed a phone's report because axe ran while the "I won" button was still fading
into its checked colours (1.66:1 for a moment; 4.5:1 at rest). ``axe_run`` now waits for
every finite CSS transition to end; this test holds one open, slowed, and checks that axe
still sees the button as a player does.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from results import services as result_services
from tests.e2e.conftest import PHONE
from tests.e2e.night import club_night, played_tables

pytestmark = pytest.mark.e2e

# Each running transition restarted a little way in and slowed 20 times (about 3 s to go).
SLOW_TRANSITIONS_JS = """() => document.getAnimations().map((a) => {
    a.pause(); a.currentTime = 60; a.playbackRate = 0.05; a.play();
    return a.effect.target.getAttribute("for") + " " + a.transitionProperty;
})"""


@pytest.fixture
def viewport() -> dict:
    return PHONE


def test_axe_waits_for_a_button_to_finish_its_transition(open_page: Callable[[], Page], checks):
    event = club_night(4)
    table = played_tables(event)[0]
    page = open_page()
    page.goto(f"/k/{result_services.key_for(table.seat_a).key}/")
    page.locator("form.report-form label", has_text="I won").click()
    running = page.evaluate(SLOW_TRANSITIONS_JS)
    assert sorted(running) == ["w-me background-color", "w-me color"]

    checks.a11y(page, "a radio just clicked")

    assert checks.axe_findings == []
    assert page.evaluate("document.getAnimations().length") == 0
