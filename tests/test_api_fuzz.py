"""Property-based fuzzing of every API endpoint from the OpenAPI schema (schemathesis): for
generated input, valid and not, no response is a 5xx and every response matches the schema.

The requests go through the WSGI app in-process against the test database, which holds a
small running event so the event, standings, bracket and results routes have data to read.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.cache import cache
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error, response_schema_conformance

from config.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application)


@pytest.fixture
def running_event(django_db_blocker):
    from tests.factories import event_with_field
    from tournaments import services

    with django_db_blocker.unblock():
        event = event_with_field(6, name="Schemathesis night")
        table = services.draw_next_game(event).tables.order_by("number").first()
        services.record_result(event, table=table, winner=table.seat_a, loser_score=95)
    return event


@pytest.mark.django_db(transaction=True)
@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_no_server_error_and_responses_match_the_schema(case, running_event):
    cache.clear()  # the checkers' per-client throttle would answer 429 to most examples
    # The WSGI client does not decompress: ask for the plain body (browsers get it gzipped).
    case.call_and_validate(
        headers={"Accept-Encoding": "identity"},
        checks=[not_a_server_error, response_schema_conformance],
    )
