"""Seasons and ledgers: Grass Roots points (12+ GP on a 9-game night), master points, special
hands, grand slams, lifetime totals, the nightly beat job and the season page."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.conf import settings

from core.errors import ServiceError
from scoring.models import MasterPoints, SeasonLedger, SpecialHand
from scoring.seasons import (
    create_season,
    default_dates,
    grass_roots_points,
    lifetime_totals,
    recompute_season,
)
from scoring.services import recompute_standings
from tests.factories import ClubFactory, EntryFactory, EventFactory, PlayerFactory, RoundFactory
from tournaments import services
from tournaments.models import Event, Table

pytestmark = pytest.mark.django_db
TABLE = {12: 3, 13: 6, 14: 11, 15: 19, 16: 27, 17: 39, 18: 53, 19: 69, 20: 87, 21: 107}


@pytest.mark.parametrize(
    ("gp", "games", "points"),
    [(11, 9, 0), (12, 9, 3), (13, 9, 6), (21, 9, 107), (27, 9, 107), (18, 12, 0)],
)
def test_grass_roots_points(gp, games, points):
    assert grass_roots_points(TABLE, gp, games) == points


def test_default_season_runs_september_to_may():
    assert default_dates(datetime.date(2026, 11, 22)) == (
        datetime.date(2026, 9, 1),
        datetime.date(2027, 5, 31),
    )
    assert default_dates(datetime.date(2027, 3, 1))[0] == datetime.date(2026, 9, 1)
    assert default_dates(datetime.date(2027, 7, 1))[0] == datetime.date(2027, 9, 1)


def night(club, date, hero, wins, losses, *, games=9, finish=True):
    """A night where ``hero`` wins ``wins`` games by 100 and loses ``losses`` by 21; finished
    (only a finished night counts for its season) unless told otherwise."""
    event = EventFactory(club=club, date=date, games_planned=games, status=Event.Status.RUNNING)
    me = EntryFactory(event=event, player=hero)
    for number in range(1, wins + losses + 1):
        round_ = RoundFactory(event=event, number=number)
        other = EntryFactory(event=event)
        table = Table.objects.create(round=round_, number=1, seat_a=me, seat_b=other)
        if number <= wins:
            services.record_result(event, table=table, winner=me, loser_score=100)
        else:
            services.record_result(event, table=table, winner=other, loser_score=100)
    if finish:
        services.finish_event(event)
    recompute_standings(event.pk)
    return event, me


def test_a_season_table_from_its_nights():
    club = ClubFactory()
    season = create_season(club, start=datetime.date(2026, 9, 1), end=datetime.date(2027, 5, 31))
    assert season.name == "2026-27" and season.grass_roots.count() == 10
    ann = PlayerFactory(name="Ann", home_club=club)
    first, ann_entry = night(club, datetime.date(2026, 10, 1), ann, 7, 2)  # 14 GP -> 11
    night(club, datetime.date(2026, 11, 1), ann, 5, 4)  # 10 GP -> nothing
    slam, _ = night(club, datetime.date(2026, 12, 1), ann, 9, 0)  # 18 GP -> 53, a grand slam
    night(club, datetime.date(2026, 6, 1), ann, 9, 0)  # before the season: not counted
    MasterPoints.objects.create(event=first, place=1, points=Decimal("2.50"))
    SpecialHand.objects.create(event=first, entry=ann_entry, points=29, game_number=3)
    SpecialHand.objects.create(event=slam, entry=slam.entries.get(player=ann), points=28)

    assert recompute_season(season.pk) > 1
    ledger = SeasonLedger.objects.get(season=season, player=ann)
    assert (ledger.rank, ledger.nights, ledger.qualifying_nights) == (1, 3, 2)
    assert ledger.grass_roots_points == 11 + 53
    assert ledger.master_points == Decimal("2.50")
    assert (ledger.games_played, ledger.games_won, ledger.game_points) == (27, 21, 42)
    assert (ledger.hands_28, ledger.hands_29, ledger.grand_slams) == (1, 1, 1)
    assert ledger.win_percentage == 77.8
    assert recompute_season(season.pk) == SeasonLedger.objects.filter(season=season).count()

    later = create_season(
        club, name="2027-28", start=datetime.date(2027, 9, 1), end=datetime.date(2028, 5, 31)
    )
    night(club, datetime.date(2027, 10, 1), ann, 6, 3)  # 12 GP -> 3
    recompute_season(later.pk)
    totals = lifetime_totals(ann.pk)
    assert (totals["seasons"], totals["grass_roots_points"], totals["nights"]) == (2, 67, 4)


def test_season_errors_are_named():
    club = ClubFactory()
    create_season(club, name="2026-27")
    with pytest.raises(ServiceError) as caught:
        create_season(club, name="2026-27")
    assert caught.value.code == "season_exists"
    with pytest.raises(ServiceError) as caught:
        create_season(
            club, name="x", start=datetime.date(2027, 1, 1), end=datetime.date(2026, 1, 1)
        )
    assert caught.value.code == "season_ends_before_start"


def test_nightly_beat_job_is_scheduled():
    job = settings.CELERY_BEAT_SCHEDULE["nightly-season-ledgers"]
    assert job["task"] == "scoring.recompute_seasons"
    from config.celery import app

    app.loader.import_default_modules()  # what a starting worker does: autodiscover tasks
    assert "scoring.recompute_seasons" in app.tasks
    assert settings.CELERY_BEAT_SCHEDULE["standings-sweep"]["task"] in app.tasks


def test_season_pages(client, td_user, django_capture_on_commit_callbacks):
    club = ClubFactory()
    season = create_season(club, name="2026-27")
    ann = PlayerFactory(name="Ștefan Țurcanu", home_club=club)
    night(club, season.start, ann, 8, 1)
    assert client.get("/seasons/").status_code == 200
    page = client.get(f"/seasons/{season.pk}/")
    assert page.status_code == 200 and "Not computed yet" in page.content.decode()
    club.directors.add(td_user)
    client.force_login(td_user)
    with django_capture_on_commit_callbacks(execute=True):  # queued on commit, eager Celery
        response = client.post(f"/seasons/{season.pk}/recompute/")
    assert response.status_code == 302 and "?since=" in response.url
    page = client.get(response.url)
    body = page.content.decode()
    assert "Ștefan Țurcanu" in body
    assert "recomputing" not in body, "computed already (eager): the page stops polling"
    waiting = client.get(f"/seasons/{season.pk}/?since=9999999999")
    assert "recomputing" in waiting.content.decode()
    other = ClubFactory()
    stranger_season = create_season(other, name="2026-27")
    assert client.post(f"/seasons/{stranger_season.pk}/recompute/").status_code == 404


def test_player_page_shows_lifetime_totals(client):
    club = ClubFactory()
    season = create_season(club, name="2026-27")
    ann = PlayerFactory(name="Zoë Lindqvist", home_club=club)
    night(club, season.start, ann, 7, 2)
    recompute_season(season.pk)
    page = client.get(f"/players/{ann.pk}/")
    body = page.content.decode()
    assert page.status_code == 200 and "Zoë Lindqvist" in body and "2026-27" in body
    assert client.get("/players/999999/").status_code == 404
