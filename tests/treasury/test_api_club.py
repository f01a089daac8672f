"""A club's books by API (issue 33, item 13): money settings, the payout table and its preview,
side pools, treasurers. TDs and treasurers of the club; 401 anonymous, 404 another club; a
refused call is a 400 with a code on each bad field; floats are refused."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core import mail
from rest_framework.test import APIClient

from tests.factories import ClubFactory, ClubMoneyFactory, SidePoolFactory, UserFactory
from treasury.models import ClubAudit, ClubRole, ClubStaff, PayoutTableRow, SidePool

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(td_user):
    found = ClubMoneyFactory(entry_fee=Decimal(10), coin=Decimal(1)).club
    found.directors.add(td_user)
    return found


@pytest.fixture
def td(api, td_user):
    api.force_authenticate(td_user)
    return api


@pytest.fixture
def treasurer(club):
    user = UserFactory(username="tess")
    ClubStaff.objects.create(club=club, user=user, role=ClubRole.TREASURER)
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def stranger():
    user = UserFactory(username="elsewhere")
    ClubFactory().directors.add(user)
    client = APIClient()
    client.force_authenticate(user)
    return client


def _errors(response) -> list[tuple[str | None, str]]:
    return [(e["attr"], e["code"]) for e in response.json()["errors"]]


def test_every_club_route_is_401_anonymous_and_404_for_another_club(api, stranger, club):
    pool = SidePoolFactory(club=club)
    base = f"/api/v1/clubs/{club.pk}/"
    routes = [
        "money/",
        "money/payout-table/",
        "money/payout-table/preview/?entrants=8&fee=10",
        "pools/",
        f"pools/{pool.pk}/",
        "treasurers/",
    ]
    for route in routes:
        assert api.get(base + route).status_code == 401, route
        assert stranger.get(base + route).status_code == 404, route
    assert stranger.put(base + "money/", {"entry_fee": "5"}, format="json").status_code == 404
    assert (
        stranger.patch(base + f"pools/{pool.pk}/", {"active": False}, format="json").status_code
        == 404
    )


def test_the_money_settings_are_read_and_changed_by_the_treasurer(treasurer, club):
    url = f"/api/v1/clubs/{club.pk}/money/"
    got = treasurer.get(url)
    assert got.status_code == 200
    assert got.json() == {
        "currency": "USD",
        "coin": "1.00",
        "entry_fee": "10.00",
        "hold_back_name": "ACC",
        "unpaid_rule": "settle",
        "hold_back_per_entrant": "0.00",
        "hold_back_percent": "0.00",
        "remainder_to": "carry",
        "main_balance": "0.00",
    }
    put = treasurer.put(
        url,
        {"entry_fee": "12.50", "hold_back_per_entrant": "1", "remainder_to": "top"},
        format="json",
    )
    assert put.status_code == 200, put.json()
    assert (put.json()["entry_fee"], put.json()["remainder_to"]) == ("12.50", "top")
    assert put.json()["currency"] == "USD"  # left out: unchanged
    log = ClubAudit.objects.get(club=club, action="club_money_set")
    assert log.actor == "tess"
    assert log.old == {
        "entry_fee": "10.00",
        "hold_back_per_entrant": "0.00",
        "remainder_to": "carry",
    }


@pytest.mark.parametrize(
    ("body", "attr", "code"),
    [
        ({"entry_fee": 12.5}, "entry_fee", "float"),
        ({"entry_fee": "-1"}, "entry_fee", "min_value"),
        ({"entry_fee": "NaN"}, "entry_fee", "invalid"),
        ({"hold_back_percent": "101"}, "hold_back_percent", "max_value"),
        ({"remainder_to": "pocket"}, "remainder_to", "invalid_choice"),
        ({"coin": "0"}, "coin", "bad_coin"),
        ({"hold_back_name": ""}, "hold_back_name", "blank"),
        ({"currency": "EURO"}, "currency", "max_length"),
        ({"main_balance": "1000"}, None, None),  # read only: ignored
    ],
)
def test_bad_money_settings_are_400s_with_codes(td, club, body, attr, code):
    response = td.put(f"/api/v1/clubs/{club.pk}/money/", body, format="json")
    if code is None:
        assert response.status_code == 200 and response.json()["main_balance"] == "0.00"
        return
    assert response.status_code == 400
    assert _errors(response)[0][1] == code
    if attr:
        assert _errors(response)[0][0] == attr


def test_the_payout_table_is_replaced_and_read_back(treasurer, club):
    url = f"/api/v1/clubs/{club.pk}/money/payout-table/"
    assert treasurer.get(url).json() == {"default": True, "rows": [], "problems": []}
    rows = [{"min_entrants": 1, "percents": [100]}, {"min_entrants": 8, "percents": ["65", 35]}]
    put = treasurer.put(url, {"rows": rows, "reason": "AGM"}, format="json")
    assert put.status_code == 200, put.json()
    assert put.json() == {
        "default": False,
        "rows": [
            {"min_entrants": 1, "percents": ["100"]},
            {"min_entrants": 8, "percents": ["65", "35"]},
        ],
        "problems": [],
    }
    assert ClubAudit.objects.get(club=club, action="payout_table_set").reason == "AGM"
    preview = treasurer.get(url + "preview/?entrants=8&fee=7.50")
    assert preview.status_code == 200
    assert preview.json() | {"held_back": []} == {
        "currency": "USD",
        "paid_entrants": 8,
        "entry_fee": "7.50",
        "gross": "60.00",
        "held_back": [],
        "pot": "60.00",
        "place_amounts": ["39.00", "21.00"],
        "remainder": "0.00",
        "remainder_to": "carry",
    }
    cleared = treasurer.put(url, {"rows": []}, format="json")
    assert cleared.json()["default"] is True


def test_a_bad_payout_table_names_every_bad_field(td, club):
    url = f"/api/v1/clubs/{club.pk}/money/payout-table/"
    rows = [
        {"min_entrants": 1, "percents": [10, 20, 70]},
        {"min_entrants": 4, "percents": [50, 30, 10]},
        {"min_entrants": 4, "percents": [50.5, 49.5]},
        {"min_entrants": 9, "percents": ["1e999"]},
        {"min_entrants": 10, "percents": [True]},
        {"min_entrants": 11, "percents": [{"p": 100}]},
    ]
    response = td.put(url, {"rows": rows}, format="json")
    assert response.status_code == 400
    assert _errors(response) == [
        ("rows.0.percents", "percents_rising"),
        ("rows.1.percents", "percents_not_100"),
        ("rows.2.percents", "percent_not_a_number"),
        ("rows.2.min_entrants", "rows_out_of_order"),
        ("rows.3.percents", "percent_not_a_number"),
        ("rows.4.percents", "percent_not_a_number"),
        ("rows.5.percents", "percent_not_a_number"),
    ]
    assert not PayoutTableRow.objects.filter(club=club).exists()
    assert _errors(td.put(url, {"rows": "abc"}, format="json")) == [("rows", "bad_payout_table")]
    assert _errors(td.put(url, {}, format="json")) == [("rows", "bad_payout_table")]
    bad_preview = td.get(url + "preview/?entrants=0&fee=10")
    assert bad_preview.status_code == 400 and _errors(bad_preview) == [("entrants", "bad_entrants")]
    assert _errors(td.get(url + "preview/?entrants=8&fee=1e3")) == [("fee", "bad_money")]


def test_a_stored_bad_row_is_shown_with_its_problem_and_the_preview_is_a_400(td, club):
    PayoutTableRow.objects.create(club=club, min_entrants=1, percents=["abc"])
    url = f"/api/v1/clubs/{club.pk}/money/payout-table/"
    got = td.get(url)
    assert got.status_code == 200
    assert got.json()["rows"] == [{"min_entrants": 1, "percents": ["abc"]}]
    assert [p["code"] for p in got.json()["problems"]] == ["percent_not_a_number"]
    preview = td.get(url + "preview/?entrants=8&fee=10")
    assert preview.status_code == 400 and _errors(preview)[0][1] == "payout_table_invalid"


def test_side_pools_are_listed_added_renamed_and_retired(treasurer, club):
    url = f"/api/v1/clubs/{club.pk}/pools/"
    made = treasurer.post(
        url,
        {
            "name": "Skunk pot",
            "kind": "skunk",
            "fee": "0.25",
            "share": "ratio",
            "ratios": ["60", "40"],
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    pool = made.json()
    assert pool | {"id": 0} == {
        "id": 0,
        "name": "Skunk pot",
        "kind": "skunk",
        "fee": "0.25",
        "share": "ratio",
        "ratios": ["60.00", "40.00"],
        "payout_percent": "100.00",
        "held_back_percent": "0.00",
        "rolls_over": True,
        "winner_rule": "all",
        "active": True,
        "balance": "0.00",
    }
    assert [p["name"] for p in treasurer.get(url).json()] == ["Skunk pot"]
    one = f"{url}{pool['id']}/"
    renamed = treasurer.patch(one, {"name": "Skunks", "fee": "0.50"}, format="json")
    assert (renamed.json()["name"], renamed.json()["fee"]) == ("Skunks", "0.50")
    retired = treasurer.patch(one, {"active": False}, format="json")
    assert retired.json()["active"] is False
    assert not SidePool.objects.get(pk=pool["id"]).active
    assert treasurer.get(one).json()["active"] is False
    actions = list(ClubAudit.objects.filter(club=club).values_list("action", flat=True))
    assert sorted(actions) == ["pool_changed", "pool_changed", "pool_created"]
    taken = treasurer.post(url, {"name": "Skunks", "kind": "skunk", "fee": "1"}, format="json")
    assert taken.status_code == 400 and _errors(taken) == [("name", "unknown_pool")]
    assert _errors(
        treasurer.post(url, {"name": "X", "kind": "jackpot", "fee": "1"}, format="json")
    ) == [("kind", "invalid_choice")]
    assert _errors(treasurer.patch(one, {"fee": 1.5}, format="json")) == [("fee", "float")]
    assert treasurer.patch(f"{url}99999/", {"active": False}, format="json").status_code == 404


def test_a_td_appoints_a_treasurer_by_name_and_email(td, treasurer, club):
    url = f"/api/v1/clubs/{club.pk}/treasurers/"
    body = {"name": "Ana Ionescu", "email": "ana@example.org"}
    assert treasurer.post(url, body, format="json").status_code == 403  # only a TD appoints
    made = td.post(url, body, format="json")
    assert made.status_code == 201, made.json()
    data = made.json()
    assert (data["username"], data["name"], data["created"]) == ("ana", "Ana Ionescu", True)
    assert "/accounts/reset/" in data["set_password_url"]
    assert len(mail.outbox) == 1 and data["set_password_url"] in mail.outbox[0].body
    assert sorted(t["username"] for t in td.get(url).json()) == ["ana", "tess"]
    again = td.post(url, {"name": "Ana I.", "email": "ANA@example.org"}, format="json")
    assert again.json()["created"] is False and again.json()["set_password_url"] == ""
    assert _errors(td.post(url, {"name": "X", "email": "nope"}, format="json")) == [
        ("email", "invalid")
    ]
    removed = td.delete(f"{url}{data['user']}/")
    assert removed.status_code == 204
    assert [t["username"] for t in td.get(url).json()] == ["tess"]
    assert treasurer.delete(f"{url}{data['user']}/").status_code == 403
    assert td.delete(f"{url}{2**70}/").status_code == 404  # past any id: no overflow
    actions = list(ClubAudit.objects.filter(club=club).values_list("action", flat=True))
    assert sorted(actions) == ["staff_added", "staff_removed"]
