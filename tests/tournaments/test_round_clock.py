"""The round clock (issue 28): start, pause, resume, add minutes, stop, and a game called at
time, each at a given ``now`` (never the wall clock), audited in the event's chain."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from core.errors import ServiceError
from tests.factories import event_with_field
from tournaments import services
from tournaments.audit_chain import verify_chain
from tournaments.clock import clock_of, public_clock, unfinished_tables
from tournaments.error_codes import TournamentsError
from tournaments.models import AuditEntry, Club, GameResult, Round
from tournaments.services import clock as clock_services
from tournaments.templatetags.pegboard import audit_action, audit_value

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 27, 19, 30, tzinfo=UTC)
Clock = Round.Clock


@pytest.fixture
def game(td_user):
    event = event_with_field(6, name="Clock night")
    event.club.directors.add(td_user)
    return services.draw_next_game(event)


def at(minutes: float = 0, seconds: float = 0) -> datetime:
    return T0 + timedelta(minutes=minutes, seconds=seconds)


def test_a_clock_counts_down_from_the_club_s_minutes_and_reads_time_at_its_end(game):
    assert clock_of(game, T0).state == Clock.OFF
    started = clock_services.start_clock(game, now=T0)
    assert (started.clock_state, started.clock_minutes) == (Clock.RUNNING, 15)
    assert started.clock_ends_at == at(15)
    reading = clock_of(started, at(2, 30))
    assert (reading.state, reading.seconds_left, reading.left) == (Clock.RUNNING, 750, "12:30")
    assert reading.ends_iso == "2026-11-27T19:45:00.000Z"
    assert reading.now_iso == "2026-11-27T19:32:30.000Z"
    done = clock_of(started, at(15))
    assert (done.state, done.seconds_left) == (Clock.TIME, 0)
    # Nothing is written when time runs out: the stored state is still "running".
    started.refresh_from_db()
    assert started.clock_state == Clock.RUNNING


def test_pause_keeps_the_time_left_and_resume_runs_it_again(game):
    clock_services.start_clock(game, minutes=10, now=T0)
    paused = clock_services.pause_clock(game, now=at(4))
    assert (paused.clock_state, paused.clock_left, paused.clock_ends_at) == (
        Clock.PAUSED,
        360,
        None,
    )
    # However long the pause, the clock stands still.
    assert clock_of(paused, at(30)).left == "6:00"
    resumed = clock_services.resume_clock(game, now=at(30))
    assert resumed.clock_ends_at == at(36)
    assert clock_of(resumed, at(35)).left == "1:00"


def test_minutes_added_to_a_running_a_paused_and_a_clock_at_time(game):
    clock_services.start_clock(game, minutes=10, now=T0)
    running = clock_services.extend_clock(game, 5, now=at(1))
    assert (running.clock_ends_at, running.clock_minutes) == (at(15), 15)
    clock_services.pause_clock(game, now=at(5))
    paused = clock_services.extend_clock(game, 2, now=at(6))
    assert (paused.clock_left, paused.clock_minutes) == (720, 17)
    clock_services.resume_clock(game, now=at(6))  # ends at 18
    late = clock_services.extend_clock(game, 3, now=at(20))  # at time: 3 more from now
    assert late.clock_ends_at == at(23)
    assert clock_of(late, at(20)).state == Clock.RUNNING


def test_stop_turns_the_clock_off_and_it_can_start_again(game):
    clock_services.start_clock(game, minutes=10, now=T0)
    stopped = clock_services.stop_clock(game, now=at(3))
    assert clock_of(stopped, at(3)).state == Clock.STOPPED
    again = clock_services.start_clock(game, minutes=1, now=at(4))
    assert again.clock_ends_at == at(5)


@pytest.mark.parametrize(
    ("act", "code"),
    [
        (lambda g: clock_services.pause_clock(g, now=T0), TournamentsError.CLOCK_NOT_RUNNING),
        (lambda g: clock_services.resume_clock(g, now=T0), TournamentsError.CLOCK_NOT_PAUSED),
        (lambda g: clock_services.extend_clock(g, 5, now=T0), TournamentsError.CLOCK_NOT_RUNNING),
        (lambda g: clock_services.stop_clock(g, now=T0), TournamentsError.CLOCK_NOT_RUNNING),
        (lambda g: clock_services.start_clock(g, minutes=0, now=T0), TournamentsError.BAD_MINUTES),
        (
            lambda g: clock_services.start_clock(g, minutes=181, now=T0),
            TournamentsError.BAD_MINUTES,
        ),
    ],
)
def test_an_action_the_clock_s_state_does_not_allow_is_refused_with_its_code(game, act, code):
    with pytest.raises(ServiceError) as refused:
        act(game)
    assert refused.value.code == code
    game.refresh_from_db()
    assert game.clock_state == Clock.OFF


def test_a_second_start_and_a_pause_at_time_are_refused(game):
    clock_services.start_clock(game, minutes=1, now=T0)
    with pytest.raises(ServiceError) as twice:
        clock_services.start_clock(game, now=T0)
    assert twice.value.code == TournamentsError.CLOCK_RUNNING
    with pytest.raises(ServiceError) as late:
        clock_services.pause_clock(game, now=at(2))  # at time: nothing left to pause
    assert late.value.code == TournamentsError.CLOCK_NOT_RUNNING


def test_every_clock_action_is_audited_in_the_chain_in_words(game, td_user):
    clock_services.start_clock(game, minutes=15, user=td_user, now=T0)
    clock_services.pause_clock(game, user=td_user, now=at(2, 30))
    clock_services.resume_clock(game, user=td_user, now=at(3))
    clock_services.extend_clock(game, 5, user=td_user, now=at(4))
    clock_services.stop_clock(game, user=td_user, now=at(5))
    rows = list(AuditEntry.objects.filter(event=game.event).order_by("pk"))
    assert [r.action for r in rows] == [
        "clock_started",
        "clock_paused",
        "clock_resumed",
        "clock_extended",
        "clock_stopped",
    ]
    assert {r.actor for r in rows} == {"director"}
    assert rows[0].new == {"game": 1, "minutes": 15}
    assert rows[1].new == {"game": 1, "left": "12:30"}
    assert audit_value(rows[1].new) == "Game 1: 12:30 left"
    assert audit_value(rows[0].new) == "Game 1: 15 minutes"
    assert audit_action("clock_extended") == "minutes added to the clock"
    assert verify_chain(game.event).intact


def test_a_game_not_finished_in_time_is_called_through_the_audited_result_path(game, td_user):
    first, second, *_ = unfinished_tables(game)
    services.record_result(game.event, table=second, winner=second.seat_a, loser_score=100)
    assert [t.pk for t in unfinished_tables(game)] == [first.pk, *[t.pk for t in _]]
    clock_services.start_clock(game, minutes=15, now=T0)
    with pytest.raises(ServiceError) as early:
        clock_services.call_at_time(
            game.event, table=first, winner=first.seat_b, loser_score=96, now=at(10)
        )
    assert early.value.code == TournamentsError.CLOCK_NOT_UP
    result = clock_services.call_at_time(
        game.event, table=first, winner=first.seat_b, loser_score=96, user=td_user, now=at(16)
    )
    assert (result.winner_id, result.loser_score, result.kind) == (
        first.seat_b_id,
        96,
        GameResult.Kind.PLAYED,
    )
    row = AuditEntry.objects.filter(event=game.event, table=first).get()
    assert row.action == "called_at_time"
    assert row.reason == "Called at time: Finish the hand in play; the player ahead wins"
    with pytest.raises(ServiceError) as again:
        clock_services.call_at_time(
            game.event, table=first, winner=first.seat_a, loser_score=90, now=at(17)
        )
    assert again.value.code == TournamentsError.TABLE_FINISHED
    assert GameResult.objects.get(table=first).winner_id == first.seat_b_id


def test_a_loss_for_both_is_not_recorded_as_one_winner(game):
    clock_services.set_clock_rule(game.event.club, minutes=20, at_time=Club.AtTime.LOSS_FOR_BOTH)
    assert clock_services.start_clock(game, now=T0).clock_minutes == 20
    table = unfinished_tables(game).first()
    with pytest.raises(ServiceError) as refused:
        clock_services.call_at_time(
            game.event, table=table, winner=table.seat_a, loser_score=90, now=at(21)
        )
    assert refused.value.code == TournamentsError.AT_TIME_BY_HAND
    with pytest.raises(ServiceError) as bad:
        clock_services.set_clock_rule(game.event.club, minutes=20, at_time="coin_toss")
    assert bad.value.code == TournamentsError.BAD_AT_TIME


def test_the_hall_clock_is_the_latest_released_game_s(game):
    clock_services.start_clock(game, minutes=15, now=T0)
    assert public_clock(game.event, at(1)).left == "14:00"
    for table in unfinished_tables(game):
        services.record_result(game.event, table=table, winner=table.seat_a, loser_score=90)
    services.draw_next_game(game.event, draft=True)  # a draft is not the hall's game
    assert public_clock(game.event, at(1)).game == 1


def test_the_pages_show_the_clock_and_the_end_time_without_javascript(client, td_client, game):
    clock_services.start_clock(game, minutes=15)
    event = game.event
    td_page = td_client.get(reverse("td-game", args=[event.pk, 1])).content.decode()
    assert 'id="td-clock"' in td_page and 'name="action" value="pause"' in td_page
    assert "js/clock.js" in td_page
    hall = client.get(reverse("event-clock", args=[event.pk])).content.decode()
    assert "data-clock-ends=" in hall and "data-clock-now=" in hall
    assert "ends at" in hall  # what a browser without JavaScript shows
    projector = client.get(reverse("event-projector", args=[event.pk])).content.decode()
    assert 'id="hall-clock"' in projector and "js/clock.js" in projector


def test_the_round_clock_runs_on_a_stoppa_session_and_lists_its_open_tables_at_time(
    client, td_user
):
    """A Stoppa night has the clock panel on its session page, as a cribbage game has; a
    clock action without JS lands back on the session page, and at time the panel lists the
    tables still without nets, with their players."""
    from results import services as result_services
    from tests.factories import stoppa_event_with_field
    from tournaments.stoppa import services as services_stoppa

    event = stoppa_event_with_field(7, names=["Nicolò Bianchi", "Zoë Weiß"])
    event.club.directors.add(td_user)
    round_ = services.draw_next_game(event)
    client.force_login(td_user)
    page_url = reverse("td-session", args=[event.pk, 1])
    page = client.get(page_url).content.decode()
    assert 'id="td-clock"' in page and "Start the clock" in page and "js/clock.js" in page
    clock_url = reverse("td-clock", args=[event.pk, 1])
    started = client.post(clock_url, {"action": "start", "minutes": "40"}, HTTP_HX_REQUEST="true")
    assert started.status_code == 200 and "Pause" in started.content.decode()
    assert clock_of(Round.objects.get(pk=round_.pk)).minutes == 40
    # The clock speaks the kind's words here, on the projector and on a player's page.
    face = '<span class="round-clock-game">Session 1</span>'
    assert face in started.content.decode() and "Game 1" not in started.content.decode()
    projector = client.get(reverse("event-projector", args=[event.pk])).content.decode()
    assert face in projector and 'aria-label="Clock: Session 1"' in projector
    seat = round_.stoppa_tables.filter(number=1).get().seats.first()
    link = reverse("player-page", args=[result_services.key_for(seat.entry).key])
    assert face in client.get(link).content.decode()
    paused = client.post(clock_url, {"action": "pause"})
    assert paused.status_code == 302 and paused.url == page_url
    refused = client.post(clock_url, {"action": "pause"}, follow=True)  # not running
    assert refused.redirect_chain == [(page_url, 302)]
    assert "not running" in refused.content.decode()

    clock_services.stop_clock(round_)
    clock_services.start_clock(round_, minutes=1, now=datetime.now(UTC) - timedelta(minutes=2))
    first, second = round_.stoppa_tables.filter(number__isnull=False).order_by("number")
    members = list(first.seats.values_list("entry_id", flat=True))
    nets = {pk: 0 for pk in members}
    services_stoppa.record_session_nets(event, table=first, nets=nets)
    panel = client.get(clock_url).content.decode()
    assert "Time: 1 table not finished" in panel and "Key each table's result" in panel
    assert f'id="at-time-{first.number}"' not in panel
    names = second.seats.order_by("position").values_list("entry__player__name", flat=True)
    assert ", ".join(names) in panel
