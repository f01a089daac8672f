"""Correcting a saved table of several seats (Stoppa's nets, three-handed scores) names a
reason, by the services, the TD's pages and the API (issue 34, item 1): refused without one
(``reason_required``, nothing written), audited with the old and new nets and the reason
with one, and the same nets typed again change nothing."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse
from rest_framework.test import APIClient

from core.errors import ServiceError
from tests.factories import EntryFactory, EventFactory, UserFactory, stoppa_event_with_field
from tournaments import services
from tournaments.models import AuditEntry, StoppaTable
from tournaments.stoppa import services as services_stoppa
from tournaments.threehanded import services as services_three
from tournaments.threehanded.kind import KEY as THREE

pytestmark = pytest.mark.django_db


@pytest.fixture
def stoppa():
    """A released Stoppa session of six (two tables of three), its table 1 saved."""
    event = stoppa_event_with_field(
        6, table_size=3, min_table_size=3, names=("Anna Rossi", "Bea", "Cal", "Dan", "Eva", "Fio")
    )
    td = UserFactory(username="td-stoppa")
    event.club.directors.add(td)
    round_ = services.draw_next_game(event)
    table = round_.stoppa_tables.get(number=1)
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    services_stoppa.record_session_nets(
        event,
        table=table,
        nets={seats[0].entry_id: 12, seats[1].entry_id: -5, seats[2].entry_id: -7},
        user=td,
    )
    return event, table, seats, td


@pytest.fixture
def three():
    """A released three-handed game of six, its table 1 saved (the first seat won)."""
    cache.clear()
    event = EventFactory(game=THREE, name="Three-handed night", target=121)
    for name in ("Anna Rossi", "Bea", "Cal", "Dan", "Eva", "Fio"):
        EntryFactory(event=event, player__name=name)
    td = UserFactory(username="td-three")
    event.club.directors.add(td)
    round_ = services.draw_next_game(event)
    table = round_.stoppa_tables.get(number=1)
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    services_three.record_table_scores(
        event,
        table=table,
        scores={seats[0].entry_id: 121, seats[1].entry_id: 100, seats[2].entry_id: 90},
        user=td,
    )
    return event, table, seats, td


def nets_of(table: StoppaTable) -> list[int | None]:
    return list(table.seats.order_by("position").values_list("net", flat=True))


def negated(seats) -> dict[int, int]:
    return {seats[0].entry_id: -12, seats[1].entry_id: 5, seats[2].entry_id: 7}


# --- Services ------------------------------------------------------------------------------------


def test_stoppa_nets_changed_without_a_reason_are_refused(stoppa):
    event, table, seats, td = stoppa
    before = AuditEntry.objects.filter(event=event).count()
    for reason in ("", "   "):
        with pytest.raises(ServiceError) as refused:
            services_stoppa.record_session_nets(
                event, table=table, nets=negated(seats), user=td, reason=reason
            )
        assert refused.value.code == "reason_required" and refused.value.field == "reason"
        assert "Table 1 already has a result" in refused.value.message
    assert nets_of(table) == [12, -5, -7]
    assert AuditEntry.objects.filter(event=event).count() == before


def test_stoppa_nets_corrected_with_a_reason_are_audited_before_and_after(stoppa):
    event, table, seats, td = stoppa
    services_stoppa.record_session_nets(
        event, table=table, nets=negated(seats), user=td, reason="  Signs swapped on the sheet "
    )
    assert nets_of(table) == [-12, 5, 7]
    audit = AuditEntry.objects.filter(event=event).latest("pk")
    names = [s.entry.player.name for s in seats]
    assert audit.reason == "Signs swapped on the sheet"
    assert audit.old == {
        "session": 1,
        "table": 1,
        "nets": dict(zip(names, [12, -5, -7], strict=True)),
    }
    assert audit.new == {
        "session": 1,
        "table": 1,
        "nets": dict(zip(names, [-12, 5, 7], strict=True)),
    }
    assert audit.user == td


def test_the_same_nets_again_change_nothing_and_need_no_reason(stoppa):
    event, table, seats, td = stoppa
    before = AuditEntry.objects.filter(event=event).count()
    same = {seats[0].entry_id: 12, seats[1].entry_id: -5, seats[2].entry_id: -7}
    services_stoppa.record_session_nets(event, table=table, nets=same, user=td)
    assert AuditEntry.objects.filter(event=event).count() == before
    assert nets_of(table) == [12, -5, -7]


def test_three_handed_winner_swapped_needs_a_reason(three):
    event, table, seats, td = three
    swapped = {seats[0].entry_id: 100, seats[1].entry_id: 121, seats[2].entry_id: 90}
    with pytest.raises(ServiceError) as refused:
        services_three.record_table_scores(event, table=table, scores=swapped, user=td)
    assert refused.value.code == "reason_required"
    assert nets_of(table) == [121, 100, 90]
    services_three.record_table_scores(
        event, table=table, scores=swapped, user=td, reason="Winner keyed on the wrong seat"
    )
    assert nets_of(table) == [100, 121, 90]
    audit = AuditEntry.objects.filter(event=event, action="table_scores").latest("pk")
    assert audit.reason == "Winner keyed on the wrong seat"
    assert audit.old["nets"][seats[0].entry.player.name] == 121
    assert audit.new["nets"][seats[1].entry.player.name] == 121


def test_stoppa_deal_records_replacing_saved_nets_need_a_reason(stoppa):
    from tests.tournaments.test_stoppa_events import session_records

    event, table, seats, td = stoppa
    records = session_records([s.entry.player.name for s in seats], seed=11)
    with pytest.raises(ServiceError) as refused:
        services_stoppa.record_session_deals(event, table=table, deals=records, user=td)
    assert refused.value.code == "reason_required"
    assert nets_of(table) == [12, -5, -7]
    saved = services_stoppa.record_session_deals(
        event, table=table, deals=records, user=td, reason="The deal sheets came in"
    )
    assert saved.source == "deals" and sum(nets_of(table)) == 0
    audit = AuditEntry.objects.filter(event=event).latest("pk")
    assert audit.reason == "The deal sheets came in"
    assert audit.old["nets"][seats[0].entry.player.name] == 12


# --- The TD's pages ------------------------------------------------------------------------------


def test_the_stoppa_session_page_asks_a_reason_for_a_saved_table(client, stoppa):
    event, table, seats, td = stoppa
    client.force_login(td)
    url = reverse("td-session", args=[event.pk, 1])
    page = client.get(url).content.decode()
    assert f'id="s{table.pk}-reason"' in page and "Reason for the change" in page
    open_table = table.round.stoppa_tables.get(number=2)
    assert f'id="s{open_table.pk}-reason"' not in page
    posted = {"table": table.pk, "kind": "nets"} | {
        f"net_{pk}": v for pk, v in negated(seats).items()
    }
    refused = client.post(url, posted)
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "give a reason to change it" in body and "is-invalid" in body
    assert nets_of(table) == [12, -5, -7]
    # By HTMX the row comes back with the refusal beside the reason's field.
    row = client.post(url, posted, HTTP_HX_REQUEST="true").content.decode()
    assert "give a reason to change it" in row and "Saved." not in row
    saved = client.post(url, posted | {"reason": "Signs swapped"}, HTTP_HX_REQUEST="true")
    assert "Saved." in saved.content.decode()
    assert nets_of(table) == [-12, 5, 7]
    assert AuditEntry.objects.filter(event=event).latest("pk").reason == "Signs swapped"


def test_the_three_handed_game_page_asks_a_reason_for_a_saved_table(client, three):
    event, table, seats, td = three
    client.force_login(td)
    url = reverse("td-three-game", args=[event.pk, 1])
    page = client.get(url).content.decode()
    assert f'id="t{table.pk}-reason"' in page and "Reason for the change" in page
    swapped = {
        "table": table.pk,
        f"score_{seats[0].entry_id}": 100,
        f"score_{seats[1].entry_id}": 121,
        f"score_{seats[2].entry_id}": 90,
    }
    refused = client.post(url, swapped)
    assert refused.status_code == 400
    assert "give a reason to change it" in refused.content.decode()
    assert nets_of(table) == [121, 100, 90]
    assert client.post(url, swapped | {"reason": "Winner swapped"}).status_code == 302
    assert nets_of(table) == [100, 121, 90]
    assert AuditEntry.objects.filter(event=event).latest("pk").reason == "Winner swapped"


# --- The API -------------------------------------------------------------------------------------


def test_the_stoppa_api_needs_a_reason_to_correct(stoppa):
    event, table, seats, td = stoppa
    api = APIClient()
    api.force_authenticate(td)
    url = reverse("api-stoppa-results", args=[event.pk])
    body = {
        "session": 1,
        "table": 1,
        "nets": [{"entry": pk, "net": v} for pk, v in negated(seats).items()],
    }
    refused = api.post(url, body, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == "reason_required"
    assert nets_of(table) == [12, -5, -7]
    made = api.post(url, body | {"reason": "Signs swapped"}, format="json")
    assert made.status_code == 201, made.content
    assert nets_of(table) == [-12, 5, 7]
    assert AuditEntry.objects.filter(event=event).latest("pk").reason == "Signs swapped"


def test_the_three_handed_api_needs_a_reason_to_correct(three):
    event, table, seats, td = three
    api = APIClient()
    api.force_authenticate(td)
    url = f"/api/v1/events/{event.pk}/three-handed/results/"
    body = {
        "game": 1,
        "table": 1,
        "scores": [
            {"entry": seats[0].entry_id, "score": 100},
            {"entry": seats[1].entry_id, "score": 121},
            {"entry": seats[2].entry_id, "score": 90},
        ],
    }
    refused = api.post(url, body, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == "reason_required"
    made = api.post(url, body | {"reason": "Winner swapped"}, format="json")
    assert made.status_code == 201, made.content
    assert [s["score"] for s in made.json()["seats"]] == [100, 121, 90]


# --- A pending player report that prefills the TD's form says so (issue 34, item 1) ------------


def test_the_three_handed_page_says_a_players_report_prefilled_the_row(client, three):
    from results import services as result_services

    event, _table, _seats, td = three
    open_table = event.rounds.get(number=1).stoppa_tables.get(number=2)
    a, b, c = open_table.seats.select_related("entry__player").order_by("position")
    result_services.report_nets(
        result_services.key_for(a.entry).key,
        table=open_table.pk,
        nets={a.entry_id: 121, b.entry_id: 80, c.entry_id: 77},
    )
    client.force_login(td)
    page = client.get(reverse("td-three-game", args=[event.pk, 1])).content.decode()
    assert f"Prefilled from {a.entry.player.name}'s report: check it before saving." in page
    assert f"Still waiting for {b.entry.player.name}, {c.entry.player.name} to confirm." in page
    assert 'value="121"' in page and 'value="77"' in page
