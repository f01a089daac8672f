"""The ACC event report (issue 27): one CSV and one PDF from the TD's event page, entrants with
ACC numbers, member or guest, places, game points and the points the night earned."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from scoring import acc_report
from scoring.models import MrpTable
from scoring.mrp_awards import compute_event_mrp
from scoring.seasons import create_season
from tests.factories import ClubFactory, PlayerFactory
from tests.scoring.test_mrp_awards import AFTER_2016, TEST_TABLE, played
from tests.scoring.test_seasons import night
from tournaments.services.members import save_membership

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(td_user):
    club = ClubFactory(name="Peg City")
    club.directors.add(td_user)
    create_season(club, start=datetime.date(2026, 9, 1), end=datetime.date(2027, 5, 31))
    return club


def _csv(response) -> list[str]:
    body = response.content.decode("utf-8")
    assert body.startswith("\ufeff")
    return body[1:].splitlines()


def test_a_grass_roots_night_reports_members_and_guests(td_client, club):
    zoe = PlayerFactory(name="Zoë Ștefănescu", home_club=club)
    save_membership(
        club,
        zoe,
        acc_number="A-10234",
        season_start=datetime.date(2026, 9, 1),
        season_end=datetime.date(2027, 5, 31),
    )
    event, _me = night(club, AFTER_2016, zoe, 7, 2)  # 14 game points -> 11 Grass Roots points
    response = td_client.get(reverse("td-acc-report-csv", args=[event.pk]))
    assert response.status_code == 200
    lines = _csv(response)
    assert lines[0] == (
        "Place,Name,ACC number,Member or guest,Games played,Games won,Game points,Spread,"
        "Grass Roots points,Payback"
    )
    assert lines[1] == "1,Zoë Ștefănescu,A-10234,member,9,7,14,105,11,"  # 7 x 21 - 2 x 21
    # Her opponents have no membership: guests, no Grass Roots points even at 2 game points.
    assert lines[2].endswith(",guest,1,1,2,21,0,")
    assert len(lines) == 1 + 10

    report = acc_report.event_report(event)
    assert [line.name for line in report.members] == ["Zoë Ștefănescu"]
    assert len(report.guests) == 9


def test_a_main_event_reports_its_mrps_provisional_on_an_unverified_table(td_client, club):
    MrpTable.objects.create(kind="main", games=1, rows=TEST_TABLE)
    event, entries = played(club, AFTER_2016, 24)
    compute_event_mrp(event)
    report = acc_report.event_report(event)
    assert [line.mrp for line in report.lines[:7]] == [Decimal("7.5")] * 3 + [Decimal(5)] * 3 + [
        Decimal(0)
    ]
    assert report.provisional and report.lines[0].mrp_provisional
    lines = _csv(td_client.get(reverse("td-acc-report-csv", args=[event.pk])))
    assert lines[0].endswith("Spread,Master Rating Points,Provisional,Payback")
    assert lines[1].endswith(",1,1,2,30,7.50,yes,")
    assert lines[4].endswith(",1,1,2,27,5.00,,")


def test_the_pdf_builds_with_accented_names(td_client, club):
    zoe = PlayerFactory(name="Zoë Ștefănescu", home_club=club)
    event, _me = night(club, AFTER_2016, zoe, 7, 2)
    response = td_client.get(reverse("td-acc-report-pdf", args=[event.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    html = acc_report.render_to_string(
        "scoring/acc_event_report_pdf.html", {"report": acc_report.event_report(event)}
    )
    assert "Zoë Ștefănescu" in html and "No payback figures recorded for this event." in html


def test_the_report_carries_the_results_logs_final_digest(td_client, club):
    zoe = PlayerFactory(name="Zoë Ștefănescu", home_club=club)
    event, _me = night(club, AFTER_2016, zoe, 7, 2)
    event.refresh_from_db()
    assert len(event.audit_digest) == 64  # the night's results were written to the chain
    assert acc_report.report_export(acc_report.event_report(event)).meta["audit_digest"] == (
        event.audit_digest
    )
    html = acc_report.render_to_string(
        "scoring/acc_event_report_pdf.html", {"report": acc_report.event_report(event)}
    )
    assert event.audit_digest in html
    response = td_client.get(reverse("api-acc-report", args=[event.pk]), {"format": "json"})
    assert response.status_code == 200
    assert event.audit_digest in response.content.decode()


def test_the_payback_hook_fills_the_section(club):
    zoe = PlayerFactory(name="Zoë", home_club=club)
    event, me = night(club, AFTER_2016, zoe, 7, 2)
    registered = acc_report._payback_provider  # the money app's, put back after
    acc_report.register_payback_provider(
        lambda e: acc_report.Payback({me.pk: Decimal("40.00")}, [("Pot", Decimal("60.00"))])
    )
    try:
        report = acc_report.event_report(event)
    finally:
        acc_report.register_payback_provider(registered)
    assert report.lines[0].payback == Decimal("40.00")
    assert report.payback.figures == [("Pot", Decimal("60.00"))]


def test_another_clubs_td_gets_no_report(client, club):
    event, _me = night(club, AFTER_2016, PlayerFactory(home_club=club), 5, 4)
    from tests.factories import UserFactory

    client.force_login(UserFactory(username="other"))
    assert client.get(reverse("td-acc-report-csv", args=[event.pk])).status_code == 404


def test_the_season_lists_members_and_guests_apart(client, club):
    from scoring.models import Season
    from scoring.seasons import recompute_season

    season = Season.objects.get(club=club)
    ann = PlayerFactory(name="Ann Whitfield", home_club=club)
    bob = PlayerFactory(name="Bob Ørsted", home_club=club)
    save_membership(club, ann, acc_number="10234", season_start=season.start, season_end=season.end)
    night(club, AFTER_2016, bob, 9, 0)  # 18 game points as a guest: no Grass Roots points
    night(club, AFTER_2016, ann, 7, 2)
    recompute_season(season.pk)

    lines = _csv(client.get(reverse("season-acc-report", args=[season.pk])))
    assert lines[0].startswith("Rank,Name,ACC number,Member or guest,Nights")
    assert lines[1] == "1,Ann Whitfield,10234,member,1,1,9,7,77.8,14,105,11,0.00,0,0,0,0,0"
    assert ",guest," in lines[2] and "Bob Ørsted" in "".join(lines[2:])
    assert all(",guest," in line for line in lines[2:])
    assert len(lines) == 1 + 2 + 18  # the two heroes and their 9 + 9 opponents, all guests

    body = client.get(reverse("season", args=[season.pk])).content.decode()
    members, guests = body.split('id="season-group-1"')[1].split('id="season-group-2"')
    assert "Ann Whitfield" in members and "Bob Ørsted" not in members
    assert "Bob Ørsted" in guests and "Grass Roots points go to members only." in guests
    pdf = client.get(reverse("season-summary-pdf", args=[season.pk]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_the_event_page_links_the_report_and_computes_the_mrps(td_client, club):
    event, _entries = played(club, AFTER_2016, 8)
    page = td_client.get(reverse("td-event", args=[event.pk])).content.decode()
    assert reverse("td-acc-report-pdf", args=[event.pk]) in page
    assert reverse("td-acc-report-csv", args=[event.pk]) in page
    assert "Compute Master Rating Points" in page
    done = td_client.post(reverse("td-compute-mrp", args=[event.pk]), follow=True)
    assert "Master Rating Points computed for 2 qualifiers." in done.content.decode()
    night_event, _me = night(club, AFTER_2016, PlayerFactory(home_club=club), 5, 4)
    page = td_client.get(reverse("td-event", args=[night_event.pk])).content.decode()
    assert "Compute Master Rating Points" not in page  # a club night earns Grass Roots points
