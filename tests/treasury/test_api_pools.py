"""An event's side pools by API (issue 33, item 13): the night's pools with stakes and winners,
an entry's stakes, a pool's winners, and re-opening a closed night; for the club's TDs and
treasurers, 401 anonymous, 404 another club, 400 with a code when refused."""

from __future__ import annotations

from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from tests.factories import (
    ClubFactory,
    ClubMoneyFactory,
    SidePoolFactory,
    UserFactory,
    event_with_field,
)
from treasury import services
from treasury.models import ClubRole, ClubStaff, PoolEntry, SidePool

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(td_user):
    money = ClubMoneyFactory(entry_fee=Decimal(5), coin=Decimal("0.25"))
    found = event_with_field(4, club=money.club, name="Tuesday")
    found.club.directors.add(td_user)
    return found


@pytest.fixture
def pools(event):
    hand = SidePoolFactory(club=event.club, name="29 hand", kind=SidePool.Kind.HAND_29)
    skunk = SidePoolFactory(club=event.club, name="Skunks", kind=SidePool.Kind.SKUNK)
    services.set_event_fees(event, "5", {hand.pk: "1", skunk.pk: "0.25"})
    return hand, skunk


@pytest.fixture
def treasurer(event):
    user = UserFactory(username="tess")
    ClubStaff.objects.create(club=event.club, user=user, role=ClubRole.TREASURER)
    client = APIClient()
    client.force_authenticate(user)
    return client


def _codes(response) -> list[str]:
    return [e["code"] for e in response.json()["errors"]]


def test_an_entrys_stakes_are_put_and_the_nights_pools_show_them(treasurer, event, pools):
    hand, skunk = pools
    entries = list(event.entries.order_by("player__name"))
    url = f"/api/v1/events/{event.pk}/entries/{entries[0].pk}/stakes/"
    put = treasurer.put(
        url,
        {"stakes": [{"pool": hand.pk, "count": 1}, {"pool": skunk.pk, "count": 3}]},
        format="json",
    )
    assert put.status_code == 200, put.json()
    assert put.json()["stakes"] == [{"pool": hand.pk, "count": 1}, {"pool": skunk.pk, "count": 3}]
    treasurer.put(
        f"/api/v1/events/{event.pk}/entries/{entries[1].pk}/stakes/",
        {"stakes": [{"pool": hand.pk, "count": 1}]},
        format="json",
    )
    # A pool left out is 0: the first entry leaves the skunk pot.
    out = treasurer.put(url, {"stakes": [{"pool": hand.pk, "count": 1}]}, format="json")
    assert out.json()["stakes"] == [{"pool": hand.pk, "count": 1}]
    assert not PoolEntry.objects.filter(pool=skunk).exists()
    nights = treasurer.get(f"/api/v1/events/{event.pk}/pools/")
    assert nights.status_code == 200
    by_name = {n["name"]: n for n in nights.json()}
    assert by_name["29 hand"]["fee"] == "1.00" and by_name["29 hand"]["count"] == 2
    assert by_name["29 hand"]["takings"] == "2.00"
    assert sorted(s["entry"] for s in by_name["29 hand"]["stakes"]) == sorted(
        [entries[0].pk, entries[1].pk]
    )
    assert by_name["Skunks"]["stakes"] == [] and by_name["Skunks"]["winners"] == []


def test_a_pools_winners_are_named_and_paid(treasurer, event, pools):
    hand, _skunk = pools
    first, second = list(event.entries.order_by("player__name"))[:2]
    for entry in (first, second):
        services.set_pool_stake(event, hand.pk, entry.pk, 1)
    url = f"/api/v1/events/{event.pk}/pools/{hand.pk}/winners/"
    named = treasurer.put(url, {"entries": [first.pk]}, format="json")
    assert named.status_code == 200, named.json()
    assert named.json()["named"] is True
    assert named.json()["winners"] == [
        {"entry": first.pk, "player": first.player.name, "amount": "2.00"}
    ]
    twice = treasurer.put(url, {"entries": [first.pk, first.pk]}, format="json")
    assert twice.status_code == 400 and _codes(twice) == ["bad_pool_winners"]
    half = treasurer.put(url, {"entries": [first.pk], "payout_percent": 50.0}, format="json")
    assert _codes(half) == ["float"]
    cleared = treasurer.put(url, {"entries": []}, format="json")
    assert cleared.json()["named"] is False


def test_refused_stakes_are_400s_and_other_clubs_404s(api, treasurer, event, pools):
    hand, _skunk = pools
    entry = event.entries.first()
    url = f"/api/v1/events/{event.pk}/entries/{entry.pk}/stakes/"
    unrun = SidePoolFactory(club=event.club, name="Q-pool", kind=SidePool.Kind.Q_POOL)
    refused = treasurer.put(url, {"stakes": [{"pool": unrun.pk, "count": 1}]}, format="json")
    assert refused.status_code == 400 and _codes(refused) == ["unknown_pool"]
    too_many = treasurer.put(url, {"stakes": [{"pool": hand.pk, "count": 1000}]}, format="json")
    assert _codes(too_many) == ["max_value"]
    other = event_with_field(1).entries.get()
    wrong = treasurer.put(
        f"/api/v1/events/{event.pk}/entries/{other.pk}/stakes/",
        {"stakes": [{"pool": hand.pk, "count": 1}]},
        format="json",
    )
    assert wrong.status_code == 400 and _codes(wrong) == ["unknown_entry"]
    assert api.get(f"/api/v1/events/{event.pk}/pools/").status_code == 401
    user = UserFactory(username="elsewhere")
    ClubFactory().directors.add(user)
    stranger = APIClient()
    stranger.force_authenticate(user)
    assert stranger.get(f"/api/v1/events/{event.pk}/pools/").status_code == 404
    assert stranger.put(url, {"stakes": []}, format="json").status_code == 404
    assert stranger.post(f"/api/v1/events/{event.pk}/ledger/reopen/").status_code == 404


def test_the_treasurer_closes_and_reopens_the_night(treasurer, event, pools):
    for entry in event.entries.all():
        services.set_payment(event, entry.pk, "paid")
    reopen = f"/api/v1/events/{event.pk}/ledger/reopen/"
    not_closed = treasurer.post(reopen)
    assert not_closed.status_code == 400 and _codes(not_closed) == ["night_not_closed"]
    assert treasurer.post(f"/api/v1/events/{event.pk}/ledger/close/").json()["closed"] is True
    reopened = treasurer.post(reopen)
    assert reopened.status_code == 200 and reopened.json()["closed"] is False
    assert reopened.json()["balance"] == "0.00"
