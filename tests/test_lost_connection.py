"""A request whose database connection died (issue #23): run once more when safe (reads, a
player's report), else a 503 with Retry-After and the standard error body, never a 500."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import OperationalError, connection
from rest_framework.test import APIClient

from results import services
from results.models import Submission
from tests.conftest import require_service
from tests.factories import event_with_field
from tournaments import services as tournament_services
from tournaments.models import GameResult

pytestmark = pytest.mark.django_db

TERMINATED = "terminating connection due to administrator command"


@pytest.fixture
def table_keys():
    cache.clear()
    event = event_with_field(4)
    table = tournament_services.draw_next_game(event).tables.order_by("number").first()
    return table, services.key_for(table.seat_a).key, services.key_for(table.seat_b).key


@pytest.fixture
def drops(monkeypatch):
    """The next ``n`` look-ups of a player's key lose the database connection: the page's
    read of its key, or a report's locked read that finds the key and its table."""
    from results.services import keys
    from tournaments.services import results as tournament_results

    left = {"n": 0}

    def dropping(real):
        def look_up(*args, **kwargs):
            if left["n"] > 0:
                left["n"] -= 1
                raise OperationalError(TERMINATED)
            return real(*args, **kwargs)

        return look_up

    entry_for_key = dropping(keys.entry_for_key)
    for module in ("results.services", "results.views", "results.api"):
        target = __import__(module, fromlist=["services"])
        holder = getattr(target, "services", target)
        if hasattr(holder, "entry_for_key"):
            monkeypatch.setattr(holder, "entry_for_key", entry_for_key)
    monkeypatch.setattr(
        tournament_results, "report_locks", dropping(tournament_results.report_locks)
    )

    def drop(n: int) -> None:
        left["n"] = n

    return drop


def test_a_read_is_run_again_on_a_new_connection(client, table_keys, drops):
    _table, key, _other = table_keys
    drops(1)
    response = client.get(f"/k/{key}/")
    assert response.status_code == 200


def test_a_report_is_run_again_and_saved_once(table_keys, drops):
    table, key, _other = table_keys
    drops(1)
    response = APIClient().post(
        "/api/v1/results/report",
        {"key": key, "winner": "me", "loser_score": 88, "game": 1, "table": table.number},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert Submission.objects.filter(table=table).count() == 1


def test_the_report_form_on_the_page_is_run_again(client, table_keys, drops):
    table, key, _other = table_keys
    drops(1)
    response = client.post(
        f"/k/{key}/", {"action": "report", "table": table.pk, "winner": "me", "loser_score": 88}
    )
    assert response.status_code in (200, 302, 400)  # the form's own answer, not a 503 or 500
    assert response.status_code != 503


def test_a_write_not_marked_safe_is_a_503_with_retry_after(table_keys, drops):
    table, key, other = table_keys
    api = APIClient()
    where = {"game": 1, "table": table.number}
    api.post(
        "/api/v1/results/report",
        {"key": key, "winner": "me", "loser_score": 88, **where},
        format="json",
    )
    drops(1)
    response = api.post(
        "/api/v1/results/dispute", {"key": other, "reason": "no", **where}, format="json"
    )
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert response.json()["errors"][0]["code"] == "database_unavailable"
    assert not GameResult.objects.filter(table=table).exists()


def test_a_second_loss_is_a_503_page_not_a_500(client, table_keys, drops):
    _table, key, _other = table_keys
    drops(2)
    response = client.get(f"/k/{key}/")
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert "Try again" in response.content.decode()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_connection_terminated_by_postgresql_is_replaced(client):
    require_service("PostgreSQL", connection.vendor == "postgresql", "DATABASE_URL=postgres://")
    import psycopg

    event = event_with_field(4, name="Terminated night")
    tournament_services.draw_next_game(event)
    assert client.get(f"/events/{event.pk}/").status_code == 200
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    settings = connection.settings_dict
    with psycopg.connect(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        dbname=settings["NAME"],
        autocommit=True,
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    assert client.get(f"/events/{event.pk}/").status_code == 200
