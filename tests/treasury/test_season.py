"""The club's season books: each closed night of a season with its takings, payouts, held
back, to the club and carried over, the totals; as a page, a CSV, a PDF and in the API.
Accented names and the club's currency survive; another club's season is a 404."""

from __future__ import annotations

import csv
import datetime
import io
import re
import zlib
from decimal import Decimal

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import Season
from scoring.services import recompute_standings
from tests.factories import ClubMoneyFactory, EventFactory, SidePoolFactory, event_with_field
from tournaments import services as tournament_services
from treasury import season, services
from treasury.models import SidePool

pytestmark = pytest.mark.django_db
D = Decimal
DAY = datetime.date(2026, 10, 6)


def _night(club, name: str, date: datetime.date, players: int, pool: SidePool, td_user):
    """A closed night: ``players`` paid $10, all in the 29 hand ($1), nobody held one."""
    event = event_with_field(players, club=club, name=name, date=date, games_planned=1)
    services.set_event_fees(event, "10", {pool.pk: "1"}, user=td_user)
    for entry in event.entries.all():
        services.set_payment(event, entry.pk, "paid", user=td_user)
        services.set_pool_stake(event, pool.pk, entry.pk, user=td_user)
    round_ = tournament_services.draw_next_game(event)
    for table in round_.tables.filter(seat_b__isnull=False).order_by("number"):
        tournament_services.record_result(
            event, table=table, winner=table.seat_a, loser_score=80 + table.number
        )
    recompute_standings(event.pk, incremental=False)
    return services.close_night(event, user=td_user)


@pytest.fixture
def books(td_user):
    """A club in euros keeping $1 a head for the ACC, the remainder to the club; two closed
    nights in the autumn season, one in the spring, one still open."""
    money = ClubMoneyFactory(
        currency="EUR", hold_back_name="ACC", hold_back_per_entrant=D(1), remainder_to="club"
    )
    club = money.club
    club.name = "Cribbage Brașov"
    club.save()
    club.directors.add(td_user)
    pool = SidePoolFactory(club=club, name="29 hand", kind=SidePool.Kind.HAND_29, fee=D(1))
    autumn = Season.objects.create(
        club=club,
        name="Automne 2026",
        start=DAY.replace(month=9, day=1),
        end=DAY.replace(month=12, day=31),
    )
    Season.objects.create(
        club=club,
        name="Printemps",
        start=DAY.replace(month=1, day=1),
        end=DAY.replace(month=6, day=30),
    )
    _night(club, "Soirée d'ouverture", DAY, 4, pool, td_user)
    _night(club, "Ștefan's night", DAY + datetime.timedelta(days=7), 6, pool, td_user)
    _night(club, "Spring night", DAY.replace(month=3), 4, pool, td_user)
    EventFactory(
        club=club, name="Still open", date=DAY + datetime.timedelta(days=14), status="running"
    )
    return autumn


def test_the_season_books_add_up_night_by_night(books):
    found = season.season_books(books)
    assert [n.name for n in found.nights] == ["Soirée d'ouverture", "Ștefan's night"]
    first, second = found.nights
    # 4 paid x $10 = 40, $4 to the ACC, 36 to the top place; 4 in the 29 hand, not won.
    assert (first.takings, first.carried_in, first.held_back) == (D(44), D(0), D(4))
    assert (first.payouts, first.to_club, first.carried_out) == (D(36), D(0), D(4))
    # The 29 hand carries its 4 into the second night: 6 x 11 taken, 6 held back.
    assert (second.takings, second.carried_in, second.held_back) == (D(66), D(4), D(6))
    assert second.carried_out == D(10)
    assert second.payouts + second.to_club == D(54)
    assert all(n.balance == 0 for n in found.nights)
    assert (found.takings, found.held_back) == (D(110), D(10))
    assert (found.opened_with, found.closed_with) == (D(0), D(10))
    assert found.opened_with + found.takings - found.payouts - found.held_back - found.to_club == (
        found.closed_with
    )
    assert found.open_nights == 1 and found.currency == "EUR"


def test_the_season_books_page_csv_and_pdf(td_client, books):
    club = books.club
    page = td_client.get(reverse("money-season", args=[club.pk]), {"season": books.pk})
    body = page.content.decode()
    assert page.status_code == 200
    assert "Soirée d&#x27;ouverture" in body and "Ștefan&#x27;s night" in body
    assert "110.00 EUR" in body and "Spring night" not in body
    assert "1 night of this season is not closed yet" in body
    got = td_client.get(reverse("money-season-csv", args=[club.pk, books.pk]))
    assert got["Content-Type"].startswith("text/csv")
    assert "filename*=UTF-8''Cribbage%20Bra%C8%99ov" in got["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(got.content.decode("utf-8"))))
    assert rows[0][:4] == ["Date", "Event", "Currency", "Takings"]
    assert rows[1] == [
        "2026-10-06",
        "Soirée d'ouverture",
        "EUR",
        "44.00",
        "0.00",
        "36.00",
        "4.00",
        "0.00",
        "4.00",
    ]
    assert rows[2][1] == "Ștefan's night"
    assert rows[-1][1:4] == ["Totals", "EUR", "110.00"] and rows[-1][-1] == "10.00"
    pdf = td_client.get(reverse("money-season-pdf", args=[club.pk, books.pk]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert pdf["Content-Type"] == "application/pdf"
    assert "Bra%C8%99ov" in pdf["Content-Disposition"]
    # The accented letters are in the PDF's text (its fonts' ToUnicode maps): ș, é, Ș.
    mapped = _pdf_unicode(pdf.content)
    assert {"ș", "é", "Ș"} <= mapped and "Ω" not in mapped


def _pdf_unicode(pdf: bytes) -> set[str]:
    """The characters a PDF's fonts map glyphs to (their ToUnicode CMaps, inflated)."""
    found: set[str] = set()
    for raw in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.S):
        try:
            text = zlib.decompress(raw)
        except zlib.error:
            continue
        if b"beginbfchar" not in text:
            continue
        for target in re.findall(rb"<[0-9A-Fa-f]+>\s*<([0-9A-Fa-f]{4})>", text):
            found.add(chr(int(target, 16)))
    return found


def test_the_pdf_is_rendered_from_the_accented_names(books, rf):
    from django.template.loader import render_to_string

    html = render_to_string("treasury/season_pdf.html", {"books": season.season_books(books)})
    assert "Cribbage Brașov" in html and "Ștefan&#x27;s night" in html and "110.00 EUR" in html
    assert '"DejaVu Sans"' in html  # a font with the accents


def test_the_season_books_in_the_api(books, td_user):
    api = APIClient()
    api.force_authenticate(td_user)
    got = api.get(f"/api/v1/clubs/{books.club_id}/seasons/{books.pk}/books/")
    assert got.status_code == 200
    data = got.json()
    assert data["currency"] == "EUR" and data["takings"] == "110.00"
    assert [n["name"] for n in data["nights"]] == ["Soirée d'ouverture", "Ștefan's night"]
    assert data["nights"][1]["carried_in"] == "4.00" and data["closed_with"] == "10.00"
    other = Season.objects.create(club=ClubMoneyFactory().club, name="Other", start=DAY, end=DAY)
    assert api.get(f"/api/v1/clubs/{books.club_id}/seasons/{other.pk}/books/").status_code == 404
    assert api.get(f"/api/v1/clubs/{other.club_id}/seasons/{other.pk}/books/").status_code == 404
    huge = 2**63
    assert api.get(f"/api/v1/clubs/{huge}/seasons/{huge}/books/").status_code == 404
    assert api.get(f"/api/v1/clubs/{books.club_id}/seasons/{huge}/books/").status_code == 404


def test_no_season_yet_says_so(td_client, td_user):
    club = ClubMoneyFactory().club
    club.directors.add(td_user)
    body = td_client.get(reverse("money-season", args=[club.pk])).content.decode()
    assert "The club has no season yet." in body
