"""League pages (issue 28): the TD creates a league, a team, the fixtures and keys a leg;
the public table and match page show the figures; another club's TD gets a 404."""

from __future__ import annotations

import json

import pytest

from tests.factories import UserFactory
from tests.tournaments.test_leagues import HAWKS, LARKS, LEGS, larks_v_hawks, make_league, play
from tournaments.leagues.models import League, LeagueMatch, Leg

DASH = "\u2013"  # the en dash the pages put between two figures
pytestmark = pytest.mark.django_db


def test_the_td_creates_a_league_and_a_team(client):
    league, td, players, _teams = make_league()
    client.force_login(td)
    club = league.club
    page = client.get(f"/td/clubs/{club.pk}/")
    assert f"/td/clubs/{club.pk}/leagues/" in page.content.decode()
    answer = client.post(
        f"/td/clubs/{club.pk}/leagues/",
        {"name": "Legion fours", "season_start": "2026-09-01", "season_end": "2027-05-31",
         "doubles_legs": 2, "singles_legs": 4, "win_on": "points", "points_win": 2,
         "points_draw": 1, "points_loss": 0, "target": 121, "legs_per_player": 0},
    )  # fmt: skip
    made = League.objects.get(name="Legion fours")
    assert answer.status_code == 302 and answer["Location"] == f"/td/leagues/{made.pk}/"
    assert made.leg_kinds == ["doubles"] * 2 + ["singles"] * 4 and made.win_on == "points"
    refused = client.post(
        f"/td/clubs/{club.pk}/leagues/",
        {"name": "Nothing", "season_start": "2026-09-01", "season_end": "2027-05-31",
         "doubles_legs": 0, "singles_legs": 0, "win_on": "legs", "points_win": 2,
         "points_draw": 1, "points_loss": 0, "target": 121, "legs_per_player": 1},
    )  # fmt: skip
    assert refused.status_code == 400
    assert "1 to 20 legs" in str(refused.context["form"].errors["doubles_legs"])
    answer = client.post(
        f"/td/leagues/{made.pk}/", {"name": "Łódź Four", "players": [players[LARKS[0]]]}
    )
    assert answer.status_code == 302
    assert "Łódź Four" in client.get(f"/td/leagues/{made.pk}/").content.decode()


def test_a_leg_by_the_form_and_the_public_pages(client):
    league, td, players, (larks, hawks, _abbey) = make_league()
    match = larks_v_hawks(league, larks, hawks)
    client.force_login(td)
    url = f"/td/leagues/{league.pk}/matches/{match.pk}/"
    form = {"number": 1, "home_first": players[LARKS[0]], "home_second": "",
            "away_first": players[HAWKS[0]], "away_second": players[HAWKS[1]],
            "winner": "home", "loser_score": 100}  # fmt: skip
    refused = client.post(url, form)
    assert refused.status_code == 400
    assert "needs 2 players" in str(refused.context["form"].errors["home_first"])
    assert not Leg.objects.exists()
    # One player picked as their own partner: said beside the partner's select.
    twice = client.post(
        url, form | {"home_second": players[LARKS[1]], "away_second": players[HAWKS[0]]}
    )
    assert twice.status_code == 400 and not Leg.objects.exists()
    errors = twice.context["form"].errors
    assert "A player cannot partner themself." in str(errors["away_second"])
    assert "away_first" not in errors
    form["home_second"] = players[LARKS[1]]
    assert client.post(url, form).status_code == 302
    play(match, players, td, LEGS[1:])
    client.logout()
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "A match of 5 legs to 121, won by the side that wins more legs." in page
    assert "Ledbury Larks" in page and "+37" in page and f"3{DASH}2" in page
    page = client.get(f"/leagues/{league.pk}/matches/{match.pk}/").content.decode()
    assert "Zoë Lindqvist &amp; Niccolò Ferrà" in page and "double skunk" in page
    assert "Ledbury Larks win the match." in page
    assert "Winter partners&#x27; league" in client.get("/leagues/").content.decode()


def test_the_export_carries_the_league_by_names(client):
    league, td, players, (larks, hawks, _abbey) = make_league()
    play(larks_v_hawks(league, larks, hawks), players, td)
    client.force_login(td)
    data = json.loads(client.get(f"/td/leagues/{league.pk}/export/").content)
    assert data["league"]["legs"] == ["doubles"] * 3 + ["singles"] * 2
    assert data["matches"][0]["legs_won"] == [3, 2] and data["matches"][0]["points"] == [558, 521]
    assert data["matches"][0]["legs"][2]["home"] == ["Dolores Ibáñez", "Łucja Wąs"]
    assert data["table"][0] == {"place": 1, "team": "Ledbury Larks", "played": 1, "won": 1,
                                "drawn": 0, "lost": 0, "legs_for": 3, "legs_against": 2,
                                "points": 2, "spread": 37}  # fmt: skip


def test_another_clubs_td_gets_404(client):
    league, _td, _players, (larks, hawks, _abbey) = make_league()
    match = LeagueMatch.objects.create(league=league, round=1, home=larks, away=hawks)
    client.force_login(UserFactory(username="other"))
    for url in (
        f"/td/leagues/{league.pk}/",
        f"/td/leagues/{league.pk}/matches/{match.pk}/",
        f"/td/leagues/{league.pk}/export/",
        f"/td/clubs/{league.club.pk}/leagues/",
    ):
        assert client.get(url).status_code == 404


def test_the_td_changes_a_team_mid_season(client):
    league, td, players, (larks, _hawks, _abbey) = make_league()
    client.force_login(td)
    url = f"/td/leagues/{league.pk}/teams/{larks.pk}/"
    page = client.get(url)
    assert page.status_code == 200 and 'value="Ledbury Larks"' in page.content.decode()
    # Another team's players are not offered (a player is in one team of the league); a
    # forged tick of one is refused beside the field.
    assert f'value="{players[HAWKS[0]]}"' not in page.content.decode()
    assert f'value="{players["Kit"]}"' not in page.content.decode()  # Abbey's
    kept = [players[n] for n in LARKS[:7]]
    refused = client.post(url, {"name": "Larks", "players": [*kept, players[HAWKS[0]]]})
    assert refused.status_code == 400 and "is not one of the available choices" in (
        refused.content.decode()
    )
    assert client.post(url, {"name": "Larks", "players": kept}).status_code == 302
    larks.refresh_from_db()
    assert larks.name == "Larks" and larks.players.count() == 7


def test_the_league_page_says_a_team_is_too_small_and_lists_players_alphabetically(client):
    """5 legs (3 doubles, 2 singles) at 1 leg a player take 8 players a side: the idle
    Abbey, of one, is told so; the new-team list keeps "Ștefan" among the S, not after Z."""
    from tests.factories import PlayerFactory

    league, td, _players, _teams = make_league()
    assert league.players_needed == 8
    for name in ("Sam Ruiz", "Ștefan Dima", "Zack Orr", "Élodie Roux", "Ed Lowe"):
        PlayerFactory(name=name, home_club=league.club)
    client.force_login(td)
    page = client.get(f"/td/leagues/{league.pk}/").content.decode()
    assert page.count("team-short") == 1
    assert "Too few players to play every leg of a match: 8 needed." in page
    free = [page.index(name) for name in ("Ed Lowe", "Élodie Roux", "Sam Ruiz", "Ștefan Dima")]
    assert free == sorted(free) and page.index("Zack Orr") > free[-1]
    assert page.index("Sam Ruiz") > page.index("Ed Lowe")
    api = client.get(f"/api/v1/leagues/{league.pk}/").json()
    assert api["players_needed"] == 8


@pytest.mark.parametrize(
    ("legs", "per_player", "needed"),
    [
        (["doubles"] * 3 + ["singles"] * 2, 1, 8),
        (["doubles"] * 3 + ["singles"] * 2, 2, 4),
        (["doubles"] * 5, 0, 2),  # a pair plays every leg at its table
        (["singles"] * 4, 3, 2),
        (["singles"], 1, 1),
    ],
)
def test_players_needed_for_a_match(legs, per_player, needed):
    assert League(leg_kinds=legs, legs_per_player=per_player).players_needed == needed


def test_the_format_line_says_how_a_match_is_won():
    from django.template.loader import render_to_string

    league = League(leg_kinds=["doubles"] * 3, target=61, win_on=League.WinOn.POINTS)
    line = render_to_string("leagues/_format.html", {"league": league})
    assert "A match of 3 legs to 61, won on game points." in line
    league.win_on = League.WinOn.LEGS
    line = render_to_string("leagues/_format.html", {"league": league})
    assert "A match of 3 legs to 61, won by the side that wins more legs." in line
