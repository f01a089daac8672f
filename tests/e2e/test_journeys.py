"""A club night in a real browser, at a phone's size and at a laptop's.

1. Two players report and confirm a game through their private links; both pages follow by
   their poll, without a reload.
2. The players disagree, one says why; the TD logs in and rules it at the results desk; the
   player's page shows the ruling.
3. The TD enters every result of a game by keyboard alone (the keystrokes are counted) and
   corrects one at the desk, with a reason.
4. The projector (1920x1080) pages through every row of a 200-player event, its "find your
   table" lists everyone, and every mode passes axe in both themes.

Every page is checked with axe-core and for console errors (``checks``, tests/e2e/conftest.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from results import services as result_services
from results.models import Dispute
from tests.e2e.night import club_night, log_in, played_tables
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, GameResult

pytestmark = pytest.mark.e2e


def card(page: Page):
    """The player's current game."""
    return page.locator("#game-card")


def test_players_report_and_confirm_through_their_links(open_page: Callable[[], Page], checks):
    event = club_night(4)
    table = played_tables(event)[0]
    a_name, b_name = table.seat_a.player.name, table.seat_b.player.name
    a, b = open_page(), open_page()
    a.goto(f"/k/{result_services.key_for(table.seat_a).key}/")
    b.goto(f"/k/{result_services.key_for(table.seat_b).key}/")
    expect(card(a)).to_contain_text(b_name)
    checks.a11y(a, "player: report")

    report = card(a).locator("form.report-form")
    report.locator("label", has_text="I won").click()
    report.get_by_label("Loser's score").fill("95")
    report.get_by_role("button", name="Report the result").click()
    expect(card(a)).to_contain_text("Reported: you won, 95.")
    expect(card(a)).to_contain_text(f"Waiting for {b_name} to confirm.")
    checks.a11y(a, "player: waiting")

    # The opponent's page had loaded before the report: its poll brings the report in.
    expect(card(b)).to_contain_text(f"{a_name} reported: they won, you scored 95.")
    checks.a11y(b, "player: confirm or dispute")
    b.get_by_role("button", name="Confirm this result").click()
    expect(card(b)).to_contain_text("Confirmed")
    expect(card(b)).to_contain_text("You lost by 26.")
    # The reporter's page follows by its poll, then stops polling.
    expect(card(a)).to_contain_text("You won by 26.")
    expect(a.locator("#player-live")).not_to_have_attribute("hx-trigger", re.compile("every"))
    expect(a.get_by_role("listitem").filter(has_text="Game 1 vs")).to_have_text(
        f"Game 1 vs {b_name}: won by 26"
    )
    checks.a11y(a, "player: confirmed")
    assert GameResult.objects.get(table=table).winner_id == table.seat_a_id

    a.get_by_role("link", name=f"Standings of {event.name}").click()
    expect(a.get_by_role("cell", name=a_name).first).to_be_visible()
    checks.a11y(a, "public event page")


def test_a_dispute_goes_to_the_desk_and_the_ruling_comes_back(
    open_page: Callable[[], Page], checks
):
    event = club_night(4)
    table = played_tables(event)[0]
    a_name, b_name = table.seat_a.player.name, table.seat_b.player.name
    a, b = open_page(), open_page()
    key_b = result_services.key_for(table.seat_b).key
    a.goto(f"/k/{result_services.key_for(table.seat_a).key}/")
    b.goto(f"/k/{key_b}/")

    report = card(a).locator("form.report-form")
    report.locator("label", has_text="I won").click()
    report.get_by_label("Loser's score").fill("95")
    report.get_by_role("button", name="Report the result").click()
    expect(card(a)).to_contain_text(f"Waiting for {b_name} to confirm.")

    # B saw it the other way round: B won, A scored 100.
    expect(card(b)).to_contain_text(f"{a_name} reported: they won")
    b.get_by_text("Not right? Dispute it").click()
    dispute = card(b).locator("form", has=b.get_by_role("button", name="Dispute"))
    expect(dispute).to_contain_text("The tournament director will decide; find them at the desk.")
    checks.a11y(b, "player: dispute form open")
    dispute.get_by_role("button", name="Dispute").click()  # no reason: the form asks for one
    expect(dispute.get_by_label("What is wrong?")).to_be_focused()
    dispute.get_by_label("What is wrong?").fill("I pegged out first, 121 to 100")
    dispute.locator("label", has_text="I won").click()
    dispute.get_by_label("Loser's score").fill("100")
    dispute.get_by_role("button", name="Dispute").click()
    expect(card(b)).to_contain_text("Disputed")
    expect(card(b)).to_contain_text("The tournament director will decide; find them at the desk.")
    expect(card(b)).to_contain_text("I pegged out first, 121 to 100")
    checks.a11y(b, "player: disputed")
    expect(card(a)).to_contain_text("Disputed")  # by the poll
    assert Dispute.objects.get(table=table).is_open

    td = open_page()
    log_in(td, f"/td/events/{event.pk}/results/")
    dispute_card = td.locator(".card", has_text="Rule this version")
    expect(dispute_card).to_contain_text("I pegged out first, 121 to 100")
    checks.a11y(td, "results desk: a dispute")
    version_of_b = dispute_card.locator(".border", has_text=f"{b_name} ·")
    version_of_b.get_by_role("button", name="Rule this version").click()
    expect(td.get_by_role("alert")).to_contain_text("Ruling recorded.")
    checks.a11y(td, "results desk: ruled")

    b.reload()  # a disputed page no longer polls: the ruling is there on the next visit
    expect(card(b)).to_contain_text("Confirmed")
    expect(card(b)).to_contain_text("You won by 21.")
    expect(card(b)).to_contain_text("Ruled by the tournament director.")
    checks.a11y(b, "player: ruled")
    a.reload()
    expect(card(a)).to_contain_text("You lost by 21.")
    expect(a.get_by_role("listitem").filter(has_text="Game 1 vs")).to_have_text(
        f"Game 1 vs {b_name}: lost by 21"
    )


def test_td_enters_a_game_by_keyboard_and_corrects_one_at_the_desk(
    open_page: Callable[[], Page], checks, viewport
):
    event = club_night(8)
    tables = played_tables(event)
    scores = [95, 88, 102, 7]  # loser's scores: one skunked game (7), the rest close
    td = open_page()
    log_in(td, f"/td/events/{event.pk}/games/1/")
    checks.a11y(td, "TD game page")

    first = td.locator(f"#t{tables[0].pk}-w{tables[0].seat_a_id}")
    tabs = 0  # from the top of the page to the first table's winner: setup, not per result
    while not first.evaluate("el => el === document.activeElement"):
        td.keyboard.press("Tab")
        tabs += 1
        assert tabs < 60, "the first table's winner cannot be reached by Tab"
    keystrokes = 0
    for i, (table, score) in enumerate(zip(tables, scores, strict=True)):
        winner_first = i % 2 == 0  # alternate: the first named wins, then the second
        expect(td.locator(f"#t{table.pk}-w{table.seat_a_id}")).to_be_focused()
        td.keyboard.press("Space" if winner_first else "ArrowRight")  # pick the winner
        td.keyboard.press("Tab")  # to the loser's score
        expect(td.locator(f"#t{table.pk}-loser_score")).to_be_focused()
        td.keyboard.type(str(score))
        td.keyboard.press("Enter")  # save; focus moves to the next open table
        keystrokes += 3 + len(str(score))
        expect(td.locator(f"#card-{table.pk}")).to_contain_text("Saved.")
    assert GameResult.objects.filter(table__in=tables).count() == len(tables)
    per_result = keystrokes / len(tables)
    print(
        f"\n[{viewport['width']}x{viewport['height']}] keystrokes per result entered: "
        f"{per_result:.2f} ({keystrokes} for {len(tables)} tables; "
        f"{tabs} Tab presses from the top of the page to the first table)"
    )
    result = GameResult.objects.get(table=tables[2])
    assert (result.winner_id, result.loser_score) == (tables[2].seat_a_id, 102)
    checks.a11y(td, "TD game page: all entered")

    # Table 3's card had the names swapped: the TD corrects it at the desk, with a reason.
    td.goto(f"/td/events/{event.pk}/results/")
    td.get_by_label("Table", exact=True).fill(str(tables[2].number))
    td.get_by_role("button", name="Find the table").click()
    correction = td.locator("form", has=td.get_by_role("button", name="Correct", exact=True))
    expect(correction).to_contain_text(f"recorded as {tables[2].seat_a.player.name} won by 19")
    checks.a11y(td, "results desk: correction form")
    correction.locator("label", has_text=tables[2].seat_b.player.name).click()
    correction.get_by_role("button", name="Correct", exact=True).click()
    expect(correction.get_by_label("Reason (required)")).to_be_focused()  # required
    correction.get_by_label("Reason (required)").fill("Names swapped on the score card")
    correction.get_by_role("button", name="Correct", exact=True).click()
    expect(td.get_by_role("alert")).to_contain_text("Correction recorded")
    expect(td.get_by_role("cell", name="Names swapped on the score card")).to_be_visible()
    result.refresh_from_db()
    assert (result.winner_id, result.loser_score) == (tables[2].seat_b_id, 102)
    assert AuditEntry.objects.filter(
        table=tables[2], action="corrected", reason="Names swapped on the score card"
    ).exists()

    # The night ends: the TD finishes it from the event page (asked first), then re-opens it
    # for a late correction; the standings say Final, then Provisional again.
    td.goto(f"/td/events/{event.pk}/")
    expect(td.get_by_role("link", name="Results desk")).to_be_visible()
    td.once("dialog", lambda dialog: dialog.accept())
    td.get_by_role("button", name="Finish event").click()
    expect(td.get_by_role("heading", name="Final standings")).to_be_visible()
    event.refresh_from_db()
    assert event.status == "finished"
    checks.a11y(td, "TD event page: finished")
    td.once("dialog", lambda dialog: dialog.accept())
    td.get_by_role("button", name="Re-open event").click()
    expect(td.get_by_role("heading", name="Provisional standings")).to_be_visible()
    event.refresh_from_db()
    assert event.status == "running"


HALL = {"width": 1920, "height": 1080}  # the projector's screen

# The rows the projector shows on its current page (the others are hidden, not removed).
SHOWN = """sel => [...document.querySelectorAll(sel)].filter(r => !r.hidden)
                    .map(r => r.querySelector('.player a, .seat-name').textContent)"""


def shown_pages(page: Page, rows: str) -> list[list[str]]:
    """Every page of the projector's rows, turned by its own hook: the names each shows."""
    page.evaluate("window.pegboardProjector.pause(true)")
    pages = int(page.locator("body").get_attribute("data-pages") or "1")
    seen = []
    for _ in range(pages):
        seen.append(page.evaluate(SHOWN, rows))
        page.evaluate("window.pegboardProjector.next()")
    return seen


@pytest.mark.parametrize("viewport", [HALL], ids=["hall"])
def test_projector_pages_through_every_row_of_a_200_player_event(
    open_page: Callable[[], Page], checks
):
    event = club_night(200)
    tables = played_tables(event)
    for i, table in enumerate(tables):
        tournament_services.record_result(
            event, table=table, winner=table.seat_a, loser_score=60 + i % 60
        )
    page = open_page()
    page.goto(f"/events/{event.pk}/projector/?seconds=1")
    expect(page.locator("nav.navbar")).to_have_count(0)  # full screen: no navbar, no login
    expect(page.locator("select[name=language]")).to_have_count(0)
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(200)
    body = page.locator("body")
    expect(body).to_have_attribute("data-pages", re.compile(r"^\d+$"))
    pages = int(body.get_attribute("data-pages") or "0")
    assert 5 <= pages <= 20  # pages sized to the screen: ~19 rows at 1920x1080
    expect(rows.last).to_be_hidden()
    # A page a second: the indicator reaches the last page, which shows the last player.
    last = page.get_by_text(f"Page {pages} of {pages}")
    expect(last).to_be_visible(timeout=pages * 1000 + 15_000)
    expect(rows.last).to_be_visible()
    expect(rows.last).to_be_in_viewport(ratio=1)
    # Every name is on exactly one page, and every row of a page fits on the screen.
    names = shown_pages(page, "#standings tbody tr")
    assert sorted(n for p in names for n in p) == sorted(
        e.player.name for e in event.entries.select_related("player")
    )
    bottom = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('#standings tbody tr')]"
        ".filter(r => !r.hidden).map(r => r.getBoundingClientRect().bottom))"
    )
    assert bottom <= HALL["height"]
    # The poll swaps the table in every 2 s: the page it was on stays, still paged.
    page.evaluate("window.pegboardProjector.next()")
    before = body.get_attribute("data-page")
    shown = len(page.evaluate(SHOWN, "#standings tbody tr"))
    after_swap = page.evaluate(
        """() => new Promise(resolve => {
             setTimeout(() => resolve(-1), 15000);  // no swap within 15 s: -1
             document.body.addEventListener("htmx:afterSettle",
               () => resolve(document.querySelectorAll("#standings tbody tr").length),
               {once: true});
           })"""
    )
    assert after_swap == 200
    assert body.get_attribute("data-page") == before
    assert len(page.evaluate(SHOWN, "#standings tbody tr")) == shown
    # Find your table: everyone, alphabetically, with the table of the latest game.
    page.goto(f"/events/{event.pk}/projector/?view=seating&seconds=1")
    expect(page.locator(".seat-board > li")).to_have_count(200)
    board = [n for p in shown_pages(page, ".seat-board > li") for n in p]
    assert len(board) == 200 and board[0] == "Dolores Ibáñez" and board[-1] == "Zoë Lindqvist"
    # A page fades in, unless the viewer asked for less motion: then it just changes.
    animation = "() => getComputedStyle(document.querySelector('.projector-main')).animationName"
    page.evaluate("window.pegboardProjector.next()")
    assert page.evaluate(animation) == "pager-fade"
    page.emulate_media(reduced_motion="reduce")
    page.evaluate("window.pegboardProjector.next()")
    assert page.evaluate(animation) == "none"
    # Every mode in both themes passes axe (the pages held still while it looks).
    playoff = playoff_event()
    for view, pk in [("standings", event.pk), ("seating", event.pk), ("bracket", playoff.pk)]:
        for theme in ("dark", "light"):
            page.goto(f"/events/{pk}/projector/?view={view}&theme={theme}&seconds=600")
            expect(page.locator("html")).to_have_attribute("data-bs-theme", theme)
            checks.a11y(page, f"projector {view} {theme}")
    expect(page.locator(".bracket-match").first).to_be_visible()


def playoff_event():
    """A playoff-only event of 8 with its bracket drawn and a first match under way."""
    from tests.factories import event_with_field
    from tournaments.models import Event

    event = event_with_field(8, kind=Event.Kind.PLAYOFF_ONLY, name="Consy Lite à Brașov")
    tournament_services.create_playoff(event)
    first = event.bracket.matches.get(code="M1-1")
    tournament_services.record_playoff_game(
        event, match="M1-1", winner=first.seat_a, loser_score=99
    )
    return event
