"""Issue 22's smaller faults in the browser: the champion's trophy is an SVG with a name (no
emoji font needed), "Draw again" says what it did or why it did nothing, and choosing a
playoff-only event takes the number of games off the form."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.e2e.night import log_in
from tests.factories import EntryFactory, EventFactory, UserFactory, event_with_field
from tests.tournaments.test_event_formats import play_playoff
from tournaments import services as tournament_services
from tournaments.models import Event


def test_the_champion_has_a_named_svg_trophy_on_the_bracket_and_projector(
    open_page: Callable[[], Page], checks
):
    event = event_with_field(4, kind=Event.Kind.PLAYOFF_ONLY, name="Coppa")
    tournament_services.create_playoff(event)
    play_playoff(event, random.Random(5))
    champion = event.bracket.champion.player.name
    page = open_page()
    for url in (f"/events/{event.pk}/bracket/", f"/events/{event.pk}/projector/?view=bracket"):
        page.goto(url)
        trophy = page.get_by_role("img", name="Champion")
        expect(trophy).to_be_visible()
        box = trophy.bounding_box()
        assert box is not None and 16 <= box["width"] <= 64  # drawn at the text's size
        expect(page.locator("p", has=trophy)).to_contain_text(champion)
        assert "\N{TROPHY}" not in page.content()
        checks.a11y(page, url)


def test_draw_again_says_what_it_did_and_a_playoff_only_event_asks_no_games(
    open_page: Callable[[], Page], checks
):
    event = EventFactory(pairing=Event.Pairing.SWISS, name="Swiss night")
    for i in range(6):
        EntryFactory(event=event, player__name=f"Player {i}")
    event.club.directors.add(UserFactory(username="director"))
    tournament_services.draw_next_game(event, draft=True)
    page = open_page()
    log_in(page, f"/td/events/{event.pk}/games/1/")
    expect(page.get_by_text(re.compile("press Enter"))).to_have_count(0)  # a draft: no entry
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Draw again").click()
    seed = event.rounds.get(number=1).seed
    expect(page.get_by_text(f"Game 1 drawn again from a new seed ({seed}).")).to_be_visible()
    checks.a11y(page, "draft game drawn again")

    page.goto(f"/td/clubs/{event.club_id}/events/new/")
    games = page.get_by_label("Number of games", exact=True)
    expect(games).to_be_visible()
    page.get_by_label("Kind of event").select_option(Event.Kind.PLAYOFF_ONLY)
    expect(games).to_have_count(0)  # the form came back without it
    expect(page.get_by_label("How games are seated")).to_have_count(0)
    checks.a11y(page, "settings of a playoff-only event")
