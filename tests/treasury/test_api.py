"""The money desk's TD API: fees, the door, the payout sheet and the ledger; bad input is a 400
with a code, another club's event a 404, never a 500."""

from __future__ import annotations

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from scoring.services import recompute_standings
from tests.factories import (
    ClubFactory,
    ClubMoneyFactory,
    SidePoolFactory,
    UserFactory,
    event_with_field,
)
from tournaments import services as tournament_services
from treasury.models import Payment, SidePool

pytestmark = pytest.mark.django_db


@pytest.fixture
def td(api, td_user):
    api.force_authenticate(td_user)
    return api


@pytest.fixture
def event(td_user):
    money = ClubMoneyFactory(coin=Decimal("0.25"), entry_fee=Decimal(5))
    found = event_with_field(8, club=money.club, name="Tuesday night")
    found.club.directors.add(td_user)
    return found


def _codes(response) -> list[str]:
    return [error["code"] for error in response.json()["errors"]]


def test_fees_are_read_and_set(td, event):
    pool = SidePoolFactory(club=event.club, name="29 hand", kind=SidePool.Kind.HAND_29)
    url = f"/api/v1/events/{event.pk}/fees/"
    got = td.get(url)
    assert got.status_code == 200
    assert got.json() | {"pools": []} == {
        "currency": "USD",
        "coin": "0.25",
        "entry_fee": "5.00",
        "pools": [],
        "closed": False,
        "to_recheck": False,
    }
    put = td.put(
        url, {"entry_fee": "7.50", "pools": [{"pool": pool.pk, "fee": "1"}]}, format="json"
    )
    assert put.status_code == 200, put.json()
    body = put.json()
    assert body["entry_fee"] == "7.50"
    assert body["pools"] == [
        {"pool": pool.pk, "fee": "1.00", "name": "29 hand", "kind": "hand_29", "balance": "0.00"}
    ]


def test_a_payment_is_patched_one_entry_at_a_time(td, event):
    entry = event.entries.first()
    url = f"/api/v1/events/{event.pk}/entries/{entry.pk}/payment/"
    response = td.patch(url, {"status": "paid"}, format="json")
    assert response.status_code == 200
    assert response.json() == {
        "entry": entry.pk,
        "player": entry.player.name,
        "status": "paid",
        "amount": "5.00",
        "reason": "",
        "owing": 7,
    }
    assert Payment.objects.get(entry=entry).status == "paid"


def test_the_payout_sheet_and_the_ledger_balance(td, event, td_user):
    for entry in event.entries.all():
        td.patch(
            f"/api/v1/events/{event.pk}/entries/{entry.pk}/payment/",
            {"status": "paid"},
            format="json",
        )
    round_ = tournament_services.draw_next_game(event)
    for table in round_.tables.order_by("number"):
        tournament_services.record_result(
            event, table=table, winner=table.seat_a, loser_score=90 + table.number
        )
    recompute_standings(event.pk, incremental=False)
    sheet = td.get(f"/api/v1/events/{event.pk}/payouts/").json()
    assert (sheet["paid_entrants"], sheet["gross"], sheet["pot"]) == (8, "40.00", "40.00")
    assert sheet["final"] is False  # the event still runs: the current places
    assert sheet["place_amounts"] == ["26.50", "13.25"]  # two places: 2/3 and 1/3 of 40
    paid = sum(Decimal(s["amount"]) for s in sheet["shares"])
    assert paid + Decimal(sheet["carried_out"]) + Decimal(sheet["to_club"]) == Decimal(40)
    ledger = td.get(f"/api/v1/events/{event.pk}/ledger/").json()
    assert ledger["closed"] is False and ledger["balance"] == "0.00"
    closed = td.post(f"/api/v1/events/{event.pk}/ledger/close/")
    assert closed.status_code == 200 and closed.json()["closed"] is True
    assert closed.json()["balance"] == "0.00"
    again = td.post(f"/api/v1/events/{event.pk}/ledger/close/")
    assert again.status_code == 400 and _codes(again) == ["night_closed"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"status": "maybe"}, "invalid_choice"),
        ({"status": "paid", "amount": "-3"}, "bad_money"),
        ({"status": "paid", "amount": "abc"}, "bad_money"),
        ({"status": "paid", "amount": "1.999"}, "bad_money"),
        ({"status": "paid", "amount": "-0.00"}, "bad_money"),
        ({"status": "paid", "amount": "1E+2"}, "bad_money"),
        ({"status": "paid", "amount": "1_0"}, "bad_money"),
        ({"status": "paid", "amount": "\u0665"}, "bad_money"),
        ({"status": "paid", "amount": 7.5}, "bad_money"),
        ({"status": "paid", "amount": "750.00"}, "bad_money"),
        ({"status": "paid", "amount": "0.00"}, "paid_nothing"),
        ({"status": "paid", "amount": "2.50"}, "reason_needed"),
        ({}, "required"),
    ],
)
def test_a_bad_payment_is_a_400_with_a_code(td, event, body, code):
    entry = event.entries.first()
    response = td.patch(
        f"/api/v1/events/{event.pk}/entries/{entry.pk}/payment/", body, format="json"
    )
    assert response.status_code == 400
    assert _codes(response) == [code]


def test_bad_fees_and_unknown_rows_are_400s_with_codes(td, event):
    url = f"/api/v1/events/{event.pk}/fees/"
    for bad in ("NaN", "9999999999.99", "1E+9", "10000.01", "-0.00", 5.5):
        refused = td.put(url, {"entry_fee": bad}, format="json")
        assert refused.status_code == 400 and _codes(refused) == ["bad_money"], bad
    unknown_pool = td.put(
        url, {"entry_fee": "5", "pools": [{"pool": 999, "fee": "1"}]}, format="json"
    )
    assert unknown_pool.status_code == 400 and _codes(unknown_pool) == ["unknown_pool"]
    other = event_with_field(1).entries.get()
    response = td.patch(
        f"/api/v1/events/{event.pk}/entries/{other.pk}/payment/", {"status": "paid"}, format="json"
    )
    assert response.status_code == 400 and _codes(response) == ["unknown_entry"]


def test_another_clubs_td_and_anonymous_callers_are_kept_out(api, event):
    assert api.get(f"/api/v1/events/{event.pk}/payouts/").status_code == 401
    user = UserFactory(username="elsewhere")
    ClubFactory().directors.add(user)
    client = APIClient()
    client.force_authenticate(user)
    assert client.get(f"/api/v1/events/{event.pk}/ledger/").status_code == 404
    entry = event.entries.first()
    assert (
        client.patch(
            f"/api/v1/events/{event.pk}/entries/{entry.pk}/payment/",
            {"status": "paid"},
            format="json",
        ).status_code
        == 404
    )


def test_the_api_keeps_the_dot_in_any_language(td, event):
    """Pages read "7,50" in Italian (issue 33); the API keeps plain decimals whatever the
    language asked for: "7.50" in, "7.50" out, "7,50" a 400."""
    url = f"/api/v1/events/{event.pk}/fees/?lang=it"
    put = td.put(url, {"entry_fee": "7.50"}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert put.status_code == 200 and put.json()["entry_fee"] == "7.50"
    assert td.get(url, HTTP_ACCEPT_LANGUAGE="it").json()["entry_fee"] == "7.50"
    refused = td.put(url, {"entry_fee": "7,50"}, format="json", HTTP_ACCEPT_LANGUAGE="it")
    assert refused.status_code == 400
