"""The TD creates and edits a club's seasons and their Grass Roots table without the admin."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Season
from scoring.seasons import ACC_GRASS_ROOTS
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(td_user):
    club = ClubFactory(name="Circolo di Brașov")
    club.directors.add(td_user)
    return club


def test_a_td_creates_a_season_seeded_with_the_acc_table(td_client, club):
    url = reverse("td-seasons", args=[club.pk])
    page = td_client.get(url)
    assert page.status_code == 200 and "Create the season" in page.content.decode()
    response = td_client.post(url, {"name": "", "start": "2026-09-01", "end": "2027-05-31"})
    season = Season.objects.get(club=club)
    assert response.status_code == 302 and response.url == reverse("td-season", args=[season.pk])
    assert season.name == "2026-27"
    assert dict(season.grass_roots.values_list("game_points", "points")) == ACC_GRASS_ROOTS
    assert "2026-27" in td_client.get(url).content.decode()
    club_page = td_client.get(reverse("td-club", args=[club.pk])).content.decode()
    assert f'href="{url}"' in club_page


def test_bad_dates_and_a_taken_name_are_form_errors(td_client, club):
    url = reverse("td-seasons", args=[club.pk])
    response = td_client.post(url, {"name": "Inverno", "start": "2027-05-31", "end": "2026-09-01"})
    assert response.status_code == 400
    assert "cannot end before it starts" in response.content.decode()
    td_client.post(url, {"name": "Inverno", "start": "2026-09-01", "end": "2027-05-31"})
    again = td_client.post(url, {"name": "Inverno", "start": "2027-09-01", "end": "2028-05-31"})
    assert again.status_code == 400 and "already has a season Inverno" in again.content.decode()
    assert Season.objects.filter(club=club).count() == 1


def test_the_td_edits_dates_and_the_grass_roots_table(td_client, club):
    td_client.post(
        reverse("td-seasons", args=[club.pk]),
        {"name": "Stagione", "start": "2026-09-01", "end": "2027-05-31"},
    )
    season = Season.objects.get(club=club)
    url = reverse("td-season", args=[season.pk])
    moved = td_client.post(url, {"name": "Stagione 26", "start": "2026-10-01", "end": "2027-06-30"})
    assert moved.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.start, season.end) == (
        "Stagione 26",
        datetime.date(2026, 10, 1),
        datetime.date(2027, 6, 30),
    )
    rows = {"rows": "1", "gp_0": "10", "points_0": "1", "gp_1": "12", "points_1": "5"}
    assert td_client.post(url, rows).status_code == 302
    assert dict(season.grass_roots.values_list("game_points", "points")) == {10: 1, 12: 5}

    half = td_client.post(url, {"rows": "1", "gp_0": "10", "points_0": ""})
    assert half.status_code == 400 and "Fill in both numbers" in half.content.decode()
    twice = td_client.post(
        url, {"rows": "1", "gp_0": "10", "points_0": "1", "gp_1": "10", "points_1": "2"}
    )
    assert twice.status_code == 400 and "10 game points appear twice" in twice.content.decode()
    assert dict(season.grass_roots.values_list("game_points", "points")) == {10: 1, 12: 5}

    assert td_client.post(url, {"acc_table": "1"}).status_code == 302
    assert dict(season.grass_roots.values_list("game_points", "points")) == ACC_GRASS_ROOTS


def test_a_season_without_a_table_says_why_everyone_is_on_zero(td_client, club):
    season = Season.objects.create(
        club=club, name="Vuota", start=datetime.date(2026, 9, 1), end=datetime.date(2027, 5, 31)
    )
    body = Client().get(reverse("season", args=[season.pk])).content.decode()  # anyone
    assert 'id="why-zero"' in body and "no Grass Roots table" in body
    assert "Set up the table" not in body  # only the club's TD can
    assert "Set up the table" in td_client.get(reverse("season", args=[season.pk])).content.decode()


def test_another_clubs_td_cannot_see_or_edit_the_season(client, club):
    season = Season.objects.create(
        club=club, name="Nostra", start=datetime.date(2026, 9, 1), end=datetime.date(2027, 5, 31)
    )
    stranger = UserFactory(username="altro-td")
    ClubFactory().directors.add(stranger)
    client.force_login(stranger)
    assert client.get(reverse("td-seasons", args=[club.pk])).status_code == 404
    assert (
        client.post(reverse("td-season", args=[season.pk]), {"acc_table": "1"}).status_code == 404
    )
    assert not season.grass_roots.exists()
