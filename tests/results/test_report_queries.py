"""A player's report in a handful of queries (issue 26): a first report, a confirming one
(the one that writes the result), a disagreeing one, and the same journeys on the private
page, counted through the API and the page as a phone sends them, on SQLite and PostgreSQL.

Counted as the issue counts (BEGIN and COMMIT included; in a test they are the savepoint
of the service's transaction). Before: 12 / 28 on SQLite for a first and a confirming report
through the API (13 / 27 on PostgreSQL, bench/reports.py), 14 / 30 on the private page (15 /
29), and a refused report on the page rendered the whole page again (118 KB here, the
deal-by-deal editor's card lists twice). Now 6 / 10 on both (the page: 7 / 11, its own read
of its key first): the key, the entry, the event and the table are found in the statement
that takes the locks, the table read once after it, the versions only where someone
reported, and the audit rows go in with the result.

Issue 27 chains the audit log (tournaments.audit_chain): every report that writes audit
rows reads the event's chain head under its lock first, one statement more (7 / 11, the
page 8 / 12; the INSERT's trigger moves the head). Reading the head with the table would
need the head's lock from the first statement on, and reports at other tables would queue
behind each other again.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from results.models import Dispute, Submission
from tournaments.models import AuditEntry, Event, GameResult

pytestmark = pytest.mark.django_db

REPORT = "/api/v1/results/report"
CONFIRM = "/api/v1/results/confirm"


def statements(queries: CaptureQueriesContext) -> list[str]:
    """Every statement a request sent, counted as the issue counts them: in here the
    service's transaction is a savepoint of the test's (SAVEPOINT ... RELEASE), in production
    a transaction of its own (BEGIN ... COMMIT), one statement each either way."""
    return [q["sql"] for q in queries.captured_queries]


def sent(do) -> tuple[object, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        response = do()
    return response, statements(queries)


def test_a_first_report_costs_seven_statements(night, api):
    """Begin; lock and find (key, entry, event, table); read the table (its event, players,
    result, dispute, whether anyone reported); insert the version; lock and read the audit
    chain's head; insert the audit row (its trigger moves the head); commit."""
    event, table, key_a, _key_b = night
    where = {"game": 1, "table": table.number}
    body = {"key": key_a, "winner": "me", "loser_score": 88, **where}
    response, sql = sent(lambda: api.post(REPORT, body, format="json"))
    assert response.status_code == 201 and response.json()["state"] == "pending"
    assert len(sql) <= 7, sql
    assert sum(s.startswith("INSERT") for s in sql) == 2
    # One row by its key, read unsorted: the models' ordering cost a third of the report's
    # query time to build and plan on PostgreSQL.
    (read,) = [s for s in sql if s.startswith('SELECT "tournaments_table"')]
    assert "ORDER BY" not in read and not read.endswith("LIMIT 1")
    assert AuditEntry.objects.get(table=table).action == "submitted"
    # Sent again (a double tap, an offline phone's replay): the stored version stands.
    response, sql = sent(lambda: api.post(REPORT, body, format="json"))
    assert response.status_code == 200 and response.json()["state"] == "duplicate"
    assert len(sql) <= 5 and Submission.objects.filter(table=table).count() == 1


def test_a_confirming_report_writes_the_result_in_eleven(
    night, api, django_capture_on_commit_callbacks
):
    event, table, key_a, key_b = night
    where = {"game": 1, "table": table.number}
    api.post(REPORT, {"key": key_a, "winner": "me", "loser_score": 88, **where}, format="json")
    with django_capture_on_commit_callbacks() as hooks:
        response, sql = sent(
            lambda: api.post(
                CONFIRM,
                {"key": key_b, "winner": "opponent", "loser_score": 88, **where},
                format="json",
            )
        )
    assert response.status_code == 201 and response.json()["state"] == "confirmed"
    # + theirs agreed, the version, the result, the audit rows, the event's results version
    assert len(sql) <= 11, sql
    result = GameResult.objects.get(table=table)
    assert (result.winner_id, result.loser_score, result.skunk_level) == (table.seat_a_id, 88, 1)
    assert list(
        AuditEntry.objects.filter(table=table).order_by("pk").values_list("action", flat=True)
    ) == ["submitted", "submitted", "confirmed"]
    assert sorted(Submission.objects.filter(table=table).values_list("status", flat=True)) == [
        "agreed",
        "confirmed",
    ]
    # The standings are queued once the transaction commits, not in it.
    assert len(hooks) == 1
    assert Event.objects.get(pk=event.pk).results_version == 1


def test_an_agreeing_report_confirms_and_a_disagreeing_one_disputes(night, api):
    event, table, key_a, key_b = night
    where = {"game": 1, "table": table.number}
    api.post(REPORT, {"key": key_a, "winner": "me", "loser_score": 88, **where}, format="json")
    response, sql = sent(
        lambda: api.post(
            REPORT, {"key": key_b, "winner": "me", "loser_score": 70, **where}, format="json"
        )
    )
    assert response.status_code == 201 and response.json()["state"] == "disputed"
    # + the versions, theirs disputed, the dispute, the audit rows, the chain's head
    assert len(sql) <= 10, sql
    assert Dispute.objects.get(table=table).is_open
    assert set(Submission.objects.filter(table=table).values_list("status", flat=True)) == {
        "disputed"
    }
    assert list(
        AuditEntry.objects.filter(table=table).order_by("pk").values_list("action", flat=True)
    ) == ["submitted", "submitted", "disputed"]


def test_the_private_page_costs_the_api_and_its_own_key(night, client):
    """The page reads its key first (the player's language, the kind of game), then reports
    as the API does; a report taken is a redirect (PRG)."""
    event, table, key_a, key_b = night
    response, sql = sent(
        lambda: client.post(
            f"/k/{key_a}/",
            {"action": "report", "table": table.pk, "winner": "me", "loser_score": 88},
        )
    )
    assert response.status_code == 302 and len(sql) <= 8, sql
    version = Submission.objects.get(table=table)
    response, sql = sent(
        lambda: client.post(
            f"/k/{key_b}/", {"action": "confirm", "table": table.pk, "version": version.pk}
        )
    )
    assert response.status_code == 302 and len(sql) <= 12, sql
    assert GameResult.objects.get(table=table).winner_id == table.seat_a_id


def test_a_refused_report_answers_with_the_form_not_the_whole_page(night, client):
    event, table, key_a, _key_b = night
    page = client.get(f"/k/{key_a}/")
    bad = {"action": "report", "table": table.pk, "winner": "me", "loser_score": 140}
    response, sql = sent(lambda: client.post(f"/k/{key_a}/", bad))
    body = response.content.decode()
    assert response.status_code == 400
    # The error beside the score, the values kept; without the games list and the deal
    # editor's card lists (a link leads back to them).
    assert (
        'id="id_loser_score" name="loser_score" type="number" inputmode="numeric" value="140"'
        in body
    )
    assert "invalid-feedback" in body and "Your games" not in body
    assert len(response.content) < 12_000 < len(page.content) / 4, len(response.content)
    assert len(sql) <= 11, sql
    assert not Submission.objects.filter(table=table).exists()
    # With HTMX, only the game's card (a 200: HTMX swaps only those).
    partial = client.post(f"/k/{key_a}/", bad, headers={"HX-Request": "true"})
    assert partial.status_code == 200 and b"<html" not in partial.content
    assert b'id="player-live"' in partial.content and b"invalid-feedback" in partial.content
    assert len(partial.content) < 6_000, len(partial.content)
