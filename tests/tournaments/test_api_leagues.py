"""The TD API of leagues (issue 28): a league, its teams, fixtures, legs and the table."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.tournaments.test_api_td import errors
from tests.tournaments.test_leagues import FORMAT, HAWKS, LARKS, LEGS, larks_v_hawks, make_league
from tournaments.leagues.models import League, LeagueMatch, Leg

pytestmark = pytest.mark.django_db


def leg_body(players, number, home, away, winner, loser_score):
    return {
        "number": number,
        "home_players": [players[n] for n in home],
        "away_players": [players[n] for n in away],
        "winner": winner,
        "loser_score": loser_score,
    }


def test_a_league_and_a_match_through_the_api(api):
    league, td, players, (larks, hawks, _abbey) = make_league()
    api.force_authenticate(td)
    made = api.post(
        f"/api/v1/clubs/{league.club_id}/leagues/",
        {"name": "Legion fours", "season_start": "2026-09-01", "season_end": "2027-05-31",
         "leg_kinds": ["doubles", "singles", "singles"], "win_on": "points"},
        format="json",
    )  # fmt: skip
    assert made.status_code == 201, made.content
    assert made.json()["leg_kinds"] == ["doubles", "singles", "singles"]
    assert made.json()["target"] == 121 and made.json()["points_win"] == 2
    listed = api.get(f"/api/v1/clubs/{league.club_id}/leagues/").json()
    assert {row["name"] for row in listed} == {"Legion fours", "Winter partners' league"}

    teams = api.get(f"/api/v1/leagues/{league.pk}/teams/").json()
    assert [t["name"] for t in teams] == ["Abbey", "Hereford Hawks", "Ledbury Larks"]
    assert teams[2]["players"][0]["name"] == "Ann Whitfield"

    fixtures = api.post(f"/api/v1/leagues/{league.pk}/fixtures/", {}, format="json")
    assert fixtures.status_code == 201 and len(fixtures.json()) == 3
    match = LeagueMatch.objects.get(league=league, home__in=[larks, hawks], away__in=[larks, hawks])
    # The Larks at home, whichever way the round robin drew it, for the figures below.
    LeagueMatch.objects.filter(pk=match.pk).update(home=larks, away=hawks)
    url = f"/api/v1/leagues/{league.pk}/matches/{match.pk}/"
    for leg in LEGS:
        answer = api.post(url + "legs/", leg_body(players, *leg), format="json")
        assert answer.status_code == 201, answer.content
    body = answer.json()
    assert (body["home"], body["home_legs"], body["away_legs"]) == ("Ledbury Larks", 3, 2)
    assert (body["home_points"], body["away_points"], body["winner"]) == (558, 521, "home")
    assert body["legs"][2] == {
        "number": 3, "kind": "doubles", "played": True,
        "home": ["Dolores Ibáñez", "Łucja Wąs"], "away": ["Gus Roe", "Hal Ito"],
        "winner": "home", "loser_score": 60, "spread": 61, "skunk_level": 2,
    }  # fmt: skip
    assert api.get(url).json() == body
    assert api.get(f"/api/v1/leagues/{league.pk}/").json()["leg_kinds"] == FORMAT

    api.force_authenticate(None)  # the table is public
    table = api.get(f"/api/v1/leagues/{league.pk}/table/").json()
    assert [(r["place"], r["team"], r["won"], r["legs_for"], r["points"], r["spread"])
            for r in table] == [(1, "Ledbury Larks", 1, 3, 2, 37), (2, "Abbey", 0, 0, 0, 0),
                                (3, "Hereford Hawks", 0, 2, 0, -37)]  # fmt: skip


def test_bad_input_is_a_400_with_its_code(api):
    league, td, players, (larks, hawks, _abbey) = make_league()
    match = larks_v_hawks(league, larks, hawks)
    api.force_authenticate(td)
    url = f"/api/v1/leagues/{league.pk}/matches/{match.pk}/legs/"
    body = leg_body(players, 1, LARKS[0:1], HAWKS[0:2], "home", 95)
    assert errors(api.post(url, body, format="json"))[0][:2] == ("home_players", "wrong_side_size")
    body = leg_body(players, 1, LARKS[0:2], HAWKS[0:2], "home", 121)
    assert errors(api.post(url, body, format="json"))[0][:2] == ("loser_score", "bad_loser_score")
    body = leg_body(players, 1, LARKS[0:2], [HAWKS[0], LARKS[3]], "away", 95)
    assert errors(api.post(url, body, format="json"))[0][:2] == ("away_players", "not_in_team")
    assert not Leg.objects.exists()
    made = api.post(
        f"/api/v1/leagues/{league.pk}/teams/",
        {"name": "Raiders", "players": [players[LARKS[0]]]},
        format="json",
    )
    assert errors(made)[0][:2] == ("players", "player_in_other_team")
    made = api.post(
        f"/api/v1/clubs/{league.club_id}/leagues/",
        {"name": "X", "season_start": "2026-09-01", "season_end": "2027-05-31",
         "leg_kinds": ["singles"] * 21},
        format="json",
    )  # fmt: skip
    assert errors(made)[0][:2] == ("leg_kinds", "bad_leg_kinds")
    assert League.objects.filter(name="X").count() == 0


def test_another_clubs_td_and_anyone_else(api):
    league, _td, _players, (larks, hawks, _abbey) = make_league()
    match = larks_v_hawks(league, larks, hawks)
    assert api.get(f"/api/v1/leagues/{league.pk}/").status_code == 401
    api.force_authenticate(UserFactory(username="other"))
    for url in (f"/api/v1/leagues/{league.pk}/", f"/api/v1/leagues/{league.pk}/teams/",
                f"/api/v1/leagues/{league.pk}/matches/{match.pk}/",
                f"/api/v1/clubs/{league.club_id}/leagues/"):  # fmt: skip
        assert api.get(url).status_code == 404
    assert api.get("/api/v1/leagues/999999/table/").status_code == 404


def test_names_are_text_never_a_json_number(api):
    """Issue 34, item 12: ``1e999`` became a team called "inf"."""
    league, td, _players, _teams = make_league()
    api.force_authenticate(td)
    for bad in (7, 1e308, True):
        made = api.post(
            f"/api/v1/leagues/{league.pk}/teams/", {"name": bad, "players": []}, format="json"
        )
        assert errors(made)[0][:2] == ("name", "not_text"), bad
    body = (
        b'{"name": 1e999, "season_start": "2026-09-01", "season_end": "2027-05-31", '
        b'"leg_kinds": ["singles"]}'
    )
    made = api.post(
        f"/api/v1/clubs/{league.club_id}/leagues/", body, content_type="application/json"
    )
    assert made.status_code == 400 and not League.objects.filter(name="inf").exists()
