"""A club's payout table (issue 33, item 5): checked field by field when it is saved, guarded by
the database, and a stored bad row is a clear 400 naming the row on every page and route that
reads it, never a 500 and never another club's problem."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from scoring.services import recompute_standings
from tests.factories import ClubMoneyFactory, event_with_field
from tournaments import services as tournament_services
from treasury import club_services, selectors
from treasury.models import ClubAudit, Payment, PayoutTableRow
from treasury.payout_tables import PayoutTableRefused, check_rows, parse_percent

pytestmark = pytest.mark.django_db

GOOD = [
    {"min_entrants": 1, "percents": [100]},
    {"min_entrants": 8, "percents": ["65", "35"]},
    {"min_entrants": 12, "percents": ["50", "33.33", "16.67"]},
]


def _problems(rows) -> list[tuple[str, str]]:
    return [(p.code.value, p.field) for p in check_rows(rows)[1]]


def test_a_good_table_is_read_as_the_books_table():
    table, problems = check_rows(GOOD)
    assert problems == []
    assert [r.min_entrants for r in table.rows] == [1, 8, 12]
    assert table.rows[2].percents == (Decimal(50), Decimal("33.33"), Decimal("16.67"))


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ("abc", [("bad_payout_table", "rows")]),
        ([["50", "50"]], [("bad_payout_table", "rows.0")]),
        (
            [{"min_entrants": 4, "percents": [50, 30, 10]}],
            [("percents_not_100", "rows.0.percents")],
        ),
        (
            [{"min_entrants": 4, "percents": [50, 30, 30]}],
            [("percents_not_100", "rows.0.percents")],
        ),
        ([{"min_entrants": 4, "percents": [10, 20, 70]}], [("percents_rising", "rows.0.percents")]),
        (
            [{"min_entrants": 4, "percents": [110, -10]}],
            [("percent_not_positive", "rows.0.percents")],
        ),
        (
            [{"min_entrants": 4, "percents": [100, 0]}],
            [("percent_not_positive", "rows.0.percents")],
        ),
        ([{"min_entrants": 4, "percents": ["abc"]}], [("percent_not_a_number", "rows.0.percents")]),
        (
            [{"min_entrants": 4, "percents": ["1e999"]}],
            [("percent_not_a_number", "rows.0.percents")],
        ),
        ([{"min_entrants": 4, "percents": ["NaN"]}], [("percent_not_a_number", "rows.0.percents")]),
        (
            [{"min_entrants": 4, "percents": [float("nan")]}],
            [("percent_not_a_number", "rows.0.percents")],
        ),
        (
            [{"min_entrants": 4, "percents": [float("inf")]}],
            [("percent_not_a_number", "rows.0.percents")],
        ),
        (
            [{"min_entrants": 4, "percents": [50.5, 49.5]}],
            [("percent_not_a_number", "rows.0.percents")],
        ),
        ([{"min_entrants": 4, "percents": [True]}], [("percent_not_a_number", "rows.0.percents")]),
        (
            [{"min_entrants": 4, "percents": [{"p": 100}]}],
            [("percent_not_a_number", "rows.0.percents")],
        ),
        (
            [{"min_entrants": 4, "percents": ["33.333", "66.667"]}],
            [("percent_not_a_number", "rows.0.percents")],
        ),
        ([{"min_entrants": 4, "percents": []}], [("no_places", "rows.0.percents")]),
        ([{"min_entrants": 4, "percents": "100"}], [("no_places", "rows.0.percents")]),
        ([{"min_entrants": 0, "percents": [100]}], [("bad_min_entrants", "rows.0.min_entrants")]),
        ([{"min_entrants": "x", "percents": [100]}], [("bad_min_entrants", "rows.0.min_entrants")]),
        (
            [{"min_entrants": True, "percents": [100]}],
            [("bad_min_entrants", "rows.0.min_entrants")],
        ),
        (
            [{"min_entrants": 2, "percents": [50, 30, 20]}],
            [("row_pays_too_many", "rows.0.percents")],
        ),
        (
            [{"min_entrants": 8, "percents": [100]}, {"min_entrants": 4, "percents": [100]}],
            [("rows_out_of_order", "rows.1.min_entrants")],
        ),
        (
            [{"min_entrants": 4, "percents": [100]}, {"min_entrants": 4, "percents": [60, 40]}],
            [("rows_out_of_order", "rows.1.min_entrants")],
        ),
        (
            [{"min_entrants": 1, "percents": ["abc"]}, {"min_entrants": 8, "percents": [60, 30]}],
            [("percent_not_a_number", "rows.0.percents"), ("percents_not_100", "rows.1.percents")],
        ),
    ],
)
def test_a_bad_table_is_refused_field_by_field(rows, expected):
    assert _problems(rows) == expected


def test_percentages_are_plain_numbers():
    assert parse_percent("33.33") == Decimal("33.33")
    assert parse_percent(" 50 ") == Decimal(50)
    assert parse_percent(Decimal("12.5")) == Decimal("12.5")
    for bad in ("-5", "+5", "5e1", "Infinity", "", None, [], 1.5, Decimal("NaN"), Decimal("0.001")):
        assert parse_percent(bad) is None
    assert parse_percent(33.5, stored=True) == Decimal("33.5")  # a JSON number the admin wrote
    assert parse_percent(float("nan"), stored=True) is None


def test_the_table_is_replaced_whole_audited_and_read_back():
    club = ClubMoneyFactory().club
    club_services.set_payout_table(club, GOOD, user=None, reason="the AGM's table")
    stored = list(PayoutTableRow.objects.filter(club=club).values_list("min_entrants", "percents"))
    assert stored == [(1, ["100"]), (8, ["65", "35"]), (12, ["50", "33.33", "16.67"])]
    assert selectors.payout_table(club).rows[1].percents == (Decimal(65), Decimal(35))
    log = ClubAudit.objects.get(club=club)
    assert (log.action, log.old, log.reason) == ("payout_table_set", [], "the AGM's table")
    assert log.new[2] == {"min_entrants": 12, "percents": ["50", "33.33", "16.67"]}
    club_services.set_payout_table(club, GOOD)  # the same table again: nothing to log
    assert ClubAudit.objects.filter(club=club).count() == 1
    club_services.set_payout_table(club, [])  # back to the built-in table
    assert selectors.payout_table(club).is_default
    assert ClubAudit.objects.filter(club=club).count() == 2


def test_a_refused_table_leaves_the_stored_one_and_says_every_problem():
    club = ClubMoneyFactory().club
    club_services.set_payout_table(club, GOOD)
    bad = [{"min_entrants": 1, "percents": [10, 20, 70]}, {"min_entrants": 1, "percents": [90]}]
    with pytest.raises(PayoutTableRefused) as refused:
        club_services.set_payout_table(club, bad)
    assert refused.value.code == "percents_rising" and refused.value.field == "rows.0.percents"
    assert [p.code for p in refused.value.problems] == [
        "percents_rising",
        "percents_not_100",
        "rows_out_of_order",
    ]
    assert PayoutTableRow.objects.filter(club=club).count() == 3


def test_the_database_refuses_a_row_that_is_not_a_list():
    club = ClubMoneyFactory().club
    for percents in ('{"a": 1}', '"100"', "[]", "7"):
        with pytest.raises(IntegrityError), transaction.atomic():
            _raw_row(club, 4, percents)
    with pytest.raises(IntegrityError), transaction.atomic():
        PayoutTableRow.objects.create(club=club, min_entrants=0, percents=[100])


def _raw_row(club, min_entrants: int, percents: str) -> None:
    """A row written behind the application's back (before the checks, or by hand)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO treasury_payouttablerow (club_id, min_entrants, percents)"
            " VALUES (%s, %s, %s)",
            [club.pk, min_entrants, percents],
        )


@pytest.fixture
def played(td_user):
    money = ClubMoneyFactory(entry_fee=Decimal(10))
    event = event_with_field(8, club=money.club, name="Tuesday")
    event.club.directors.add(td_user)
    for entry in event.entries.all():
        Payment.objects.create(event=event, entry=entry, status="paid", amount=Decimal(10))
    round_ = tournament_services.draw_next_game(event)
    for table in round_.tables.order_by("number"):
        tournament_services.record_result(
            event, table=table, winner=table.seat_a, loser_score=90 + table.number
        )
    recompute_standings(event.pk, incremental=False)
    return event


@pytest.mark.parametrize(
    ("percents", "says"),
    [('["abc"]', "“abc” is not a percentage"), ("[50, 30, 10]", "add up to 90, not 100")],
)
def test_a_stored_bad_row_is_a_clear_400_never_a_500(played, td_client, percents, says):
    _raw_row(played.club, 1, percents)
    api = f"/api/v1/events/{played.pk}/"
    for route in ("payouts/", "ledger/"):
        response = td_client.get(api + route)
        assert response.status_code == 400, route
        error = response.json()["errors"][0]
        assert error["code"] == "payout_table_invalid"
        assert "row from 1 paid entrants" in error["detail"] and says in error["detail"]
    closed = td_client.post(api + "ledger/close/")
    assert (
        closed.status_code == 400 and closed.json()["errors"][0]["code"] == "payout_table_invalid"
    )
    desk = td_client.get(reverse("money-desk", args=[played.pk]))
    assert desk.status_code == 200 and says in desk.content.decode()
    sheet = td_client.get(reverse("money-sheet", args=[played.pk]))
    assert sheet.status_code == 200 and "row from 1 paid entrants" in sheet.content.decode()
    close = td_client.post(reverse("money-close", args=[played.pk]), follow=True)
    assert close.status_code == 200 and says in close.content.decode()
    page = td_client.get(reverse("club-money", args=[played.club.pk]))
    assert page.status_code == 200 and says in page.content.decode()


def test_another_clubs_bad_row_blocks_nothing_here(played, td_client):
    other = ClubMoneyFactory().club
    _raw_row(other, 1, '["abc"]')
    assert td_client.get(f"/api/v1/events/{played.pk}/payouts/").status_code == 200


def test_the_preview_pays_each_place_of_a_field(played):
    club = played.club
    club_services.set_payout_table(club, GOOD)
    sheet = selectors.payout_preview(club, 12, "10")
    assert (sheet.gross, sheet.pot) == (Decimal(120), Decimal(120))
    assert sheet.place_amounts == (Decimal(60), Decimal(39), Decimal(20))  # coins of 1, down
    assert [s.amount for s in sheet.shares] == [Decimal(60), Decimal(39), Decimal(20)]
    assert sheet.carried_out == Decimal(1)  # the coin that did not divide
    assert selectors.payout_preview(club, "8", Decimal("7.50")).place_amounts == (
        Decimal(39),
        Decimal(21),
    )
    for entrants, fee, field in ((0, "10", "entrants"), ("x", "10", "entrants"), (8, 1.5, "fee")):
        with pytest.raises(Exception) as refused:
            selectors.payout_preview(club, entrants, fee)
        assert getattr(refused.value, "field", None) == field


def test_the_treasurer_edits_the_table_on_the_club_money_page(client, td_user):
    from tests.factories import UserFactory
    from treasury.models import ClubRole, ClubStaff

    club = ClubMoneyFactory(entry_fee=Decimal(10)).club
    treasurer = UserFactory(username="tess")
    ClubStaff.objects.create(club=club, user=treasurer, role=ClubRole.TREASURER)
    client.force_login(treasurer)
    url = reverse("club-payout-table", args=[club.pk])
    page = client.get(reverse("club-money", args=[club.pk])).content.decode()
    assert 'id="payout-rows"' in page and 'id="payout-preview"' in page  # the built-in, 12 at 10
    bad = {"min_0": "1", "percents_0": "100", "min_1": "4", "percents_1": "10, 20, 70"}
    refused = client.post(url, bad | {"action": "save"})
    assert refused.status_code == 400
    body = refused.content.decode()
    assert 'id="id_percents_1-errors"' in body and "a lower place never pays more" in body
    assert 'value="10, 20, 70"' in body  # what was typed stays
    assert 'id="id_min_2"' in body  # and a blank row under it, to add one
    assert "Correct the rows marked to see their preview." in body
    assert not PayoutTableRow.objects.filter(club=club).exists()
    good = {"min_0": "1", "percents_0": "100", "min_1": "8", "percents_1": "65 35"}
    preview = client.post(url, good | {"action": "preview", "entrants": "8", "fee": "7.50"})
    assert preview.status_code == 200
    shown = preview.content.decode()
    assert "8 paid entrants at" in shown and "39.00" in shown and "21.00" in shown
    assert not PayoutTableRow.objects.filter(club=club).exists()  # a preview saves nothing
    # The preview's fee in the Italian reader's format, as every money input of the pages.
    italian = client.post(
        url,
        good | {"action": "preview", "entrants": "8", "fee": "7,50"},
        headers={"accept-language": "it"},
    )
    assert italian.status_code == 200
    assert "39,00" in italian.content.decode() and "21,00" in italian.content.decode()
    saved = client.post(url, good | {"action": "save", "reason": "AGM"})
    assert saved.status_code == 302
    assert selectors.stored_table_rows(club) == [
        {"min_entrants": 1, "percents": ["100"]},
        {"min_entrants": 8, "percents": ["65", "35"]},
    ]
    log = ClubAudit.objects.get(club=club)
    assert (log.actor, log.reason) == ("tess", "AGM")
    page = client.get(reverse("club-money", args=[club.pk])).content.decode()
    assert 'value="65, 35"' in page and "payout table saved" in page


def test_a_side_pool_is_retired_and_brought_back_on_the_club_money_page(td_client, td_user):
    from tests.factories import SidePoolFactory

    club = ClubMoneyFactory().club
    club.directors.add(td_user)
    pool = SidePoolFactory(club=club, name="29 hand")
    url = reverse("club-pool-active", args=[club.pk, pool.pk])
    page = td_client.post(url, {"active": "0"}, follow=True).content.decode()
    pool.refresh_from_db()
    assert not pool.active and "29 hand is retired." in page
    td_client.post(url, {"active": "1"})
    pool.refresh_from_db()
    assert pool.active
    assert list(ClubAudit.objects.filter(club=club).values_list("action", flat=True)) == [
        "pool_changed",
        "pool_changed",
    ]
