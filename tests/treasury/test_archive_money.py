"""The night's money in the event archive (issue 27): the door, the pools and the closed
ledger, for readers; the archive still imports, and the importing club's pots do not move."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.core.serializers.json import DjangoJSONEncoder

from results.archive import export_event, import_event
from tests.factories import ClubFactory, event_with_field
from tests.treasury.test_services import _play, club_books  # noqa: F401 - the shared night
from treasury import selectors, services

pytestmark = pytest.mark.django_db


def test_a_closed_night_exports_its_money_and_imports_without_it(club_books, td_user):  # noqa: F811
    club, q_pool, _hand_29 = club_books
    event = event_with_field(8, club=club, name="Année Zoë")
    entries = list(event.entries.order_by("pk"))
    services.set_event_fees(event, "10", {q_pool.pk: "5"}, user=td_user)
    for entry in entries[:7]:
        services.set_payment(event, entry.pk, "paid", user=td_user)
    services.set_payment(event, entries[7].pk, "waived", user=td_user)
    for entry in entries[:4]:
        services.set_pool_stake(event, q_pool.pk, entry.pk, user=td_user)
    _play(event, 2)
    ledger = services.close_night(event, user=td_user)

    data = json.loads(json.dumps(export_event(event), cls=DjangoJSONEncoder))
    money = data["money"]
    assert (money["currency"], money["entry_fee"]) == ("USD", "10.00")
    assert [p["status"] for p in money["payments"]] == ["paid"] * 7 + ["waived"]
    assert [p["amount"] for p in money["payments"]][:7] == ["10.00"] * 7
    (pool,) = money["pools"]
    assert (pool["name"], pool["fee"], len(pool["stakes"])) == ("Q-pool", "5.00", 4)
    books = money["ledger"]
    assert Decimal(books["takings"]) == ledger.takings == Decimal(70 + 20)
    lines = books["lines"]
    assert sum(Decimal(line["amount"]) for line in lines if line["item"] == "payout") == (
        ledger.payouts
    )
    # Entry refs name the archive's entries, not the database's ids.
    refs = {e["ref"] for e in data["entries"]}
    assert {p["entry"] for p in money["payments"]} <= refs

    fresh = ClubFactory(name="Elsewhere")
    copy = import_event(data, club=fresh)
    assert copy.entries.count() == 8
    assert selectors.club_money(fresh).main_balance == 0  # the import moves no club's pots
    assert selectors.stored_ledger(copy) is None
