"""Issue 33's "an API journey does the treasurer's whole night with no page": the club's
treasurer, signed in with a token as a script is, sets the club's books, runs the door, the
side pool, the payout sheet and the close of a night through the API alone (the games are the
TD's, played by the tournament services), and reads the season's books. Every figure is the
one worked out by hand here, and the money is conserved to the cent: takings + carried in =
payouts + held back + carried out, each night and for the season."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.models import Season
from scoring.services import recompute_standings
from tests.factories import ClubMoneyFactory, UserFactory, event_with_field
from tournaments import services as tournament_services
from treasury import selectors
from treasury.models import ClubRole, ClubStaff, Payment

pytestmark = pytest.mark.django_db
D = Decimal


def _play(event, games: int) -> None:
    """The TD's night: ``games`` games, seat A winning every table, then finished."""
    for _ in range(games):
        round_ = tournament_services.draw_next_game(event)
        for table in round_.tables.filter(seat_b__isnull=False).order_by("number"):
            tournament_services.record_result(
                event, table=table, winner=table.seat_a, loser_score=80 + table.number % 40
            )
    tournament_services.finish_event(event)
    recompute_standings(event.pk, incremental=False)


def _ok(response, status: int = 200):
    assert response.status_code == status, response.content
    return response.json()


def _refused(response) -> list[tuple[str | None, str]]:
    assert response.status_code == 400, response.content
    return [(error["attr"], error["code"]) for error in response.json()["errors"]]


def _conserved(books: dict) -> None:
    """Takings + carried in = payouts + held back (the ACC's and the club's) + carried out."""
    money = {
        key: D(books.get(key, "0"))
        for key in ("takings", "carried_in", "payouts", "held_back", "to_club", "carried_out")
    }
    came_in = money["takings"] + money["carried_in"]
    went_out = money["payouts"] + money["held_back"] + money["to_club"] + money["carried_out"]
    assert came_in == went_out, books


@pytest.fixture
def club():
    return ClubMoneyFactory().club  # USD, a 1.00 coin, a 10.00 fee: the treasurer sets them


@pytest.fixture
def treasurer(club):
    """The club's treasurer (no TD), signed in with a DRF token."""
    user = UserFactory(username="tess")
    ClubStaff.objects.create(club=club, user=user, role=ClubRole.TREASURER)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + Token.objects.create(user=user).key)
    return client


def _club_books(treasurer, club) -> tuple[dict, dict]:
    """The club's money settings, payout table and pools: the 29 hand pool and the retired
    skunk pot."""
    base = f"/api/v1/clubs/{club.pk}/"
    settings = {
        "currency": "EUR",
        "coin": "0.50",
        "entry_fee": "7.50",
        "hold_back_name": "ACC",
        "hold_back_per_entrant": "1.00",
        "hold_back_percent": "0.00",
        "remainder_to": "carry",
        "unpaid_rule": "settle",
    }
    put = _ok(treasurer.put(base + "money/", settings | {"reason": "AGM"}, format="json"))
    assert put == settings | {"main_balance": "0.00"}
    assert _ok(treasurer.get(base + "money/")) == put

    rows = [
        {"min_entrants": 1, "percents": ["100"]},
        {"min_entrants": 4, "percents": ["60", "40"]},
        {"min_entrants": 10, "percents": ["50", "30", "20"]},
    ]
    table = _ok(treasurer.put(base + "money/payout-table/", {"rows": rows}, format="json"))
    assert table == {"default": False, "rows": rows, "problems": []}
    assert _ok(treasurer.get(base + "money/payout-table/")) == table
    preview = base + "money/payout-table/preview/?entrants={}&fee=7.50"
    # 8 x 7.50 = 60.00, less the ACC's 8 x 1.00: 52.00; 60% = 31.20 and 40% = 20.80 paid in
    # 0.50 coins, the 0.50 left carried.
    assert _ok(treasurer.get(preview.format(8))) == {
        "currency": "EUR",
        "paid_entrants": 8,
        "entry_fee": "7.50",
        "gross": "60.00",
        "held_back": [{"name": "ACC", "amount": "8.00"}],
        "pot": "52.00",
        "place_amounts": ["31.00", "20.50"],
        "remainder": "0.50",
        "remainder_to": "carry",
    }
    # 12 entrants: the three-place row, 78.00 as 39.00 / 23.40 / 15.60.
    twelve = _ok(treasurer.get(preview.format(12)))
    assert (twelve["pot"], twelve["place_amounts"], twelve["remainder"]) == (
        "78.00",
        ["39.00", "23.00", "15.50"],
        "0.50",
    )

    hand = _ok(
        treasurer.post(
            base + "pools/", {"name": "29 hand", "kind": "hand_29", "fee": "1.00"}, format="json"
        ),
        201,
    )
    assert (hand["fee"], hand["active"], hand["balance"], hand["payout_percent"]) == (
        "1.00",
        True,
        "0.00",
        "100.00",
    )
    skunk = _ok(
        treasurer.post(
            base + "pools/", {"name": "Skunk pot", "kind": "skunk", "fee": 0.5}, format="json"
        ),
        400,
    )  # a float fee is refused...
    assert [(e["attr"], e["code"]) for e in skunk["errors"]] == [("fee", "float")]
    skunk = _ok(
        treasurer.post(
            base + "pools/", {"name": "Skunk pot", "kind": "skunk", "fee": "0.50"}, format="json"
        ),
        201,
    )
    listed = _ok(treasurer.get(base + "pools/"))
    assert [(p["name"], p["active"]) for p in listed] == [("29 hand", True), ("Skunk pot", True)]
    retired = _ok(treasurer.patch(base + f"pools/{skunk['id']}/", {"active": False}, format="json"))
    assert retired["active"] is False and retired["fee"] == "0.50"
    listed = _ok(treasurer.get(base + "pools/"))
    assert [(p["name"], p["active"]) for p in listed] == [("29 hand", True), ("Skunk pot", False)]
    return hand, skunk


def test_the_treasurer_s_whole_night_by_api(treasurer, club):
    hand, skunk = _club_books(treasurer, club)

    # --- The night's fees: tonight's 29 hand pool; the retired skunk pot runs no new night ---
    event = event_with_field(8, club=club, name="Tuesday night")
    e = f"/api/v1/events/{event.pk}/"
    fees = {"entry_fee": "7.50", "pools": [{"pool": skunk["id"], "fee": "0.50"}]}
    assert _refused(treasurer.put(e + "fees/", fees, format="json")) == [("pools", "pool_retired")]
    fees = {"entry_fee": "7.50", "pools": [{"pool": hand["id"], "fee": "1.00"}]}
    assert _ok(treasurer.put(e + "fees/", fees, format="json")) == {
        "currency": "EUR",
        "coin": "0.50",
        "entry_fee": "7.50",
        "pools": [
            {
                "pool": hand["id"],
                "fee": "1.00",
                "name": "29 hand",
                "kind": "hand_29",
                "balance": "0.00",
            }
        ],
        "closed": False,
        "to_recheck": False,
    }

    # --- The games (the TD's): two games, and the winner is the one who never paid ---
    _play(event, games=2)
    places = [pk for pk, _place in selectors.final_place_list(event)]
    winner, second, waived, *paid = places

    # --- The door ---
    for pk in paid:  # five pay the fee
        body = _ok(treasurer.patch(e + f"entries/{pk}/payment/", {"status": "paid"}, format="json"))
        assert (body["status"], body["amount"], body["reason"]) == ("paid", "7.50", "")
    pay = e + f"entries/{second}/payment/"
    assert _refused(treasurer.patch(pay, {"status": "paid", "amount": "5.00"}, format="json")) == [
        ("reason", "reason_needed")
    ]
    nothing = {"status": "paid", "amount": "0.00", "reason": "forgot"}
    assert _refused(treasurer.patch(pay, nothing, format="json")) == [("amount", "paid_nothing")]
    as_float = treasurer.patch(pay, {"status": "paid", "amount": 7.5}, format="json")
    assert _refused(as_float) == [("amount", "bad_money")]  # a float is no amount
    part = {"status": "paid", "amount": "5.00", "reason": "half now, half next week"}
    body = _ok(treasurer.patch(pay, part, format="json"))
    assert (body["status"], body["amount"], body["reason"], body["owing"]) == (
        "paid",
        "5.00",
        "half now, half next week",
        2,
    )
    body = _ok(
        treasurer.patch(e + f"entries/{waived}/payment/", {"status": "waived"}, format="json")
    )
    assert (body["amount"], body["owing"]) == ("0.00", 1)
    body = _ok(
        treasurer.patch(e + f"entries/{winner}/payment/", {"status": "unpaid"}, format="json")
    )
    assert (body["status"], body["amount"], body["owing"]) == ("unpaid", "0.00", 1)

    # --- The 29 hand pool: three stake, one of them holds the hand ---
    stakers = paid[:3]
    for pk in stakers:
        body = _ok(
            treasurer.put(
                e + f"entries/{pk}/stakes/",
                {"stakes": [{"pool": hand["id"], "count": 1}]},
                format="json",
            )
        )
        assert body["stakes"] == [{"pool": hand["id"], "count": 1}]
    winners = e + f"pools/{hand['id']}/winners/"
    assert _refused(treasurer.put(winners, {"entries": [paid[4]]}, format="json")) == [
        ("entries", "winner_not_staked")
    ]
    night = _ok(treasurer.put(winners, {"entries": [stakers[1]]}, format="json"))
    assert (night["count"], night["takings"], night["named"], night["carried_out"]) == (
        3,
        "3.00",
        True,
        "0.00",
    )
    assert [(w["entry"], w["amount"]) for w in night["winners"]] == [(stakers[1], "3.00")]

    # --- The payout sheet: 5 x 7.50 + 5.00 taken; 6 paid entrants, the two-place row ---
    sheet = _ok(treasurer.get(e + "payouts/"))
    assert sheet["final"] is True and sheet["unpaid_rule"] == "settle"
    assert (sheet["paid_entrants"], sheet["gross"], sheet["carried_in"]) == (6, "42.50", "0.00")
    assert sheet["held_back"] == [{"name": "ACC", "amount": "6.00"}]
    # 36.50: 60% = 21.90 and 40% = 14.60 in 0.50 coins, 0.50 carried.
    assert (sheet["pot"], sheet["place_amounts"], sheet["remainder"]) == (
        "36.50",
        ["21.50", "14.50"],
        "0.50",
    )
    shares = [(s["entry"], s["place"], s["amount"], s["settled"]) for s in sheet["shares"]]
    assert shares == [(winner, 1, "14.00", "7.50"), (second, 2, "14.50", "0.00")]
    assert (sheet["settled"], sheet["carried_out"], sheet["to_club"]) == ("7.50", "8.00", "0.00")
    owing = [(o["entry"], o["owes"]) for o in sheet["owing"]]
    assert owing == [(winner, "7.50")]
    gross = sum(D(p.amount) for p in Payment.objects.filter(event=event, status="paid"))
    assert D(sheet["gross"]) == gross == D("42.50")
    handed = sum(D(s["amount"]) for s in sheet["shares"])
    assert D(sheet["gross"]) == handed + D("6.00") + D(sheet["carried_out"])

    # --- The ledger: the main pot and the 29 hand pool ---
    preview = _ok(treasurer.get(e + "ledger/"))
    expected = {
        "currency": "EUR",
        "takings": "45.50",  # 42.50 at the door and 3.00 of stakes
        "carried_in": "0.00",
        "payouts": "31.50",  # 14.00 + 14.50 + the 29 hand's 3.00
        "held_back": "6.00",
        "carried_out": "8.00",  # the fee settled from the prize and the 0.50 remainder
        "balance": "0.00",
    }
    assert preview["closed"] is False and preview | expected == preview
    _conserved(preview)
    settled = [
        (line["entry"], line["amount"])
        for line in preview["lines"]
        if line["label"] == "fee settled from the prize"
    ]
    assert settled == [(winner, "7.50")]

    # --- The close: who owes is confirmed first; re-opened and closed again ---
    close = e + "ledger/close/"
    assert _refused(treasurer.post(close, {}, format="json")) == [
        ("confirm_owing", "owing_not_confirmed")
    ]
    closed = _ok(treasurer.post(close, {"confirm_owing": True}, format="json"))
    assert closed["closed"] is True and closed | expected == closed
    assert closed["lines"] == preview["lines"]
    money = f"/api/v1/clubs/{club.pk}/money/"
    assert _ok(treasurer.get(money))["main_balance"] == "8.00"
    late = treasurer.patch(e + f"entries/{winner}/payment/", {"status": "paid"}, format="json")
    assert _refused(late) == [(None, "night_closed")]
    reopened = _ok(treasurer.post(e + "ledger/reopen/"))
    assert reopened["closed"] is False and reopened | expected == reopened
    assert _ok(treasurer.get(money))["main_balance"] == "0.00"
    assert _ok(treasurer.get(e + "fees/"))["closed"] is False
    closed = _ok(treasurer.post(close, {"confirm_owing": True}, format="json"))
    assert closed["closed"] is True and closed | expected == closed
    assert _ok(treasurer.get(money))["main_balance"] == "8.00"

    # --- A second night takes the 8.00 carried over ---
    later = event_with_field(4, club=club, name="Thursday night")
    n = f"/api/v1/events/{later.pk}/"
    assert _ok(treasurer.put(n + "fees/", {"entry_fee": "7.50", "pools": []}, format="json"))
    for entry in later.entries.all():
        _ok(treasurer.patch(n + f"entries/{entry.pk}/payment/", {"status": "paid"}, format="json"))
    _play(later, games=1)
    sheet = _ok(treasurer.get(n + "payouts/"))
    # 30.00 taken, 4.00 to the ACC, 8.00 carried in: 34.00; 20.40 and 13.60 in 0.50 coins.
    assert (sheet["gross"], sheet["carried_in"], sheet["pot"]) == ("30.00", "8.00", "34.00")
    assert (sheet["place_amounts"], sheet["carried_out"]) == (["20.00", "13.50"], "0.50")
    second_night = _ok(treasurer.post(n + "ledger/close/"))
    assert (second_night["takings"], second_night["carried_in"], second_night["balance"]) == (
        "30.00",
        "8.00",
        "0.00",
    )
    _conserved(second_night)

    # --- The season's books ---
    today = event.date
    season = Season.objects.create(
        club=club,
        name="2026-27",
        start=today - datetime.timedelta(days=60),
        end=today + datetime.timedelta(days=60),
    )
    books = _ok(treasurer.get(f"/api/v1/clubs/{club.pk}/seasons/{season.pk}/books/"))
    assert books["currency"] == "EUR" and books["open_nights"] == 0
    nights = {night["event"]: night for night in books["nights"]}
    assert list(nights) == [event.pk, later.pk]
    first = nights[event.pk]
    assert (first["takings"], first["payouts"], first["held_back"], first["to_club"]) == (
        "45.50",
        "31.50",
        "6.00",
        "0.00",
    )
    assert (first["carried_in"], first["carried_out"]) == ("0.00", "8.00")
    assert nights[later.pk]["carried_in"] == first["carried_out"]
    for night in books["nights"]:
        _conserved(night)
    # The season: what came in (the takings and the opening balance) went out to the cent.
    assert D(books["takings"]) == D("45.50") + D(second_night["takings"])
    came_in = D(books["takings"]) + D(books["opened_with"])
    went_out = (
        D(books["payouts"]) + D(books["held_back"]) + D(books["to_club"]) + D(books["closed_with"])
    )
    assert came_in == went_out
    assert books["closed_with"] == second_night["carried_out"]
    assert _ok(treasurer.get(money))["main_balance"] == books["closed_with"]


def test_a_pool_retired_during_its_night_keeps_that_night(treasurer, club):
    """Retiring a pool stops new nights running it, not the night that already runs it."""
    hand, skunk = _club_books(treasurer, club)
    event = event_with_field(4, club=club)
    e = f"/api/v1/events/{event.pk}/fees/"
    fees = {"entry_fee": "7.50", "pools": [{"pool": hand["id"], "fee": "1.00"}]}
    _ok(treasurer.put(e, fees, format="json"))
    pool = f"/api/v1/clubs/{club.pk}/pools/{hand['id']}/"
    _ok(treasurer.patch(pool, {"active": False}, format="json"))
    fees["entry_fee"] = "8.00"
    assert _ok(treasurer.put(e, fees, format="json"))["pools"][0]["pool"] == hand["id"]
    other = event_with_field(4, club=club)
    refused = treasurer.put(f"/api/v1/events/{other.pk}/fees/", fees, format="json")
    assert _refused(refused) == [("pools", "pool_retired")]
