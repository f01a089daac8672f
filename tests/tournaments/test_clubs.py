"""The club without the admin: its directors and defaults, a new event, its settings later."""

from __future__ import annotations

import datetime

import pytest

from core.errors import ServiceError
from tests.factories import ClubFactory, EntryFactory, UserFactory, acc_format
from tournaments import services
from tournaments.models import Event, MatchPointFormat, Round

pytestmark = pytest.mark.django_db

THURSDAY = datetime.date(2026, 11, 26)


@pytest.fixture
def club(td_user):
    club = ClubFactory(name="Brașov Pegs", city="Brașov")
    club.directors.add(td_user)
    return club


def long_match(club=None) -> MatchPointFormat:
    return MatchPointFormat.objects.create(
        code=f"long-{club.pk if club else 'x'}",
        name="Long match (3 / 4)",
        club=club,
        win=3,
        skunk=4,
        double_skunk=4,
        triple_skunk=4,
    )


# --- The club ------------------------------------------------------------------------------------


def test_rename_the_club_and_keep_its_city(club):
    services.update_club(club, name="  Brașov   Pegs & Pins ", city="Brașov ")
    club.refresh_from_db()
    assert (club.name, club.city) == ("Brașov Pegs & Pins", "Brașov")
    with pytest.raises(ServiceError) as error:
        services.update_club(club, name="   ", city="")
    assert error.value.code == "name_required" and error.value.field == "name"
    club.refresh_from_db()
    assert club.name == "Brașov Pegs & Pins"


def test_add_a_director_by_username_or_email(club, td_user):
    UserFactory(username="marta", email="Marta.Ionescu@example.org")
    UserFactory(username="ion")
    assert services.add_director(club, "marta.ionescu@EXAMPLE.org").username == "marta"
    assert services.add_director(club, "ION").username == "ion"
    assert set(club.directors.values_list("username", flat=True)) == {"director", "marta", "ion"}
    with pytest.raises(ServiceError) as error:
        services.add_director(club, "marta")
    assert error.value.code == "already_director"
    with pytest.raises(ServiceError) as error:
        services.add_director(club, "nobody@example.org")
    assert error.value.code == "unknown_user" and error.value.field == "who"


def test_an_email_two_accounts_share_is_refused(club):
    UserFactory(username="a", email="desk@example.org")
    UserFactory(username="b", email="desk@example.org")
    with pytest.raises(ServiceError) as error:
        services.add_director(club, "desk@example.org")
    assert error.value.code == "email_shared"
    assert club.directors.count() == 1


def test_the_last_director_stays(club, td_user):
    with pytest.raises(ServiceError) as error:
        services.remove_director(club, td_user.pk)
    assert error.value.code == "last_director"
    other = UserFactory(username="marta")
    club.directors.add(other)
    services.remove_director(club, td_user.pk)
    assert list(club.directors.all()) == [other]
    with pytest.raises(ServiceError) as error:
        services.remove_director(club, td_user.pk)
    assert error.value.code == "not_director"


def test_club_defaults_use_the_clubs_formats_only(club):
    own = long_match(club)
    services.set_club_defaults(club, match_point_format=own)
    club.refresh_from_db()
    assert club.default_match_point_format == own
    stranger = long_match(ClubFactory())
    with pytest.raises(ServiceError) as error:
        services.set_club_defaults(club, match_point_format=stranger)
    assert error.value.code == "bad_format"
    club.refresh_from_db()
    assert club.default_match_point_format == own


def test_club_chain_is_checked_against_the_games_tiebreakers(club):
    services.set_club_chain(club, "cribbage", ["game_points", "head_to_head", "spread"])
    club.refresh_from_db()
    assert club.default_chain("cribbage") == ("game_points", "head_to_head", "spread")
    assert club.default_chain("stoppa") == ("chips", "sessions_won", "best_session")
    with pytest.raises(ServiceError) as error:
        services.set_club_chain(club, "stoppa", ["chips", "head_to_head"])
    assert error.value.code == "bad_ranking_chain" and "head_to_head" in error.value.message
    with pytest.raises(ServiceError) as error:
        services.set_club_chain(club, "bridge", [])
    assert error.value.code == "bad_game"
    services.set_club_chain(club, "cribbage", [])  # back to the game's own
    club.refresh_from_db()
    assert club.default_chains == {}


# --- A new event ---------------------------------------------------------------------------------


def test_create_an_event_from_the_clubs_defaults_and_draw_game_1(club):
    own = long_match(club)
    services.set_club_defaults(club, match_point_format=own)
    services.set_club_chain(club, "cribbage", ["game_points", "spread", "draw"])
    club.refresh_from_db()
    event = services.create_event(club, name=" Jeudi  soir ", date=THURSDAY, games_planned=7)
    assert (event.name, event.status, event.games_planned) == ("Jeudi soir", "draft", 7)
    assert event.match_point_format == own
    assert event.ranking_chain == ("game_points", "spread", "draw")
    for _ in range(6):
        EntryFactory(event=event)
    round_ = services.draw_next_game(event)
    assert round_.number == 1 and round_.tables.count() == 3
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING


def test_create_an_event_with_its_own_choices(club):
    event = services.create_event(
        club,
        name="Round robin of six",
        date=THURSDAY,
        game="cribbage",
        kind=Event.Kind.ROUND_ROBIN,
        pairing=Event.Pairing.ROUND_ROBIN,
        games_planned=5,
        target=61,
        muggins=True,
        match_point_format=acc_format(),
        tiebreakers=["game_points", "games_won", "spread"],
        seed=4242,
    )
    assert (event.kind, event.pairing, event.target, event.muggins, event.seed) == (
        "round_robin",
        "round_robin",
        61,
        True,
        4242,
    )
    assert event.tiebreakers == []  # the game's own chain is kept as "the game's own"


@pytest.mark.parametrize(
    ("changes", "code", "field"),
    [
        ({"name": "  "}, "name_required", "name"),
        ({"date": None}, "date_required", "date"),
        ({"game": "bridge"}, "bad_game", "game"),
        ({"kind": "league"}, "bad_kind", "kind"),
        ({"game": "stoppa", "kind": "sanctioned"}, "no_playoffs", "kind"),
        ({"games_planned": 41}, "bad_games_planned", "games_planned"),
        ({"target": 100}, "bad_target", "target"),
        ({"tiebreakers": ["game_points", "chips"]}, "bad_ranking_chain", "tiebreakers"),
        ({"seed": -1}, "bad_seed", "seed"),
    ],
)
def test_a_bad_new_event_is_refused_and_writes_nothing(club, changes, code, field):
    values = {"name": "Club night", "date": THURSDAY, "games_planned": 9} | changes
    with pytest.raises(ServiceError) as error:
        services.create_event(club, **values)
    assert (error.value.code, error.value.field) == (code, field)
    assert not Event.objects.exists()


def test_another_clubs_format_is_refused(club):
    with pytest.raises(ServiceError) as error:
        services.create_event(
            club, name="Night", date=THURSDAY, match_point_format=long_match(ClubFactory())
        )
    assert error.value.code == "bad_format"


def test_a_stoppa_event_starts_from_stoppas_chain(club):
    event = services.create_event(club, name="Stoppa al bar", date=THURSDAY, game="stoppa")
    assert event.game_kind.key == "stoppa"
    assert event.ranking_chain == ("chips", "sessions_won", "best_session")


# --- Settings later ------------------------------------------------------------------------------


def settings_of(event: Event, **changes) -> dict:
    values = {
        "name": event.name,
        "date": event.date,
        "game": event.game,
        "kind": event.kind,
        "pairing": event.pairing,
        "meetings_per_opponent": event.meetings_per_opponent,
        "games_planned": event.games_planned,
        "target": event.target,
        "muggins": event.muggins,
        "match_point_format": event.match_point_format,
        "tiebreakers": list(event.ranking_chain),
        "seed": event.seed,
        "confirmation": event.confirmation,
    }
    return values | changes


def test_every_setting_changes_before_the_first_draw(club):
    event = services.create_event(club, name="Night", date=THURSDAY)
    own = long_match(club)
    services.update_event_settings(
        event,
        **settings_of(
            event,
            name="Friday night",
            kind=Event.Kind.SANCTIONED,
            target=61,
            match_point_format=own,
            seed=7,
            tiebreakers=["game_points", "head_to_head"],
        ),
    )
    event.refresh_from_db()
    assert (event.name, event.kind, event.target, event.seed) == (
        "Friday night",
        "sanctioned",
        61,
        7,
    )
    assert event.match_point_format == own
    assert event.tiebreakers == ["game_points", "head_to_head"]


def test_after_the_first_draw_the_game_kind_and_target_are_locked(club):
    event = services.create_event(club, name="Night", date=THURSDAY, seed=99)
    for _ in range(4):
        EntryFactory(event=event)
    services.draw_next_game(event)
    event.refresh_from_db()
    locks = services.settings_locks(event)
    assert {"game", "kind", "target", "match_point_format", "seed"} <= set(locks)
    assert "name" not in locks and "games_planned" not in locks
    for change in ({"target": 61}, {"kind": "sanctioned"}, {"game": "stoppa"}, {"seed": 1}):
        with pytest.raises(ServiceError) as error:
            services.update_event_settings(event, **settings_of(event, **change))
        assert error.value.code == "setting_locked"
        assert error.value.field == next(iter(change))
    event.refresh_from_db()
    assert (event.target, event.kind, event.seed) == (121, "club_night", 99)
    services.update_event_settings(event, **settings_of(event, name="Renamed", games_planned=12))
    event.refresh_from_db()
    assert (event.name, event.games_planned) == ("Renamed", 12)


def test_a_finished_event_keeps_its_settings(club):
    event = services.create_event(club, name="Night", date=THURSDAY)
    services.finish_event(event)
    event.refresh_from_db()
    assert set(services.settings_locks(event)) >= {"name", "date", "tiebreakers"}
    with pytest.raises(ServiceError) as error:
        services.update_event_settings(event, **settings_of(event, name="Too late"))
    assert error.value.code == "event_finished"
    assert not Round.objects.exists()
