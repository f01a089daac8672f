"""The public check of an event's results log (issue 27): the page linked from the event's
page and its API answer, intact and after a row was changed behind the application's back."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.db import connection
from django.urls import reverse

from tests.factories import event_with_field
from tournaments import services
from tournaments.models import AuditEntry, Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    event = event_with_field(4)
    one, two = services.draw_next_game(event).tables.order_by("number")
    services.record_result(event, table=one, winner=one.seat_a, loser_score=95)
    services.record_result(event, table=two, winner=two.seat_b, loser_score=80)
    services.record_result(event, table=two, winner=two.seat_a, loser_score=80, reason="Oops")
    return event


def test_the_event_page_links_to_the_check(client, played):
    page = client.get(reverse("event", args=[played.pk]))
    assert reverse("event-verify", args=[played.pk]) in page.content.decode()


def test_an_intact_log_on_the_page_and_in_the_api(client, api, played):
    last = AuditEntry.objects.filter(event=played).order_by("pk").last()
    page = client.get(reverse("event-verify", args=[played.pk]))  # no login
    html = page.content.decode()
    assert page.status_code == 200
    assert "The log is intact." in html and last.digest in html
    assert '<dd class="col-12 col-sm-9" id="entries">3</dd>' in html
    answer = api.get(f"/api/v1/events/{played.pk}/audit/verify/")
    assert answer.status_code == 200
    assert answer.json() == {
        "entries": 3,
        "digest": last.digest,
        "intact": True,
        "first_mismatch": None,
    }


def test_a_changed_row_is_named_on_the_page_and_in_the_api(client, api, played):
    target = AuditEntry.objects.filter(event=played).order_by("pk")[1]
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tournaments_auditentry SET new = %s WHERE id = %s",
            [json.dumps(dict(target.new, loser_score=2)), target.pk],
        )
    html = client.get(reverse("event-verify", args=[played.pk])).content.decode()
    assert "The log was changed." in html and f"number {target.pk}," in html
    assert "The log is intact." not in html
    mismatch = api.get(f"/api/v1/events/{played.pk}/audit/verify/").json()["first_mismatch"]
    assert mismatch["id"] == target.pk and mismatch["action"] == "entered"
    assert mismatch["found"] == target.digest and mismatch["expected"] != target.digest


def test_a_draft_or_unknown_event_is_not_found(client, api, played):
    Event.objects.filter(pk=played.pk).update(status=Event.Status.DRAFT)
    assert client.get(reverse("event-verify", args=[played.pk])).status_code == 404
    assert api.get(f"/api/v1/events/{played.pk}/audit/verify/").status_code == 404
    assert api.get("/api/v1/events/987654/audit/verify/").status_code == 404


def test_the_api_is_in_the_openapi_schema(api):
    schema = api.get("/api/v1/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/v1/events/{event_id}/audit/verify/"]["get"]
    assert "200" in operation["responses"]


def test_a_new_entry_shows_at_once_and_a_deleted_last_one_is_said(client, played):
    url = reverse("event-verify", args=[played.pk])
    assert '<dd class="col-12 col-sm-9" id="entries">3</dd>' in client.get(url).content.decode()
    table = played.rounds.get().tables.order_by("number").first()
    services.record_result(played, table=table, winner=table.seat_b, loser_score=9, reason="x")
    html = client.get(url).content.decode()  # the head moved: not the cached check
    assert '<dd class="col-12 col-sm-9" id="entries">4</dd>' in html and "intact" in html
    last = AuditEntry.objects.filter(event=played).order_by("pk").last()
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM tournaments_auditentry WHERE id = %s", [last.pk])
    cache.clear()  # a check is kept a minute at the same head
    html = client.get(url).content.decode()
    assert "Entries are missing at its end." in html and "The log is intact." not in html
