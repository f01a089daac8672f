"""A league match played in the browser (issue 28): two teams of a club, a match of 5 legs
(3 doubles, 2 singles). The TD draws the fixture, keys the 5 legs by keyboard (one refused
with the error beside its field, then corrected), and the public league table shows the
real figures. At a phone's size and a laptop's, checked with axe-core."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.night import log_in
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.leagues import services
from tournaments.leagues.models import Leg

DASH = "\u2013"  # the en dash the pages put between two figures
pytestmark = pytest.mark.e2e

LARKS = ["Zoë Lindqvist", "Niccolò Ferrà", "Jürgen Weiß", "Ștefan Țurcanu", "Dolores Ibáñez",
         "Łucja Wąs", "Ann Whitfield", "Bob Ng"]  # fmt: skip
HAWKS = ["Cai Hughes", "Dee Moss", "Eve Park", "Fay Lund", "Gus Roe", "Hal Ito", "Ivy Shaw",
         "Jo Kerr"]  # fmt: skip
# (home players, away players, winner, loser's score), legs 1 to 5 in order.
LEGS = [
    (LARKS[0:2], HAWKS[0:2], "Ledbury Larks", 100),
    (LARKS[2:4], HAWKS[2:4], "Hereford Hawks", 85),
    (LARKS[4:6], HAWKS[4:6], "Ledbury Larks", 60),
    (LARKS[6:7], HAWKS[6:7], "Ledbury Larks", 119),
    (LARKS[7:8], HAWKS[7:8], "Hereford Hawks", 110),
]


def two_team_league():
    """A club, its TD, a league of 3 doubles and 2 singles legs, two teams of 8."""
    club = ClubFactory(name="Peg City")
    club.directors.add(UserFactory(username="director"))
    league = services.create_league(
        club,
        name="Winter league",
        season_start=datetime.date(2026, 9, 1),
        season_end=datetime.date(2027, 5, 31),
        leg_kinds=["doubles"] * 3 + ["singles"] * 2,
    )
    for name, players in (("Ledbury Larks", LARKS), ("Hereford Hawks", HAWKS)):
        ids = [PlayerFactory(name=n, home_club=club).pk for n in players]
        services.save_team(league, name=name, player_ids=ids)
    return league


def key_leg(page: Page, home: list[str], away: list[str], winner: str, loser_score: int):
    """Fill one leg by keyboard: each select chosen, the score typed, Enter to send."""
    page.get_by_label("Ledbury Larks: player", exact=True).select_option(label=home[0])
    page.get_by_label("Ledbury Larks: partner (doubles)").select_option(
        label=home[1] if len(home) > 1 else "—"
    )
    page.get_by_label("Hereford Hawks: player", exact=True).select_option(label=away[0])
    page.get_by_label("Hereford Hawks: partner (doubles)").select_option(
        label=away[1] if len(away) > 1 else "—"
    )
    page.get_by_label("Winner").select_option(label=winner)
    score = page.get_by_label("Loser's score")
    score.fill("")
    score.press_sequentially(str(loser_score))
    score.press("Enter")


def expect_a_400(page: Page, checks) -> None:
    """A refused form answers HTTP 400, which Chromium may log: that one only, then clear."""
    page.wait_for_timeout(200)
    assert all("status of 400" in error for error in checks.console_errors), checks.console_errors
    checks.console_errors.clear()


def test_a_league_match_of_five_legs_keyed_by_the_td(open_page: Callable[[], Page], checks):
    league = two_team_league()
    td = open_page()
    log_in(td, f"/td/leagues/{league.pk}/")
    td.get_by_role("button", name="Draw the fixtures (round robin)").click()
    expect(td.get_by_role("alert")).to_contain_text("1 fixtures drawn.")
    checks.a11y(td, "TD league page")
    td.get_by_role("link", name="Ledbury Larks v Hereford Hawks").click()
    expect(td).to_have_url(re.compile(rf"/td/leagues/{league.pk}/matches/\d+/$"))
    expect(td.get_by_label("Leg", exact=True)).to_have_value("1")

    # Leg 1 is doubles: the Larks' partner left out is refused beside the field.
    home, away, winner, loser_score = LEGS[0]
    key_leg(td, home[:1], away, winner, loser_score)
    expect(td.locator("#leg-form .invalid-feedback")).to_have_text(
        "Ledbury Larks needs 2 players in this leg."
    )
    expect_a_400(td, checks)
    checks.a11y(td, "TD match page: a leg refused")
    assert not Leg.objects.exists()
    # Corrected: the rest of the form kept what was keyed; the partner is added.
    expect(td.get_by_label("Loser's score")).to_have_value("100")
    td.get_by_label("Ledbury Larks: partner (doubles)").select_option(label=home[1])
    td.get_by_label("Loser's score").press("Enter")
    expect(td.get_by_role("alert")).to_contain_text("Leg 1 recorded.")

    for number, (home, away, winner, loser_score) in enumerate(LEGS[1:], start=2):
        expect(td.get_by_label("Leg", exact=True)).to_have_value(str(number))
        key_leg(td, home, away, winner, loser_score)
        expect(td.get_by_role("alert")).to_contain_text(f"Leg {number} recorded.")
    score = td.locator("#match-score")
    expect(score).to_contain_text(
        f"Ledbury Larks 3{DASH}2 Hereford Hawks on legs; game points 558{DASH}521."
    )
    expect(score).to_contain_text("Ledbury Larks win the match.")
    expect(td.locator("#leg-3")).to_contain_text("Dolores Ibáñez & Łucja Wąs")
    expect(td.locator("#leg-3")).to_contain_text("double skunk")
    checks.a11y(td, "TD match page: five legs in")

    # The public league table, as anyone sees it.
    public = open_page()
    public.goto("/leagues/")
    public.get_by_role("link", name=re.compile("Winter league")).click()
    rows = public.locator("#league-table tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator("th")).to_have_text("Ledbury Larks")
    expect(rows.nth(0).locator("td")).to_have_text(
        ["1", "1", "1", "0", "0", f"3{DASH}2", "+37", "2"]
    )
    expect(rows.nth(1).locator("th")).to_have_text("Hereford Hawks")
    expect(rows.nth(1).locator("td")).to_have_text(
        ["2", "1", "0", "0", "1", f"2{DASH}3", "-37", "0"]
    )
    checks.a11y(public, "public league table")
    public.get_by_role("link", name="Ledbury Larks v Hereford Hawks").click()
    expect(public.locator("#leg-1")).to_contain_text("Zoë Lindqvist & Niccolò Ferrà")
    expect(public.locator("#match-score")).to_contain_text("Ledbury Larks win the match.")
    checks.a11y(public, "public match page")
