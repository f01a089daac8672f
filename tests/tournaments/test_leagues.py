"""Leagues (issue 28): two teams of a club play a match of 5 legs (3 doubles, 2 singles);
the match's result and the league table follow from the legs, with real figures."""

from __future__ import annotations

import datetime

import pytest

from core.errors import ServiceError
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments.leagues import selectors, services
from tournaments.leagues.models import League, LeagueAuditEntry, LeagueMatch, Leg

pytestmark = pytest.mark.django_db
FORMAT = ["doubles", "doubles", "doubles", "singles", "singles"]
LARKS = ["Zoë Lindqvist", "Niccolò Ferrà", "Jürgen Weiß", "Ștefan Țurcanu", "Dolores Ibáñez",
         "Łucja Wąs", "Ann Whitfield", "Bob Ng"]  # fmt: skip
HAWKS = ["Cai Hughes", "Dee Moss", "Eve Park", "Fay Lund", "Gus Roe", "Hal Ito", "Ivy Shaw",
         "Jo Kerr"]  # fmt: skip


def make_league(**kwargs):
    """A club, its TD, a league of 5 legs and two teams of 8 plus an idle third team."""
    club = ClubFactory(name="Peg City")
    td = UserFactory(username="director")
    club.directors.add(td)
    league = services.create_league(
        club,
        name="Winter partners' league",
        season_start=datetime.date(2026, 9, 1),
        season_end=datetime.date(2027, 5, 31),
        user=td,
        **{"leg_kinds": FORMAT, **kwargs},
    )
    players = {
        name: PlayerFactory(name=name, home_club=club).pk for name in [*LARKS, *HAWKS, "Kit"]
    }
    larks = services.save_team(
        league, name="Ledbury Larks", player_ids=[players[n] for n in LARKS], user=td
    )
    hawks = services.save_team(
        league, name="Hereford Hawks", player_ids=[players[n] for n in HAWKS], user=td
    )
    abbey = services.save_team(league, name="Abbey", player_ids=[players["Kit"]], user=td)
    return league, td, players, (larks, hawks, abbey)


# (leg, home players, away players, winner, loser's score)
LEGS = [
    (1, LARKS[0:2], HAWKS[0:2], "home", 100),
    (2, LARKS[2:4], HAWKS[2:4], "away", 85),
    (3, LARKS[4:6], HAWKS[4:6], "home", 60),
    (4, LARKS[6:7], HAWKS[6:7], "home", 119),
    (5, LARKS[7:8], HAWKS[7:8], "away", 110),
]


def play(match, players, td, legs=LEGS, reason=""):
    for number, home, away, winner, loser_score in legs:
        services.record_leg(
            match,
            number=number,
            home_players=[players[n] for n in home],
            away_players=[players[n] for n in away],
            winner=winner,
            loser_score=loser_score,
            user=td,
            reason=reason,
        )


def larks_v_hawks(league, larks, hawks):
    return LeagueMatch.objects.create(league=league, round=1, home=larks, away=hawks)


def test_a_full_match_of_five_legs_and_the_table_after_it():
    league, td, players, (larks, hawks, abbey) = make_league()
    match = larks_v_hawks(league, larks, hawks)
    play(match, players, td, LEGS[:4])
    match.refresh_from_db()
    assert match.status == LeagueMatch.Status.IN_PLAY
    assert selectors.league_table(league)[0].played == 0  # an unfinished match does not count
    play(match, players, td, LEGS[4:])
    match.refresh_from_db()
    assert match.status == LeagueMatch.Status.PLAYED

    legs = list(Leg.objects.filter(match=match).order_by("number"))
    assert [(leg.kind, leg.spread, leg.skunk_level) for leg in legs] == [
        ("doubles", 21, 0),
        ("doubles", 36, 1),
        ("doubles", 61, 2),
        ("singles", 2, 0),
        ("singles", 11, 0),
    ]
    result = selectors.match_result(selectors.league_matches(league).get(pk=match.pk))
    assert (result.home_legs, result.away_legs) == (3, 2)
    assert (result.home_points, result.away_points) == (558, 521)
    assert result.home_spread == 37 and result.winner == "home"

    table = selectors.league_table(league)
    assert [
        (r.place, r.team.name, r.played, r.won, r.drawn, r.lost, r.legs_for, r.legs_against,
         r.points, r.spread)
        for r in table
    ] == [
        (1, "Ledbury Larks", 1, 1, 0, 0, 3, 2, 2, 37),
        (2, "Abbey", 0, 0, 0, 0, 0, 0, 0, 0),
        (3, "Hereford Hawks", 1, 0, 0, 1, 2, 3, 0, -37),
    ]  # fmt: skip
    assert LeagueAuditEntry.objects.filter(league=league, action="leg recorded").count() == 5


def test_a_match_won_on_points_can_go_to_the_side_with_fewer_legs():
    league, td, players, (larks, hawks, _abbey) = make_league(win_on=League.WinOn.POINTS)
    match = larks_v_hawks(league, larks, hawks)
    # The Larks win 3 legs narrowly; the Hawks win 2 by skunks: 121*3+30+40 v 120+119+118+242.
    legs = [
        (1, LARKS[0:2], HAWKS[0:2], "home", 120),
        (2, LARKS[2:4], HAWKS[2:4], "away", 30),
        (3, LARKS[4:6], HAWKS[4:6], "home", 119),
        (4, LARKS[6:7], HAWKS[6:7], "home", 118),
        (5, LARKS[7:8], HAWKS[7:8], "away", 40),
    ]
    play(match, players, td, legs)
    result = selectors.match_result(selectors.league_matches(league).get(pk=match.pk))
    assert (result.home_legs, result.away_legs) == (3, 2)
    assert (result.home_points, result.away_points) == (433, 599)
    assert result.winner == "away"
    top = selectors.league_table(league)[0]
    assert (top.team.name, top.points, top.legs_for, top.spread) == ("Hereford Hawks", 2, 2, 166)


def test_a_drawn_match_gives_both_teams_the_draw_points():
    league, td, players, (larks, hawks, _abbey) = make_league(
        leg_kinds=["singles", "singles"], legs_per_player=0
    )
    match = larks_v_hawks(league, larks, hawks)
    play(match, players, td, [(1, LARKS[:1], HAWKS[:1], "home", 100),
                              (2, LARKS[:1], HAWKS[:1], "away", 100)])  # fmt: skip
    table = {r.team.name: (r.drawn, r.points, r.spread) for r in selectors.league_table(league)}
    assert table["Ledbury Larks"] == table["Hereford Hawks"] == (1, 1, 0)


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"number": 6}, "no_such_leg", "number"),
        ({"home_players": LARKS[0:1]}, "wrong_side_size", "home_players"),
        ({"away_players": [HAWKS[0], LARKS[0]]}, "not_in_team", "away_players"),
        ({"home_players": [LARKS[0], LARKS[0]]}, "player_twice", "home_players"),
        ({"home_players": [LARKS[0], LARKS[2]]}, "player_leg_limit", "home_players"),
        ({"loser_score": 121}, "bad_loser_score", "loser_score"),
        ({"loser_score": -3}, "bad_loser_score", "loser_score"),
        ({"winner": "draw"}, "bad_winner", "winner"),
    ],
)
def test_a_bad_leg_is_refused_with_its_code_and_nothing_written(change, code, field):
    league, td, players, (larks, hawks, _abbey) = make_league()
    match = larks_v_hawks(league, larks, hawks)
    play(match, players, td, LEGS[:1])
    leg = {"number": 2, "home_players": LARKS[2:4], "away_players": HAWKS[2:4],
           "winner": "away", "loser_score": 85, **change}  # fmt: skip
    for side in ("home_players", "away_players"):
        leg[side] = [players[n] for n in leg[side]]
    with pytest.raises(ServiceError) as refused:
        services.record_leg(match, user=td, **leg)
    assert (refused.value.code, refused.value.field) == (code, field)
    assert Leg.objects.filter(match=match).count() == 1


def test_a_corrected_leg_keeps_the_old_values_in_the_audit_log():
    league, td, players, (larks, hawks, _abbey) = make_league()
    match = larks_v_hawks(league, larks, hawks)
    play(match, players, td, LEGS[:1])
    play(match, players, td, [(1, LARKS[0:2], HAWKS[0:2], "away", 95)], reason="Wrong winner")
    leg = Leg.objects.get(match=match, number=1)
    assert (leg.winner, leg.loser_score, leg.spread, leg.home_first.name) == (
        "away",
        95,
        26,
        "Zoë Lindqvist",
    )
    entry = LeagueAuditEntry.objects.get(league=league, action="leg corrected")
    assert entry.old["winner"] == "home" and entry.new["loser_score"] == 95
    assert entry.new["home"] == ["Zoë Lindqvist", "Niccolò Ferrà"] and entry.actor == "director"
    assert entry.reason == "Wrong winner"


def test_a_player_plays_for_one_team_of_a_league_and_only_the_clubs_players():
    league, td, players, (larks, _hawks, _abbey) = make_league()
    with pytest.raises(ServiceError) as refused:
        services.save_team(league, name="Raiders", player_ids=[players["Bob Ng"]], user=td)
    assert refused.value.code == "player_in_other_team"
    stranger = PlayerFactory(name="Stranger")  # of another club
    with pytest.raises(ServiceError) as refused:
        services.save_team(league, name="Raiders", player_ids=[stranger.pk], user=td)
    assert refused.value.code == "not_club_player"
    with pytest.raises(ServiceError) as refused:
        services.save_team(league, name="ledbury larks", player_ids=[stranger.pk], user=td)
    assert refused.value.code in {"not_club_player", "team_name_taken"}


def test_the_round_robin_meets_every_pair_once_or_home_and_away():
    league, td, _players, teams = make_league()
    services.save_team(league, name="Dock", player_ids=[PlayerFactory(home_club=league.club).pk])
    matches = services.schedule_fixtures(
        league, first_date=datetime.date(2026, 9, 7), twice=True, user=td
    )
    assert len(matches) == 12  # 4 teams: 3 rounds of 2, twice
    assert {m.round for m in matches} == {1, 2, 3, 4, 5, 6}
    assert max(m.date for m in matches) == datetime.date(2026, 10, 12)
    pairs = [(m.home_id, m.away_id) for m in matches]
    assert len(set(pairs)) == 12  # every pair once at each home
    homes = [sum(m.home_id == t.pk for m in matches if m.round <= 3) for t in league.teams.all()]
    assert sorted(homes) == [1, 1, 2, 2]  # home and away shared out in the first round robin
    for round_ in range(1, 7):
        teams_in_round = [t for m in matches if m.round == round_ for t in (m.home_id, m.away_id)]
        assert len(teams_in_round) == len(set(teams_in_round)) == 4
    with pytest.raises(ServiceError) as refused:
        services.schedule_fixtures(league, first_date=datetime.date(9999, 12, 25), user=td)
    assert (refused.value.code, refused.value.field) == ("bad_season", "first_date")
    once = services.schedule_fixtures(league, user=td)
    assert len(once) == 6 and LeagueMatch.objects.filter(league=league).count() == 6


def test_fixtures_are_not_drawn_again_once_a_leg_is_played():
    league, td, players, (larks, hawks, _abbey) = make_league()
    services.schedule_fixtures(league, user=td)
    match = LeagueMatch.objects.get(league=league, home__in=[larks, hawks], away__in=[larks, hawks])
    LeagueMatch.objects.filter(pk=match.pk).update(home=larks, away=hawks)
    play(LeagueMatch.objects.get(pk=match.pk), players, td, LEGS[:1])
    with pytest.raises(ServiceError) as refused:
        services.schedule_fixtures(league, user=td)
    assert refused.value.code == "fixtures_played"
    assert LeagueMatch.objects.filter(league=league).count() == 3


def test_a_bad_format_is_refused():
    club = ClubFactory()
    kwargs = {"name": "L", "season_start": datetime.date(2026, 9, 1),
              "season_end": datetime.date(2027, 5, 31)}  # fmt: skip
    for extra, code in [
        ({"leg_kinds": []}, "bad_leg_kinds"),
        ({"leg_kinds": ["triples"]}, "bad_leg_kinds"),
        ({"leg_kinds": FORMAT, "points_win": 1, "points_draw": 1}, "bad_league_points"),
        ({"leg_kinds": FORMAT, "target": 100}, "bad_league_target"),
        ({"leg_kinds": FORMAT, "season_end": datetime.date(2026, 1, 1)}, "bad_season"),
        ({"leg_kinds": FORMAT, "points_win": 40_000}, "bad_league_points"),
        ({"leg_kinds": FORMAT, "legs_per_player": 99}, "bad_legs_per_player"),
    ]:
        with pytest.raises(ServiceError) as refused:
            services.create_league(club, **{**kwargs, **extra})
        assert refused.value.code == code


def test_merging_two_records_of_a_player_keeps_their_legs_and_team():
    from tournaments.services.players import merge_players

    league, td, players, (larks, hawks, _abbey) = make_league()
    match = larks_v_hawks(league, larks, hawks)
    play(match, players, td, LEGS[:1])
    twin = PlayerFactory(name="Zoe Lindqvist", home_club=league.club)
    kept = merge_players(league.club, keep=twin, merged=players[LARKS[0]])
    leg = Leg.objects.get(match=match, number=1)
    assert leg.home_first == kept and kept in larks.players.all()
    assert selectors.league_table(league)[0].team.name == "Abbey"  # nothing complete yet


@pytest.mark.parametrize("count", range(2, 13))
def test_the_round_robin_shares_home_games_out_evenly(count):
    """Every pair meets once, nobody twice in a round, and each team is at home in half its
    matches (give or take one with an even number of teams, when each plays an odd number)."""
    from tournaments.leagues.services import round_robin

    teams = [f"team {n}" for n in range(count)]
    rounds = round_robin(teams)  # type: ignore[arg-type]  # any hashable stands for a team
    meetings = [frozenset(pair) for pairs in rounds for pair in pairs]
    assert len(meetings) == len(set(meetings)) == count * (count - 1) // 2
    for pairs in rounds:
        seated = [t for pair in pairs for t in pair]
        assert len(seated) == len(set(seated))
    homes = sorted(sum(home == t for pairs in rounds for home, _away in pairs) for t in teams)
    if count % 2:
        assert homes == [(count - 1) // 2] * count
    else:
        assert homes[0] >= (count - 2) // 2 and homes[-1] <= count // 2


def test_a_leg_for_a_match_the_fixtures_no_longer_have_is_refused_not_a_500():
    """Issue 34, item 10: redrawing the fixtures while a leg was keyed gave a 500
    (``LeagueMatch.DoesNotExist``); now the writers take the league's lock, and a leg for a
    match drawn away is a clear refusal."""
    league, td, players, (larks, hawks, _abbey) = make_league()
    services.schedule_fixtures(league, user=td)
    stale = LeagueMatch.objects.filter(league=league).first()
    services.schedule_fixtures(league, user=td)  # drawn again: the old matches are gone
    with pytest.raises(ServiceError) as refused:
        play(stale, players, td, LEGS[:1])
    assert refused.value.code == "match_gone"
    assert not Leg.objects.filter(match__league=league).exists()


def test_not_in_team_never_names_another_clubs_player():
    """Issue 34, item 12: the refusal named any player id in the database."""
    league, td, players, (larks, hawks, _abbey) = make_league()
    match = larks_v_hawks(league, larks, hawks)
    stranger = PlayerFactory(name="Secret Elsewhere")  # another club's
    with pytest.raises(ServiceError) as refused:
        services.record_leg(
            match,
            number=4,
            home_players=[stranger.pk],
            away_players=[players[HAWKS[6]]],
            winner="home",
            loser_score=100,
            user=td,
        )
    assert refused.value.code == "not_in_team"
    assert "Secret Elsewhere" not in refused.value.message
    assert str(stranger.pk) in refused.value.message
    with pytest.raises(ServiceError) as refused:  # a club player of another team: named
        services.record_leg(
            match,
            number=4,
            home_players=[players["Kit"]],
            away_players=[players[HAWKS[6]]],
            winner="home",
            loser_score=100,
            user=td,
        )
    assert "Kit" in refused.value.message
