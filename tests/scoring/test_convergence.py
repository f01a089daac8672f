"""Standings converge without a new result: every change bumps the event's results version,
each complete recompute records the version it read, and the sweep re-queues the rest."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from scoring import services as scoring_services
from scoring.models import StandingsStatus
from scoring.selectors import standings_for_event
from tests.factories import event_with_field
from tournaments import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_a_lost_recompute_is_found_and_sent_again_by_the_sweep(monkeypatch):
    event = event_with_field(4)
    round_ = services.draw_next_game(event)
    table = round_.tables.order_by("number").first()
    # The task is lost: nothing runs after the commit (a killed worker, a dropped message).
    monkeypatch.setattr(scoring_services, "send_recompute", lambda event_id: False)
    services.record_result(event, table=table, winner=table.seat_a, loser_score=88)
    event.refresh_from_db()
    assert event.results_version == 1  # the result (a draw without byes changes no standings)
    assert scoring_services.events_behind() == [event.pk]
    assert not standings_for_event(event.pk).exists()
    monkeypatch.undo()

    cache.clear()  # the lost run's queued flag would only delay the sweep by its TTL
    assert scoring_services.sweep_standings() == 1  # eager Celery: it ran
    assert scoring_services.events_behind() == []
    status = StandingsStatus.objects.get(event=event)
    assert status.version == Event.objects.get(pk=event.pk).results_version
    assert standings_for_event(event.pk).get(entry=table.seat_a).spread == 33
    assert scoring_services.sweep_standings() == 0  # nothing behind: nothing sent


def test_with_the_cache_and_the_broker_down_the_result_is_saved_and_nothing_raises(monkeypatch):
    event = event_with_field(2)
    table = services.draw_next_game(event).tables.get()

    def down(*args, **kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(cache, "add", down)
    monkeypatch.setattr("scoring.tasks.recompute_standings.apply_async", down)
    assert scoring_services.send_recompute(event.pk) is False  # logged, not raised
    services.record_result(event, table=table, winner=table.seat_b, loser_score=100)
    assert event.pk in scoring_services.events_behind()


@pytest.fixture
def runs_held(monkeypatch):
    """A 4-player event with its first game drawn, whose recompute runs are held, not run:
    the event, a table of it, and the list of the runs sent (the flags in a shared cache)."""
    event = event_with_field(4)
    table = services.draw_next_game(event).tables.order_by("number").first()
    monkeypatch.setattr("scoring.coalesce.flags_shared", lambda: True)
    sent: list = []
    monkeypatch.setattr(
        "scoring.tasks.recompute_standings.apply_async", lambda args, **kw: sent.append(args)
    )
    cache.clear()
    return event, table, sent


def test_a_worker_that_starts_sends_past_the_flag_a_killed_worker_left(
    runs_held, django_capture_on_commit_callbacks
):
    """A worker killed with a run queued leaves the event's queued flag behind; the beat's sweep
    honours it (no run until it expires, 30 s), the starting worker's sweep clears it."""
    event, table, sent = runs_held
    with django_capture_on_commit_callbacks(execute=True):
        services.record_result(event, table=table, winner=table.seat_a, loser_score=88)
    assert sent == [(event.pk,)]  # the run the killed worker took with it
    assert scoring_services.sweep_standings() == 0  # the flag holds the beat off
    assert scoring_services.sweep_standings(worker_started=True) == 1
    assert sent == [(event.pk,), (event.pk,)]


def test_a_recompute_is_pending_while_queued_and_until_the_standings_catch_up(
    runs_held, django_capture_on_commit_callbacks
):
    """What CI's smoke step waits on before it times a run of its own: a run the starting
    worker's sweep queued (with its gather countdown) would otherwise land in the middle."""
    event, table, sent = runs_held
    assert scoring_services.recompute_pending(event.pk) is False
    with django_capture_on_commit_callbacks(execute=True):
        services.record_result(event, table=table, winner=table.seat_a, loser_score=88)
    assert sent == [(event.pk,)]  # queued, not run: flagged and behind
    assert scoring_services.recompute_pending(event.pk) is True
    cache.clear()  # the run starts (clears its flag); the standings are still behind
    assert scoring_services.recompute_pending(event.pk) is True
    scoring_services.recompute_standings(event.pk)
    assert scoring_services.recompute_pending(event.pk) is False


def test_the_worker_start_signal_asks_for_the_fresh_sweep(monkeypatch):
    from scoring import tasks

    asked = []
    monkeypatch.setattr(tasks.sweep_standings, "delay", lambda **kw: asked.append(kw))
    tasks._catch_up_on_start()
    assert asked == [{"worker_started": True}]


def test_the_ratings_are_coalesced_as_the_standings_are(monkeypatch):
    """One sender for both jobs: while a club's run is queued further results ride on it; the
    run clears the flag as it starts; with the cache down every result sends."""
    from scoring import ratings

    monkeypatch.setattr("scoring.coalesce.flags_shared", lambda: True)
    sent = []
    monkeypatch.setattr(
        "scoring.tasks.update_ratings.apply_async", lambda args, **kw: sent.append(args)
    )
    cache.clear()
    assert ratings.send_update(7) is True and ratings.send_update(7) is False
    assert sent == [(7,)]
    ratings.clear_queued(7)
    assert ratings.send_update(7) is True and sent == [(7,), (7,)]

    def down(*args, **kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(cache, "add", down)
    assert ratings.send_update(7) is True and ratings.send_update(7) is True
    assert len(sent) == 4


def test_a_broker_that_is_down_drops_the_flag_so_the_next_result_sends(monkeypatch):
    from scoring import ratings

    monkeypatch.setattr("scoring.coalesce.flags_shared", lambda: True)
    cache.clear()

    def down(*args, **kwargs):
        raise ConnectionError("the broker is down")

    monkeypatch.setattr("scoring.tasks.update_ratings.apply_async", down)
    assert ratings.send_update(8) is False
    assert cache.get(ratings._queued_key(8)) is None
