"""Each night of a season says why it gave its Grass Roots points; nights of another length
than the table's give none and say so; running nights and nights the TD marked as not counting
stay out of the season, listed with the reason; the wording of the table says what it means."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from scoring.models import MasterPoints, SeasonLedger, SeasonNight
from scoring.seasons import create_season, recompute_season
from tests.factories import ClubFactory, PlayerFactory
from tests.scoring.test_seasons import night
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db
OCT = datetime.date(2026, 10, 6)


@pytest.fixture
def club(td_user):
    club = ClubFactory(name="Peg City")
    club.directors.add(td_user)
    return club


@pytest.fixture
def season(club):
    return create_season(club, start=datetime.date(2026, 9, 1), end=datetime.date(2027, 5, 31))


def test_each_night_says_why_it_earned_what_it_earned(client, club, season):
    ann = PlayerFactory(name="Ann Whitfield", home_club=club)
    nine, _ = night(club, OCT, ann, 7, 2)  # 14 game points on a 9-game night: row 14 -> 11
    short, _ = night(club, OCT + datetime.timedelta(days=7), ann, 3, 0, games=3)  # 6 GP, 3 games
    low, _ = night(club, OCT + datetime.timedelta(days=14), ann, 5, 4)  # 10 GP: under row 12
    MasterPoints.objects.create(event=nine, place=1, points=Decimal("2.50"))
    recompute_season(season.pk)

    lines = {n.event_id: n for n in SeasonNight.objects.filter(season=season, player=ann)}
    assert (lines[nine.pk].why, lines[nine.pk].row, lines[nine.pk].grass_roots_points) == (
        "row",
        14,
        11,
    )
    assert (lines[short.pk].why, lines[short.pk].games) == ("night_length", 3)
    assert lines[low.pk].why == "below_table"
    assert SeasonLedger.objects.get(season=season, player=ann).grass_roots_points == 11

    body = client.get(reverse("season", args=[season.pk])).content.decode()
    assert (
        "place 1 of 10 · 14 game points: the table&#x27;s row for 14 game points gives 11 points"
        " · 2.5 master points for place 1"
    ) in body
    assert (
        "a night of 3 games; the Grass Roots table is for nights of 9 games, so it gives no "
        "Grass Roots points"
    ) in body
    assert "10 game points, fewer than the table&#x27;s first row: no Grass Roots points" in body
    assert "Ann Whitfield: 3 nights" in body


def test_a_club_of_three_game_nights_sets_its_table_for_them(td_client, club, season):
    ann = PlayerFactory(name="Ann Whitfield", home_club=club)
    night(club, OCT, ann, 3, 0, games=3)  # 6 game points
    url = reverse("td-season", args=[season.pk])
    dates = {"name": season.name, "start": "2026-09-01", "end": "2027-05-31"}
    assert td_client.post(url, {**dates, "night_games": "3"}).status_code == 302
    assert td_client.post(url, {"rows": "1", "gp_0": "6", "points_0": "4"}).status_code == 302
    recompute_season(season.pk)
    assert SeasonLedger.objects.get(season=season, player=ann).grass_roots_points == 4
    body = td_client.get(reverse("season", args=[season.pk])).content.decode()
    assert "6 game points: the table&#x27;s row for 6 game points gives 4 points" in body
    refused = td_client.post(url, {**dates, "night_games": "0"})
    assert refused.status_code == 400
    assert "Ensure this value is greater than or equal to 1" in refused.content.decode()


def test_running_and_test_nights_do_not_count_and_say_why(
    td_client, club, season, django_capture_on_commit_callbacks
):
    ann = PlayerFactory(name="Ann Whitfield", home_club=club)
    running, _ = night(club, OCT, ann, 9, 0, finish=False)  # 18 GP, still under way
    practice, _ = night(club, OCT + datetime.timedelta(days=7), ann, 8, 1)
    practice.name = "Practice night"
    practice.save(update_fields=["name"])
    settings_page = td_client.get(reverse("td-event-settings", args=[practice.pk]))
    assert "Counts for the club's season" in settings_page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):  # the season rebuilds on commit
        response = td_client.post(reverse("td-event-season", args=[practice.pk]), {})
    assert response.status_code == 302
    practice.refresh_from_db()
    assert practice.counts_for_season is False
    audit = AuditEntry.objects.get(event=practice, action="season_counting")
    assert (audit.old, audit.new) == ({"counts_for_season": True}, {"counts_for_season": False})

    assert not SeasonLedger.objects.filter(season=season).exists()
    body = td_client.get(reverse("season", args=[season.pk])).content.decode()
    assert f"{running.name}: still under way: it counts once it has finished" in body
    assert "Practice night: the TD marked it as not counting for the season" in body

    with django_capture_on_commit_callbacks(execute=True):
        td_client.post(reverse("td-finish", args=[running.pk]))
    ledger = SeasonLedger.objects.get(season=season, player=ann)
    assert (ledger.nights, ledger.grass_roots_points) == (1, 53)  # 18 GP -> 53, once finished


def test_the_table_wording_says_what_gives_what(td_client, club, season):
    new = td_client.get(reverse("td-seasons", args=[club.pk])).content.decode()
    assert "earn 107" not in new
    assert "a night of 12 game points gives 3 Grass Roots points, a night of 21 gives 107" in new
    page = td_client.get(reverse("season", args=[season.pk])).content.decode()
    assert "Game points on a night of 9 games, and the Grass Roots points they give." in page
    assert "12 or more game points" not in page
