"""The TD API of members and guests, and of an event's ACC paperwork (issue 27)."""

from __future__ import annotations

import datetime

import pytest

from scoring.models import MrpAward
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.scoring.test_mrp_awards import AFTER_2016, played
from tests.scoring.test_seasons import night
from tests.tournaments.test_api_td import errors

pytestmark = pytest.mark.django_db
OCT = datetime.date(2026, 10, 6)


@pytest.fixture
def club(td_user):
    club = ClubFactory(name="Peg City")
    club.directors.add(td_user)
    return club


@pytest.fixture
def td(api, td_user):
    api.force_authenticate(td_user)
    return api


def members_url(club, tail=""):
    return f"/api/v1/clubs/{club.pk}/members/{tail}"


def test_the_td_keeps_the_roll_through_the_api(td, club):
    zoe = PlayerFactory(name="Zoë Ștefănescu", home_club=club)
    made = td.post(
        members_url(club),
        {
            "player": zoe.pk,
            "acc_number": "A-10234",
            "dues_paid": "25.50",
            "paid_on": "2026-09-02",
            "season_start": "2026-09-01",
            "season_end": "2027-05-31",
        },
        format="json",
    )
    assert made.status_code == 201, made.content
    row = made.json()
    assert (row["name"], row["acc_number"], row["dues_paid"]) == (
        "Zoë Ștefănescu",
        "A-10234",
        "25.50",
    )
    assert [r["id"] for r in td.get(members_url(club)).json()] == [row["id"]]
    changed = td.put(
        members_url(club, f"{row['id']}/"),
        {
            "player": zoe.pk,
            "acc_number": "A-10234",
            "dues_paid": "30",
            "season_start": "2026-09-01",
            "season_end": "2027-05-31",
        },
        format="json",
    )
    assert changed.json()["dues_paid"] == "30.00"
    assert td.delete(members_url(club, f"{row['id']}/")).status_code == 204
    assert td.get(members_url(club)).json() == []


def test_a_bad_acc_number_is_a_400_with_its_code(td, club):
    zoe = PlayerFactory(home_club=club)
    refused = td.post(members_url(club), {"player": zoe.pk, "acc_number": "12 34"}, format="json")
    assert errors(refused) == [
        (
            "acc_number",
            "bad_acc_number",
            "12 34 is not an ACC member number (digits, optionally after a letter prefix).",
        )
    ]


def test_another_clubs_td_sees_no_roll(api, club):
    api.force_authenticate(UserFactory(username="elsewhere"))
    assert api.get(members_url(club)).status_code == 404


def test_the_door_and_the_acc_report_through_the_api(td, club):
    bob = PlayerFactory(name="Bob Ørsted", home_club=club, status="guest")
    event, _me = night(club, OCT, bob, 6, 3)  # a 12-point card
    door = td.get(f"/api/v1/events/{event.pk}/door/").json()
    bob_line = next(line for line in door if line["name"] == "Bob Ørsted")
    assert (bob_line["member"], bob_line["must_join"], bob_line["label"]) == (
        False,
        True,
        "Must join",
    )
    csv_body = td.get(f"/api/v1/events/{event.pk}/acc-report/?format=csv").content.decode()
    assert "1,Bob Ørsted,,guest,9,6,12,63,0," in csv_body  # a guest: no Grass Roots points
    pdf = td.get(f"/api/v1/events/{event.pk}/acc-report/?format=pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    rows = td.get(f"/api/v1/events/{event.pk}/acc-report/").json()["rows"]
    assert rows[0]["name"] == "Bob Ørsted" and rows[0]["grp"] == 0


def test_the_td_computes_the_mrps_through_the_api(td, club):
    event, _entries = played(club, AFTER_2016, 8)
    answer = td.post(f"/api/v1/events/{event.pk}/mrp/", {}, format="json")
    assert answer.status_code == 200, answer.content
    assert [(a["qualifying_rank"], a["points"], a["basis"]) for a in answer.json()] == [
        (1, "0.00", "upper_half_table"),
        (2, "5.00", "lower_half_fixed"),
    ]
    assert MrpAward.objects.filter(event=event).count() == 2
    night_event, _ = night(club, OCT, PlayerFactory(home_club=club), 5, 4)
    refused = td.post(f"/api/v1/events/{night_event.pk}/mrp/", {}, format="json")
    assert errors(refused)[0][1] == "not_an_mrp_event"
