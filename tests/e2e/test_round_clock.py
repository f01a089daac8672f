"""The round clock in a browser (issue 28): the TD starts game 1's clock from the game page;
the hall's projector and a player's private page count down and show "Time" when it runs
out; the TD's page then lists the unfinished tables with the club's rule, and one is recorded
as called at time.

The clock the TD starts runs a minute; the test then sets one that ends a few seconds later
through the service (a real, short clock: the pages' polls fetch the server's time, which a
faked browser clock would contradict).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from results import services as result_services
from tests.e2e.night import club_night, log_in, played_tables
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, GameResult
from tournaments.services import clock as clock_services

pytestmark = pytest.mark.e2e


def test_the_clock_runs_out_on_the_projector_and_the_td_calls_the_games(
    open_page: Callable[[], Page], checks, viewport
):
    event = club_night(8)
    tables = played_tables(event)
    for table in tables[:2]:  # two games finish in time, two do not
        tournament_services.record_result(
            event, table=table, winner=table.seat_a, loser_score=90 + table.number
        )
    unfinished = tables[2:]

    td = open_page()
    game_page = f"/td/events/{event.pk}/games/1/"
    log_in(td, game_page)
    panel = td.locator("#td-clock")
    panel.get_by_label("Minutes", exact=True).fill("1")
    panel.get_by_role("button", name="Start the clock").click()
    expect(panel.get_by_role("button", name="Pause")).to_be_visible()
    expect(panel.locator(".round-clock-time")).to_have_text(re.compile(r"^(1:00|0:5\d)$"))
    checks.a11y(td, "TD game page, clock running")
    # A bad number in "Minutes to add" does not hold up Pause (the browser checks the
    # minutes for "Add minutes" only).
    panel.get_by_label("Minutes to add").fill("0")
    panel.get_by_role("button", name="Pause").click()
    expect(panel.get_by_role("button", name="Resume")).to_be_visible()
    panel.get_by_role("button", name="Resume").click()
    expect(panel.get_by_role("button", name="Pause")).to_be_visible()

    # A minute is long for a test: the clock is set to end in a few seconds.
    round_ = event.rounds.get(number=1)
    clock_services.stop_clock(round_)
    clock_services.start_clock(round_, minutes=1, now=timezone.now() - timedelta(seconds=48))

    hall = open_page()
    hall.goto(f"/events/{event.pk}/projector/")
    face = hall.locator("#hall-clock .round-clock-time")
    expect(face).to_have_text(re.compile(r"^0:[01]\d$"))
    checks.a11y(hall, "projector, clock counting down")
    expect(face).to_have_text("Time")

    player = open_page()
    key = result_services.key_for(unfinished[0].seat_a).key
    player.goto(f"/k/{key}/")
    expect(player.locator("#hall-clock")).to_contain_text("Time")
    checks.a11y(player, "player page at time")

    # The TD's panel turns to the unfinished tables (its poll, or the countdown reaching 0).
    at_time = td.locator("#at-time")
    expect(at_time).to_contain_text("Time: 2 tables not finished")
    expect(at_time).to_contain_text("Finish the hand in play; the player ahead wins")
    checks.a11y(td, "TD game page at time")

    table = unfinished[0]
    row = td.locator(f"#at-time-{table.number}")
    row.get_by_label(f"{table.seat_b.player.name} wins").check()
    row.get_by_label("Loser's score").fill("97")
    row.get_by_role("button", name="Record as called at time").click()
    expect(td.locator("#at-time")).to_contain_text("Time: 1 table not finished")
    expect(td.locator(f"#at-time-{table.number}")).to_have_count(0)
    result = GameResult.objects.get(table=table)
    assert (result.winner_id, result.loser_score) == (table.seat_b_id, 97)
    assert AuditEntry.objects.get(event=event, table=table).action == "called_at_time"


def test_a_device_with_a_wrong_clock_counts_the_hall_s_time_and_sees_a_pause(
    open_page: Callable[[], Page], checks, viewport
):
    """A phone two hours fast still counts down from the server's time; the TD's pause
    reaches the projector by its poll."""
    event = club_night(4)
    round_ = event.rounds.get(number=1)
    clock_services.start_clock(round_, minutes=10)

    hall = open_page()
    hall.clock.install(time=timezone.now() + timedelta(hours=2))
    hall.goto(f"/events/{event.pk}/projector/")
    face = hall.locator("#hall-clock .round-clock-time")
    expect(face).to_have_text(re.compile(r"^(10:00|9:[45]\d)$"))

    clock_services.pause_clock(round_)
    expect(hall.locator("#hall-clock")).to_contain_text("paused")
    checks.a11y(hall, "projector, clock paused")
