"""Property-based fuzzing of the TD's API signed in as the event's TD (schemathesis): the
anonymous fuzz of ``test_api_fuzz`` stops at the 401; here generated input reaches the
services, and no answer may be a 5xx or stray from the schema."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.cache import cache
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error, response_schema_conformance

from config.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application).include(
    path_regex=r"^/api/v1/(clubs/|leagues/|events/\{event_id\}/(settings|finish|reopen|standings/publish"
    r"|entries|games|results/(correct|undo)|playoff|door|acc-report|mrp|registration|self-check-in"
    r"|pools)"
    r"|events/\{event_id\}/$)"
)


@pytest.fixture
def td_event(django_db_blocker):
    from rest_framework.authtoken.models import Token

    from tests.factories import UserFactory, event_with_field
    from tournaments import services

    with django_db_blocker.unblock():
        user = UserFactory(username="fuzz-td")
        event = event_with_field(6, name="Fuzz night")
        event.club.directors.add(user)
        table = services.draw_next_game(event).tables.order_by("number").first()
        services.record_result(event, table=table, winner=table.seat_a, loser_score=95)
        event.token = Token.objects.create(user=user).key
        event.league = league_with_teams(event.club, user)
    return event


def league_with_teams(club, user):
    """A league of the TD's club with two teams of two of its players (issue 28)."""
    import datetime

    from tests.factories import PlayerFactory
    from tournaments.leagues import services as leagues

    league = leagues.create_league(
        club,
        name="Fuzz league",
        season_start=datetime.date(2026, 9, 1),
        season_end=datetime.date(2027, 5, 31),
        leg_kinds=["doubles", "singles"],
        legs_per_player=0,
    )
    for name in ("Home", "Away"):
        ids = [PlayerFactory(home_club=club).pk for _ in range(2)]
        leagues.save_team(league, name=name, player_ids=ids, user=user)
    leagues.schedule_fixtures(league, user=user)
    return league


@pytest.mark.django_db(transaction=True)
@schema.parametrize()
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_td_routes_never_fail_on_garbage(case, td_event):
    cache.clear()
    # Half the cases aim at the TD's own event and club, so the input reaches the services.
    if case.path_parameters and "event_id" in case.path_parameters and hash(str(case.body)) % 2:
        case.path_parameters["event_id"] = td_event.pk
    if case.path_parameters and "club_id" in case.path_parameters and hash(str(case.body)) % 2:
        case.path_parameters["club_id"] = td_event.club_id
    if case.path_parameters and "league_id" in case.path_parameters and hash(str(case.body)) % 2:
        case.path_parameters["league_id"] = td_event.league.pk
    case.call_and_validate(
        headers={"Accept-Encoding": "identity", "Authorization": f"Token {td_event.token}"},
        checks=[not_a_server_error, response_schema_conformance],
    )
