"""A sanctioned event in a real browser, from nothing to a champion (issue 22, item 4).

The TD creates the event (sanctioned, 3 games, a cut of 4) in the new-event form; 16 players
play three qualifying games (entered through the services: result entry has its own
journeys); the cut page previews the cut with the tie on its line, the TD confirms the draw of
lots, enters every playoff game in the browser (the lower seed wins each match, so the
champion is not the top qualifier) and finishes the event. The final places (champion 1,
runner-up 2, the semifinal losers 3=) then lead the public standings, the standings CSV, the
event archive and the club's archive.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.night import NAMES, log_in
from tests.factories import ClubFactory, EntryFactory, UserFactory, acc_format
from tournaments import services as tournament_services
from tournaments.models import Bracket, Event

pytestmark = pytest.mark.e2e


def test_a_sanctioned_event_from_nothing_to_a_champion(open_page: Callable[[], Page], checks):
    acc_format()  # the built-in format (a live server's database is flushed between tests)
    club = ClubFactory(name="Brașov Pegs")
    club.directors.add(UserFactory(username="director"))
    td = open_page()
    log_in(td, f"/td/clubs/{club.pk}/events/new/")
    td.get_by_label("Name").fill("Brașov Open")
    # A change of kind redraws the form (HTMX): the fields below are filled once it is back.
    with td.expect_response(lambda r: r.request.method == "POST"):
        td.get_by_label("Kind of event").select_option("sanctioned")
    td.get_by_label("Number of games").fill("3")
    td.get_by_label("Qualifiers (cut size)").fill("4")
    td.get_by_role("button", name="Create the event").click()
    expect(td).to_have_url(re.compile(r"/td/events/\d+/$"))
    event = Event.objects.get(club=club)
    assert (event.kind, event.games_planned, event.qualifiers) == ("sanctioned", 3, 4)

    # Sixteen players, three games; the first-named player of every table wins by 21, so
    # the players on two wins tie on every tiebreaker across the cut line.
    for i in range(16):
        EntryFactory(event=event, player__name=NAMES[i] if i < len(NAMES) else f"Player {i:03d}")
    for _game in range(3):
        round_ = tournament_services.draw_next_game(event)
        for table in round_.tables.exclude(seat_b=None):
            tournament_services.record_result(
                event, table=table, winner=table.seat_a, loser_score=100
            )

    td.goto(f"/td/events/{event.pk}/playoff/")
    preview = td.locator("#cut-preview")
    expect(preview).to_contain_text("4 qualifiers of 16 entrants, 0 byes")
    expect(preview).to_contain_text("the draw of lots decides")
    checks.a11y(td, "cut page with its preview")
    td.get_by_role("button", name="Draw the bracket").click()
    expect(td.get_by_text("across the cut line")).to_be_visible()
    # That answer is a 400 on purpose (the form comes back with its question): the browser
    # logs it as a failed load, which is not an error of the page.
    expected = f"/td/events/{event.pk}/playoff/: Failed to load resource: the server responded"
    checks.console_errors[:] = [e for e in checks.console_errors if expected not in e]
    td.get_by_label("Confirm the cut by the draw of lots").check()
    td.get_by_role("button", name="Draw the bracket").click()
    expect(td.get_by_role("heading", name="Matches to play")).to_be_visible()

    bracket = Bracket.objects.get(event=event)
    assert len(bracket.seeds) == 4
    seed_of = {pk: n for n, pk in enumerate(bracket.seeds, start=1)}
    while (ready := list(bracket.matches.filter(decided=False).exclude(seat_a=None))) and all(
        m.seat_b_id for m in ready
    ):
        for match in ready:
            underdog = max((match.seat_a_id, match.seat_b_id), key=seed_of.__getitem__)
            side = "a" if underdog == match.seat_a_id else "b"
            for _game in range(2):
                card = td.locator("form.card", has=td.locator(f"input[value='{match.code}']"))
                card.locator(f"label[for='{match.code}-{side}']").click()
                card.get_by_label("Loser's score").fill("110")
                card.get_by_role("button", name="Save game").click()
                expect(td.get_by_role("heading", level=1)).to_be_visible()
    bracket.refresh_from_db()
    assert bracket.champion_id == bracket.seeds[3]  # the fourth seed beat 1, then 2 or 3
    checks.a11y(td, "playoff decided")

    td.goto(f"/td/events/{event.pk}/")
    td.once("dialog", lambda dialog: dialog.accept())
    td.get_by_role("button", name="Finish event").click()
    expect(td.get_by_role("heading", name="Final standings")).to_be_visible()

    names = dict(event.entries.values_list("pk", "player__name"))
    places = {int(pk): place for pk, place in bracket.places.items()}
    champion = names[bracket.champion_id]
    runner_up = next(names[pk] for pk, place in places.items() if place == 2)
    thirds = sorted(names[pk] for pk, place in places.items() if place == 3)

    # The public page: the champion on top at place 1, not "3=" by the qualifying order.
    page = open_page()
    page.goto(f"/events/{event.pk}/")
    rows = page.locator("#standings tbody tr")
    expect(rows.nth(0).locator("td.place")).to_have_text("1")
    expect(rows.nth(0)).to_contain_text(champion)
    expect(rows.nth(1).locator("td.place")).to_have_text("2")
    expect(rows.nth(1)).to_contain_text(runner_up)
    expect(rows.nth(2).locator("td.place")).to_have_text("3=")
    # The player who lost the lots at the cut shares 5th with the others tied with them.
    expect(rows.nth(4).locator("td.place")).to_have_text("5=")
    checks.a11y(page, "public page: final standings")

    # The standings CSV: a Place column, in final order.
    with page.expect_download() as download:
        page.get_by_role("link", name="standings", exact=True).click()
    with open(download.value.path(), encoding="utf-8-sig") as file:
        table = list(csv.DictReader(io.StringIO(file.read())))
    assert [(row["Place"], row["Name"]) for row in table[:2]] == [
        ("1", champion),
        ("2", runner_up),
    ]
    assert sorted(row["Name"] for row in table[2:4]) == thirds
    assert [row["Place"] for row in table[2:5]] == ["3", "3", "5"]
    assert len(table) == 16

    # The event archive (the TD's download) and the club's archive.
    with td.expect_download() as download:
        td.get_by_role("link", name="Archive (JSON)").click()
    with open(download.value.path(), encoding="utf-8") as file:
        archive = json.load(file)
    final = archive["final_standings"]["rows"]
    assert [row["place"] for row in final[:5]] == [1, 2, 3, 3, 5]
    page.goto(f"/clubs/{club.pk}/archive/")
    podium = page.locator("ol.list-inline li")
    expect(podium.nth(0)).to_have_text(f"1. {champion}")
    expect(podium.nth(1)).to_have_text(f"2. {runner_up}")
    expect(podium.nth(2)).to_contain_text("3=. ")
    checks.a11y(page, "club archive: the podium by final places")
