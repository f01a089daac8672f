"""Standings: the ACC chain (game points, games won, net spread) end to end through the task."""

from __future__ import annotations

import pytest

from scoring.models import Standing
from tests.factories import EntryFactory, EventFactory, RoundFactory
from tournaments import services
from tournaments.models import Event, Table

pytestmark = pytest.mark.django_db

# spec/acc.md: losers' scores for wins, margins for losses.
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
        for s in Standing.objects.filter(event=event).select_related("entry__player")
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
    ranks = dict(Standing.objects.filter(event=event).values_list("entry_id", "rank"))
    tied = dict(Standing.objects.filter(event=event).values_list("entry_id", "tied"))
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
        Standing.objects.filter(event=event).values_list(
            "entry_id", "rank", "game_points", "spread"
        )
    )
    assert recompute_standings(event.pk) == 2
    again = list(
        Standing.objects.filter(event=event).values_list(
            "entry_id", "rank", "game_points", "spread"
        )
    )
    assert first == again == [(b.pk, 1, 3, 51), (a.pk, 2, 0, -51)]


def test_recompute_of_a_deleted_event_is_harmless():
    from scoring.services import recompute_standings

    assert recompute_standings(987654) == 0
