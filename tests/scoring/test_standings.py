"""Standings: the ACC chain (game points, games won, net spread) end to end through the task."""

from __future__ import annotations

import pytest

from scoring.selectors import standings_for_event
from tests.factories import EntryFactory, EventFactory, RoundFactory
from tournaments import services
from tournaments.models import Event, Table

pytestmark = pytest.mark.django_db

# The ACC's worked example: each player's losers' scores in the games they won, and their
# margins in the games they lost.
ANN = ([100, 95, 88, 110, 119, 105], [23, 20, 6])
CAL = ([96, 101, 90, 111, 118, 114], [41, 12, 8])
BOB = ([50, 60, 85, 117, 112], [5, 3, 2, 10])


def seat_and_play(event, hero, record, number_of_games=9):
    """Give ``hero`` nine games against fresh opponents with the results of ``record``."""
    wins, losses = record
    games = [("win", s) for s in wins] + [("loss", m) for m in losses]
    assert len(games) == number_of_games
    for number, (kind, value) in enumerate(games, start=1):
        round_ = event.rounds.filter(number=number).first() or RoundFactory(
            event=event, number=number
        )
        opponent = EntryFactory(event=event)
        table = Table.objects.create(
            round=round_, number=round_.tables.count() + 1, seat_a=hero, seat_b=opponent
        )
        if kind == "win":
            services.record_result(event, table=table, winner=hero, loser_score=value)
        else:
            services.record_result(event, table=table, winner=opponent, loser_score=121 - value)


def test_ann_cal_bob_ranked_by_games_won_before_spread(django_capture_on_commit_callbacks):
    event = EventFactory(status=Event.Status.RUNNING)
    ann, cal, bob = (EntryFactory(event=event, player__name=n) for n in ("Ann", "Cal", "Bob"))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        seat_and_play(event, ann, ANN)
        seat_and_play(event, cal, CAL)
        seat_and_play(event, bob, BOB)
    # One standings job for the whole transaction, run by the (eager) Celery task on commit.
    assert len(callbacks) == 1

    rows = {
        s.entry.player.name: s
        for s in standings_for_event(event.pk).select_related("entry__player")
    }
    assert len(rows) == 3 + 27
    line = lambda name: (rows[name].game_points, rows[name].games_won, rows[name].spread)  # noqa: E731
    assert line("Ann") == (13, 6, 60)
    assert line("Cal") == (13, 6, 35)
    assert line("Bob") == (13, 5, 161)
    assert [rows[n].rank for n in ("Ann", "Cal", "Bob")] == [1, 2, 3]
    assert rows["Bob"].skunks_won == 3
    assert rows["Ann"].games_played == 9 and rows["Ann"].games_lost == 3
    assert rows["Ann"].after_game == 9


def test_ties_share_a_rank_and_are_marked(django_capture_on_commit_callbacks):
    event = EventFactory(status=Event.Status.RUNNING)
    a, b, c, d = EntryFactory.create_batch(4, event=event)
    round_ = RoundFactory(event=event, number=1)
    t1 = Table.objects.create(round=round_, number=1, seat_a=a, seat_b=b)
    t2 = Table.objects.create(round=round_, number=2, seat_a=c, seat_b=d)
    with django_capture_on_commit_callbacks(execute=True):
        services.record_result(event, table=t1, winner=a, loser_score=100)
        services.record_result(event, table=t2, winner=c, loser_score=100)
    ranks = dict(standings_for_event(event.pk).values_list("entry_id", "rank"))
    tied = dict(standings_for_event(event.pk).values_list("entry_id", "tied"))
    assert ranks[a.pk] == ranks[c.pk] == 1 and tied[a.pk] and tied[c.pk]
    assert ranks[b.pk] == ranks[d.pk] == 3


def test_recompute_is_idempotent_and_keeps_withdrawn_players(django_capture_on_commit_callbacks):
    from scoring.services import recompute_standings

    event = EventFactory(status=Event.Status.RUNNING)
    a, b = EntryFactory.create_batch(2, event=event)
    table = Table.objects.create(
        round=RoundFactory(event=event, number=1), number=1, seat_a=a, seat_b=b
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.record_result(event, table=table, winner=b, loser_score=70)
        services.withdraw_entry(b)
    first = list(
        standings_for_event(event.pk).values_list("entry_id", "rank", "game_points", "spread")
    )
    assert recompute_standings(event.pk) == 0, "nothing changed: nothing rewritten"
    again = list(
        standings_for_event(event.pk).values_list("entry_id", "rank", "game_points", "spread")
    )
    assert first == again == [(b.pk, 1, 3, 51), (a.pk, 2, 0, -51)]


def test_recompute_of_a_deleted_event_is_harmless():
    from scoring.services import recompute_standings

    assert recompute_standings(987654) == 0


@pytest.mark.django_db(transaction=True)
def test_runs_coalesce_while_one_is_queued():
    """Real commits (no test transaction around them), eager tasks run on commit."""
    from django.core.cache import cache

    from scoring.services import _queued_key, recompute_standings

    event = EventFactory(status=Event.Status.RUNNING)
    a, b, c, d = EntryFactory.create_batch(4, event=event)
    round_ = RoundFactory(event=event, number=1)
    t1 = Table.objects.create(round=round_, number=1, seat_a=a, seat_b=b)
    t2 = Table.objects.create(round=round_, number=2, seat_a=c, seat_b=d)
    cache.add(_queued_key(event.pk), 1)  # a run is queued and has not started yet
    services.record_result(event, table=t1, winner=a, loser_score=100)
    assert not standings_for_event(event.pk).filter(game_points__gt=0).exists(), (
        "rides on the queued run"
    )
    recompute_standings(event.pk)  # the queued run starts: it sees the committed result
    assert standings_for_event(event.pk).get(entry=a).game_points == 2
    services.record_result(event, table=t2, winner=d, loser_score=50)
    assert standings_for_event(event.pk).get(entry=d).game_points == 3, (
        "a result after the start runs again"
    )
    assert cache.get(_queued_key(event.pk)) is None


def test_event_chain_with_head_to_head_explains_the_order(django_capture_on_commit_callbacks):
    event = EventFactory(
        status=Event.Status.RUNNING, tiebreakers=["game_points", "head_to_head", "spread"]
    )
    a, b, c = EntryFactory.create_batch(3, event=event)
    r1 = RoundFactory(event=event, number=1)
    r2 = RoundFactory(event=event, number=2)
    games = [(r1, a, b, b, 120), (r2, a, c, a, 30)]
    with django_capture_on_commit_callbacks(execute=True):
        for i, (round_, x, y, winner, loser_score) in enumerate(games, start=1):
            table = Table.objects.create(round=round_, number=i, seat_a=x, seat_b=y)
            services.record_result(event, table=table, winner=winner, loser_score=loser_score)
    rows = {s.entry_id: s for s in standings_for_event(event.pk)}
    # a: 3 GP (+91 -1), b: 2 GP. a ahead on points; c last.
    assert (rows[a.pk].rank, rows[b.pk].rank, rows[c.pk].rank) == (1, 2, 3)
    event.tiebreakers = ["games_won", "head_to_head", "spread"]
    event.save()
    from scoring.services import recompute_standings

    recompute_standings(event.pk)
    rows = {s.entry_id: s for s in standings_for_event(event.pk)}
    # a and b both won once; b beat a head to head although a's spread is far better.
    assert (rows[b.pk].rank, rows[a.pk].rank) == (1, 2)
    assert rows[a.pk].separated_by == "head_to_head"
    assert "head-to-head" in rows[a.pk].explanation
