"""Ratings in the API (issue 28): a club's rated players a page at a time, in the order of its
ratings page, and one player's rating with its history; public; bad ids are 404s."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from scoring import ratings
from tests.factories import ClubFactory, EntryFactory, event_with_field
from tests.scoring.test_ratings import play_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_club():
    """A club of six players (one accented) rated over two nights of three games."""
    club = ClubFactory(name="Peg Club")
    rng = random.Random(7)
    first = event_with_field(5, status="running", club=club, date="2026-02-01")
    EntryFactory(event=first, player__name="Ștefan Zoë")
    for number in (1, 2, 3):
        play_game(first, number, rng)
    second = event_with_field(0, status="running", club=club, date="2026-02-08")
    for entry in first.entries.all():
        EntryFactory(event=second, player=entry.player)
    for number in (1, 2, 3):
        play_game(second, number, rng)
    ratings.update_club(club.pk)
    return club, first, second


def test_the_list_is_the_ratings_page_a_page_at_a_time(rated_club):
    club, _first, _second = rated_club
    api = APIClient()
    expected = ratings.club_ranking(club.pk)
    whole = api.get(f"/api/v1/clubs/{club.pk}/ratings/").json()
    assert whole["count"] == 6
    got = [(r["rank"], r["player"], r["games"]) for r in whole["results"]]
    assert got == [(line.rank, line.player_id, line.games) for line in expected]
    top = whole["results"][0]
    assert top["ordinal"] == pytest.approx(top["mu"] - 3 * top["sigma"])
    assert top["games"] == 6 and top["provisional"] is True  # 6 games: under 10
    assert "Ștefan Zoë" in {r["name"] for r in whole["results"]}
    # The second page of two goes on numbering where the first stopped.
    page = api.get(f"/api/v1/clubs/{club.pk}/ratings/", {"limit": 2, "offset": 2}).json()
    assert [r["rank"] for r in page["results"]] == [3, 4]
    assert [r["player"] for r in page["results"]] == [line.player_id for line in expected[2:4]]
    assert page["next"] and page["previous"]


def test_a_players_rating_and_history(rated_club):
    club, first, second = rated_club
    api = APIClient()
    player_id = first.entries.get(player__name="Ștefan Zoë").player_id
    body = api.get(f"/api/v1/clubs/{club.pk}/ratings/{player_id}/").json()
    (kept,) = [c for c in ratings.player_history(player_id) if c["club"].pk == club.pk]
    assert (body["mu"], body["sigma"], body["games"]) == (
        kept["rating"].mu,
        kept["rating"].sigma,
        kept["rating"].games,
    )
    assert body["name"] == "Ștefan Zoë"
    assert [(h["event"], h["games"]) for h in body["history"]] == [(first.pk, 3), (second.pk, 6)]
    assert body["history"][0]["date"] == "2026-02-01"
    assert body["history"][-1]["mu"] == body["mu"]


def test_unknown_clubs_players_and_bad_pages_are_clear_errors(rated_club):
    club, first, _second = rated_club
    api = APIClient()
    other = ClubFactory()
    player_id = first.entries.first().player_id
    assert api.get("/api/v1/clubs/999999/ratings/").status_code == 404
    assert api.get(f"/api/v1/clubs/{10**15}/ratings/").status_code == 404  # past the column
    assert api.get(f"/api/v1/clubs/{club.pk}/ratings/{10**15}/").status_code == 404
    missing = api.get(f"/api/v1/clubs/{other.pk}/ratings/{player_id}/")
    assert missing.status_code == 404  # rated in another club only
    assert "no rating in this club" in missing.content.decode()
    assert api.get(f"/api/v1/clubs/{other.pk}/ratings/").json()["count"] == 0
    bad = api.get(f"/api/v1/clubs/{club.pk}/ratings/", {"offset": 10**9})
    assert bad.status_code == 400
