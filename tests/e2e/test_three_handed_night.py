"""A three-handed cribbage night in a browser (issue 28): 15 players, two games to 121.

The event and its 15 entries are set up through the services (not checked in); in the
browser the TD checks everyone in, draws and releases each game (5 tables of 3), and keys
the tables' final scores, one of them twice at the target first: refused with a form error
beside the row, then corrected. Table 1 of game 1 reports from the players' private links at
a phone's size (one sends, the two others confirm). The TD finishes the night; the public
standings show the winner's name and points, as the standings job computed them. Every page
is checked with axe-core, no console error allowed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.core.cache import cache
from playwright.sync_api import BrowserContext, Page, expect

from results import services as result_services
from scoring.selectors import standings_for_event
from scoring.services import recompute_standings
from tests.e2e.conftest import EXPECT_TIMEOUT_MS, LAPTOP, PHONE
from tests.e2e.night import NAMES, clock_poll_keeps_the_cursor, log_in, start_the_clock
from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.models import Entry, Event, Round, StoppaTable

pytestmark = pytest.mark.e2e

PLAYERS = 15


def three_handed_night() -> Event:
    """A two-game three-handed event to 121, 15 entries not yet checked in, its TD."""
    cache.clear()  # the per-key report throttle lives in the cache
    event = EventFactory(game="cribbage3", games_planned=2, target=121, name="Three-handed night")
    for i in range(PLAYERS):
        name = NAMES[i] if i < len(NAMES) else f"Player {i:03d}"
        EntryFactory(event=event, player__name=name, checked_in=False)
    event.club.directors.add(UserFactory(username="director"))
    return event


def _seats(table: StoppaTable) -> list:
    return list(table.seats.select_related("entry__player").order_by("position"))


def _scores(table: StoppaTable) -> list[int]:
    """Seat 1 wins at 121; the others below, differing by table (no tie in the standings'
    spread): seat 3 is skunked (at most 90)."""
    return [121, 100 - table.number, 85 - table.number][: table.seats.count()]


def _tables(event: Event, game: int) -> list[StoppaTable]:
    round_ = Round.objects.get(event=event, number=game)
    return list(round_.stoppa_tables.filter(number__isnull=False).order_by("number"))


def _draw_and_release(td: Page, event: Event, game: int, label: str) -> None:
    td.goto(f"/td/events/{event.pk}/")
    td.get_by_role("button", name=label).click()
    expect(td).to_have_url(re.compile(rf"/td/events/{event.pk}/three-handed/{game}/$"))
    release = td.get_by_role("button", name="Release to the players")
    if release.is_visible():
        release.click()
    expect(td.get_by_role("button", name="Release to the players")).to_have_count(0)
    assert Round.objects.get(event=event, number=game).status == Round.Status.RELEASED
    expect(td.locator("form.three-scores")).to_have_count(5)


def _key_table(td: Page, table: StoppaTable, scores: list[int]) -> None:
    row = td.locator(f"#three-row-{table.pk}")
    for seat, score in zip(_seats(table), scores, strict=True):
        row.get_by_label(f"{seat.position}. {seat.entry.player.name}").fill(str(score))
    row.get_by_role("button", name="Save").click()
    expect(td.locator(f"#three-row-{table.pk}")).to_contain_text("Saved.")


@pytest.mark.parametrize("viewport", [LAPTOP], indirect=True, ids=["laptop"])
def test_a_fifteen_player_three_handed_night(
    open_page: Callable[[], Page], new_context: Callable[..., BrowserContext], live_server, checks
):
    event = three_handed_night()

    def phone() -> Page:
        context = new_context(viewport=PHONE, base_url=live_server.url, locale="en")
        context.set_default_timeout(EXPECT_TIMEOUT_MS)
        return checks.watch(context.new_page())

    td = open_page()
    log_in(td, f"/td/events/{event.pk}/")
    checks.a11y(td, "TD event page, three-handed, nobody checked in")
    td.get_by_role("button", name="Check in all").click()
    expect(td.get_by_text("checked in", exact=True)).to_have_count(PLAYERS)
    assert Entry.objects.filter(event=event, checked_in=True).count() == PLAYERS

    # Game 1: five tables of three.
    _draw_and_release(td, event, 1, "Start: draw game 1")
    checks.a11y(td, "TD three-handed game page, game 1")
    tables = _tables(event, 1)
    assert [t.seats.count() for t in tables] == [3] * 5

    # The round clock runs here too; its panel's poll never moves the TD's cursor.
    start_the_clock(td)
    checks.a11y(td, "TD three-handed game page, clock running")
    typing = td.locator(f"#three-row-{tables[2].pk} input.score").nth(1)
    clock_poll_keeps_the_cursor(td, event, 1, typing)

    # Table 1 reports from the players' phones: one sends, the two others confirm.
    first = tables[0]
    at_first, first_scores = _seats(first), _scores(first)
    phones = []
    for seat in at_first:
        page = phone()
        page.goto(f"/k/{result_services.key_for(seat.entry).key}/")
        expect(page.locator("#game-card")).to_contain_text(
            f"Game 1 · table 1 · seat {seat.position}"
        )
        phones.append(page)
    checks.a11y(phones[0], "player page (phone): the table's scores to send")
    sender = phones[0]
    for seat, score in zip(at_first, first_scores, strict=True):
        sender.get_by_label(f"{seat.position}. {seat.entry.player.name}").fill(str(score))
    sender.get_by_role("button", name="Send the table's scores").click()
    expect(sender.locator("#game-card")).to_contain_text("Waiting for")
    for page in phones[1:]:
        card = page.locator("#game-card")
        expect(card).to_contain_text(f"{at_first[0].entry.player.name} reported the table's scores")
        expect(card.locator("#table-scores")).to_contain_text(str(first_scores[1]))
        checks.a11y(page, "player page (phone): scores to confirm")
        page.get_by_role("button", name="Confirm these scores").click()
    expect(phones[-1].locator("#game-card")).to_contain_text("Recorded")
    first.refresh_from_db()
    assert first.has_result and [s.net for s in _seats(first)] == first_scores
    for page in phones:
        page.context.close()

    # Table 2, keyed by the TD with a mistake first: two players at 121.
    td.reload()
    second = tables[1]
    row = td.locator(f"#three-row-{second.pk}")
    wrong = _scores(second)
    wrong[1] = 121
    for seat, score in zip(_seats(second), wrong, strict=True):
        row.get_by_label(f"{seat.position}. {seat.entry.player.name}").fill(str(score))
    row.get_by_role("button", name="Save").click()
    alert = td.locator(f"#three-row-{second.pk}").get_by_role("alert")
    expect(alert).to_contain_text("Only one player can reach 121")
    checks.a11y(td, "TD three-handed game page: a table refused")
    second.refresh_from_db()
    assert not second.has_result
    _key_table(td, second, _scores(second))
    for table in tables[2:]:
        _key_table(td, table, _scores(table))
    assert all(t.has_result for t in _tables(event, 1))

    # Game 2: drawn, released and keyed the same way.
    _draw_and_release(td, event, 2, "Draw game 2")
    for table in _tables(event, 2):
        _key_table(td, table, _scores(table))
    checks.a11y(td, "TD three-handed game page, game 2 keyed")

    # The night is finished; the final standings are public.
    td.goto(f"/td/events/{event.pk}/")
    td.once("dialog", lambda dialog: dialog.accept())
    td.get_by_role("button", name="Finish event").click()
    expect(td.get_by_role("heading", name="Final standings")).to_be_visible()
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED and event.standings_published
    recompute_standings(event.pk, incremental=False)
    rows = list(standings_for_event(event.pk))
    top = rows[0]
    # Seat 1 of every table won: the leader won both games, 2 points each.
    assert (top.game_points, top.games_won, top.games_lost) == (4, 2, 0)
    assert sum(r.games_won for r in rows) == 10 and len(rows) == PLAYERS

    public = phone()
    public.goto(f"/events/{event.pk}/")
    first_row = public.locator("table.standings tbody tr").first
    expect(first_row).to_contain_text(top.entry.player.name)
    expect(first_row.locator("td.num.fw-bold")).to_have_text("4")
    checks.a11y(public, "public standings (phone), three-handed night finished")
