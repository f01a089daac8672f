"""A partners' cribbage night (four-handed, issue 28) from nothing to the final standings.

Sixteen players, eight teams of two. The TD registers two teams on the event page (a third,
naming a player already in a team, is refused beside the field), the other six through the
services; then, in the browser: "Check in all", game 1 drawn as a draft and released, its
tables keyed on the game page (a loser's score of 121 refused first), one table reported from
a player's private link and confirmed by a partner of the other team on a phone-size page;
games 2 and 3 drawn by the Swiss standings and keyed; the event finished. The final standings
name the winning team by both partners. Checked with axe-core, no console error allowed
beyond the one refused request.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.core.cache import cache
from playwright.sync_api import Page, expect

from results import services as result_services
from scoring.selectors import standings_for_event
from tests.e2e.conftest import PHONE
from tests.e2e.night import log_in
from tests.factories import EventFactory, UserFactory
from tournaments import services
from tournaments.models import Entry, Event, GameResult, Round, Table

pytestmark = pytest.mark.e2e

WINNERS = ("Anna Rossi", "Ștefan Pop")  # the team that wins every game
TEAMS = [
    ("Łucja Nowak", "Jürgen Weiß"),
    ("Niccolò Ferrà", "Zoë Lindqvist"),
    ("Dolores Ibáñez", "Tomás Ó Briain"),
    ("Ioana Năstase", "Margaret O'Brien"),
    ("Ann Whitfield", "Bob Ng"),
    ("Carla Diaz", "Dev Patel"),
]
BY_BROWSER = ("Mara Dinu", "Ion Popa")  # the second team the TD registers in the browser
TEAM = "Anna Rossi & Ștefan Pop"


def partners_night() -> Event:
    """A partners' event (Swiss, 3 games) with six teams registered, not checked in."""
    cache.clear()  # the per-key report throttle lives in the cache
    event = EventFactory(
        game="partners", pairing=Event.Pairing.SWISS, games_planned=3, name="Partners night"
    )
    event.club.directors.add(UserFactory(username="director"))
    for name, partner in TEAMS:
        services.register_team(event, name=name, partner_name=partner, checked_in=False)
    return event


def tables_of(event: Event, game: int) -> list[Table]:
    return list(
        Table.objects.filter(round__event=event, round__number=game, seat_b__isnull=False)
        .select_related("seat_a__player", "seat_a__partner", "seat_b__player", "seat_b__partner")
        .order_by("number")
    )


def register_in_browser(td: Page, name: str, partner: str) -> None:
    form = td.locator("#register-team")
    form.get_by_label("Player", exact=True).fill(name)
    form.get_by_label("Partner", exact=True).fill(partner)
    form.get_by_role("button", name="Add the team").click()


def key_result(td: Page, table: Table, winner: Entry, loser_score: int) -> None:
    """The TD keys one table on the game page: the winning team and the loser's score."""
    td.locator(f"label[for='t{table.pk}-w{winner.pk}']").click()
    td.locator(f"#t{table.pk}-loser_score").fill(str(loser_score))
    td.locator(f"#card-{table.pk}").get_by_role("button", name="Save").click()


def winner_of(table: Table, team: Entry, number: int) -> Entry:
    """The winning team wins its table; elsewhere seat A, seat B at every other table."""
    if team.pk in (table.seat_a_id, table.seat_b_id):
        return team
    return table.seat_a if number % 2 else table.seat_b


def test_a_partners_night_from_nothing_to_the_final_standings(
    open_page: Callable[[], Page], new_context, live_server, checks
):
    event = partners_night()
    td = open_page()
    log_in(td, f"/td/events/{event.pk}/")
    checks.a11y(td, "TD event page: a partners' event")
    expect(td.locator("#register")).to_have_count(0)  # no lone-player form

    # The TD registers two teams at the door; a third names a player already in a team.
    register_in_browser(td, *WINNERS)
    expect(td.get_by_role("cell", name=TEAM)).to_be_visible()
    register_in_browser(td, "Ștefan Pop", "Mara Dinu")
    form = td.locator("#register-team")
    expect(form).to_contain_text(f"Ștefan Pop already plays in this event: {TEAM}.")
    expect(form.get_by_label("Partner")).to_have_value("Mara Dinu")
    checks.console_errors.clear()  # the refusal is an HTTP 400 page, which Chromium logs
    checks.a11y(td, "TD event page: a team refused")
    register_in_browser(td, *BY_BROWSER)
    expect(td.get_by_role("cell", name="Mara Dinu & Ion Popa")).to_be_visible()
    assert event.entries.count() == 8
    assert Entry.objects.filter(event=event, partner__isnull=True).count() == 0

    # Everyone is here; game 1 is drawn as a draft, checked, then released.
    td.get_by_role("button", name="Check in all").click()
    expect(td.get_by_role("alert").filter(has_text="Checked in: 6.")).to_be_visible()
    td.get_by_role("button", name="as a draft").click()
    expect(td).to_have_url(re.compile(rf"/td/events/{event.pk}/games/1/$"))
    expect(td.locator(".table-card").filter(has_text=TEAM)).to_contain_text(re.compile(r"Table \d"))
    checks.a11y(td, "TD game page: a draft of four tables of two teams")
    td.get_by_role("button", name="Release to the players").click()
    expect(td.get_by_role("button", name="Release to the players")).to_have_count(0)
    assert Round.objects.get(event=event, number=1).status == Round.Status.RELEASED

    team = Entry.objects.get(event=event, player__name=WINNERS[0])
    tables = tables_of(event, 1)
    assert len(tables) == 4  # eight teams, two a table, no bye
    reported, keyed = tables[-1], tables[:-1]
    checks.a11y(td, "TD game page: four tables of two teams")

    # A mistake first: a loser cannot have 121. Refused beside the score, nothing written.
    first = keyed[0]
    key_result(td, first, winner_of(first, team, 1), 121)
    card = td.locator(f"#card-{first.pk}")
    expect(card.locator(".invalid-feedback")).to_be_visible()
    assert not GameResult.objects.filter(table=first).exists()
    for number, table in enumerate(keyed, start=1):
        key_result(td, table, winner_of(table, team, number), 90 + number)
        expect(td.locator(f"#card-{table.pk}")).to_contain_text("Saved.")

    # The last table reports from the players' links: a partner of seat A's team reports a
    # win, a partner of seat B's team confirms on a phone (the team shares one link).
    winner = winner_of(reported, team, 4)
    loser = reported.seat_b if winner.pk == reported.seat_a_id else reported.seat_a
    report = open_page()
    report.goto(f"/k/{result_services.key_for(winner).key}/")
    game_card = report.locator("#game-card")
    expect(game_card).to_contain_text(loser.name)
    form = game_card.locator("form.report-form")
    form.locator("label", has_text="I won").click()
    form.get_by_label("Loser's score").fill("100")
    form.get_by_role("button", name="Report the result").click()
    expect(game_card).to_contain_text("Reported: you won, 100.")
    phone_context = new_context(viewport=PHONE, base_url=live_server.url, locale="en")
    phone = checks.watch(phone_context.new_page())
    phone.goto(f"/k/{result_services.key_for(loser).key}/")
    expect(phone.locator("h1")).to_have_text(loser.name)  # both partners on their team's page
    expect(phone.locator("#game-card")).to_contain_text(
        f"{winner.name} reported: they won, you scored 100."
    )
    checks.a11y(phone, "partner's phone: confirm the other team's report")
    phone.get_by_role("button", name="Confirm this result").click()
    expect(phone.locator("#game-card")).to_contain_text("You lost by 21.")
    result = GameResult.objects.get(table=reported)
    assert (result.winner_id, result.loser_score) == (winner.pk, 100)

    # Games 2 and 3: drawn by the Swiss standings, keyed on the game page.
    for game in (2, 3):
        td.goto(f"/td/events/{event.pk}/")
        td.get_by_role("button", name=f"Draw game {game}").click()
        expect(td).to_have_url(re.compile(rf"/td/events/{event.pk}/games/{game}/$"))
        for number, table in enumerate(tables_of(event, game), start=1):
            key_result(td, table, winner_of(table, team, number), 100 + number)
            expect(td.locator(f"#card-{table.pk}")).to_contain_text("Saved.")
    assert GameResult.objects.filter(table__round__event=event).count() == 12

    # The night ends; the final standings lead with the team that won all three games.
    td.goto(f"/td/events/{event.pk}/")
    td.once("dialog", lambda dialog: dialog.accept())
    td.get_by_role("button", name="Finish event").click()
    expect(td.get_by_role("heading", name="Final standings")).to_be_visible()
    rows = list(standings_for_event(event.pk))
    top = rows[0]
    assert (top.entry_id, top.rank, top.games_won, top.game_points) == (team.pk, 1, 3, 6)
    won = GameResult.objects.filter(winner=team)
    assert top.spread == sum(121 - r.loser_score for r in won) > 0
    assert len(rows) == 8
    public = open_page()
    public.goto(f"/events/{event.pk}/")
    first_row = public.locator("table.standings tbody tr").first
    expect(first_row).to_contain_text(TEAM)
    expect(first_row.get_by_role("link", name="Ștefan Pop")).to_have_attribute(
        "href", f"/players/{team.partner_id}/"
    )
    checks.a11y(public, "public standings: teams")
    public.goto(f"/players/{team.partner_id}/")
    expect(public.locator("#partners")).to_be_visible()
    record = public.locator("#partner-record tbody tr")
    expect(record).to_have_count(1)
    expect(record.get_by_role("cell")).to_have_text(["Anna Rossi", "3", "3", "0", "1"])
    checks.a11y(public, "player page: with partners")
