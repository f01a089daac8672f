"""Data out (issue #14): standings, results, seating and bracket as CSV and JSON from the public
page, the TD's pages and the API; the season's ACC report and summary; the club's archive."""

from __future__ import annotations

import csv
import io
import json

import pytest
import tablib
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.exports import content_disposition, safe_cell
from scoring.models import MasterPoints, Season, SpecialHand
from scoring.seasons import ACC_GRASS_ROOTS, recompute_season, set_grass_roots
from scoring.services import recompute_standings
from tests.factories import UserFactory, event_with_field, stoppa_event_with_field
from tournaments import services
from tournaments.demo import load_demo
from tournaments.models import Event, Player

pytestmark = pytest.mark.django_db

FORMULA = '=HYPERLINK("http://evil.example","Click")'


def parse_csv(response) -> list[dict]:
    """The CSV of a response read back with the csv module (BOM and all)."""
    body = response.content
    assert body.startswith("\ufeff".encode())
    return list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))


@pytest.fixture
def demo():
    event, _created = load_demo()
    # A formula-looking name, as a mischievous sign-up sheet would have it.
    Player.objects.filter(name="Jack Morrow").update(name=FORMULA)
    recompute_standings(event.pk)
    return event


@pytest.fixture
def td_client(client, demo):
    client.force_login(demo.club.directors.get())
    return client


def test_safe_cells_keep_numbers_and_neutralise_formulas():
    assert safe_cell(-12) == -12 and safe_cell(7) == 7
    assert safe_cell("-12") == "'-12"  # text that a spreadsheet would read: guarded
    assert safe_cell(FORMULA) == "'" + FORMULA
    assert safe_cell("@SUM(A1)") == "'@SUM(A1)" and safe_cell("\tx") == "'\tx"
    assert safe_cell("Zoë Lindqvist") == "Zoë Lindqvist" and safe_cell(None) == ""
    assert safe_cell(True) == 1


def test_content_disposition_has_an_ascii_fallback_and_the_utf8_name():
    header = content_disposition("Soirée à Brașov standings.csv")
    assert header.startswith('attachment; filename="soiree-a-brasov-standings.csv"')
    assert "filename*=UTF-8''Soir%C3%A9e%20%C3%A0%20Bra%C8%99ov%20standings.csv" in header
    assert content_disposition("plain.csv") == 'attachment; filename="plain.csv"'


def test_public_standings_csv_parses_back_with_csv_and_tablib(client, demo):
    url = reverse("event-export", args=[demo.pk, "standings", "csv"])
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment;" in response["Content-Disposition"]
    rows = parse_csv(response)
    assert len(rows) == 24
    names = {row["Name"] for row in rows}
    assert {"Zoë Lindqvist", "Ștefan Țurcanu", "Jürgen Weiß"} <= names
    assert "'" + FORMULA in names and FORMULA not in names
    # Spreads are numbers: written bare (no guard), negative ones included.
    spreads = [int(row["Spread"]) for row in rows]
    assert any(s < 0 for s in spreads) and sum(spreads) == 0
    assert [int(row["Rank"]) for row in rows] == sorted(int(row["Rank"]) for row in rows)
    book = tablib.Dataset().load(response.content.decode("utf-8-sig"), format="csv")
    assert book.headers[:4] == ["Place", "Rank", "Tied", "Name"]
    assert "Ștefan Țurcanu" in book["Name"] and "Zoë Lindqvist" in book["Name"]


def test_public_json_exports(client, demo):
    standings = client.get(reverse("event-export", args=[demo.pk, "standings", "json"]))
    data = json.loads(standings.content)
    assert data["export"] == "standings" and data["event"]["name"] == demo.name
    assert data["after_game"] == 5 and len(data["rows"]) == 24
    first = data["rows"][0]
    assert first["rank"] == 1 and isinstance(first["spread"], int)
    after = client.get(reverse("event-export", args=[demo.pk, "standings", "json"]) + "?after=2")
    assert json.loads(after.content)["after_game"] == 2
    results = json.loads(
        client.get(reverse("event-export", args=[demo.pk, "results", "json"])).content
    )
    assert len(results["rows"]) == 4 * 12 + 6
    assert {"game", "winner", "loser", "loser_score", "spread"} <= set(results["rows"][0])
    seating = client.get(reverse("event-export", args=[demo.pk, "seating", "csv"]) + "?game=3")
    rows = parse_csv(seating)
    assert len(rows) == 12 and {row["Game"] for row in rows} == {"3"}


def test_unpublished_standings_are_the_tds_alone(client, td_client, demo):
    services.set_standings_published(demo, False)
    assert (
        client.get(reverse("event-export", args=[demo.pk, "standings", "csv"])).status_code == 404
    )
    assert client.get(reverse("event-export", args=[demo.pk, "results", "csv"])).status_code == 200
    td = td_client.get(reverse("td-event-export", args=[demo.pk, "standings", "csv"]))
    assert td.status_code == 200 and len(parse_csv(td)) == 24
    api = APIClient()
    assert api.get(f"/api/v1/events/{demo.pk}/export/standings?format=csv").status_code == 404


def test_draft_event_another_clubs_td_and_bad_names_are_404(client, demo):
    draft = event_with_field(4)
    assert (
        client.get(reverse("event-export", args=[draft.pk, "standings", "csv"])).status_code == 404
    )
    client.force_login(UserFactory(username="elsewhere"))
    assert (
        client.get(reverse("td-event-export", args=[demo.pk, "standings", "csv"])).status_code
        == 404
    )
    assert client.get(reverse("event-export", args=[demo.pk, "secrets", "csv"])).status_code == 404
    assert (
        client.get(reverse("event-export", args=[demo.pk, "standings", "xlsx"])).status_code == 404
    )
    assert client.get(reverse("event-export", args=[demo.pk, "bracket", "csv"])).status_code == 404


def test_api_export_csv_and_json(demo):
    api = APIClient()
    response = api.get(f"/api/v1/events/{demo.pk}/export/standings?format=csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert "Zoë Lindqvist" in response.content.decode("utf-8-sig")
    data = api.get(f"/api/v1/events/{demo.pk}/export/results").json()
    assert data["export"] == "results" and data["rows"]
    assert api.get(f"/api/v1/events/{demo.pk}/export/nothing").status_code == 404
    assert api.get(f"/api/v1/events/{demo.pk}/export/results?format=xml").status_code == 404


def test_bracket_export_with_places(client, td_user):
    event = event_with_field(4, kind=Event.Kind.PLAYOFF_ONLY, name="Coppa Țurcanu")
    services.create_playoff(event, best_of=(1,))
    for code in ("M1-1", "M1-2"):
        match = event.bracket.matches.get(code=code)
        services.record_playoff_game(event, match=code, winner=match.seat_a, loser_score=90)
    final = event.bracket.matches.get(section="main", round=2)
    services.record_playoff_game(event, match=final.code, winner=final.seat_a, loser_score=100)
    rows = parse_csv(client.get(reverse("event-export", args=[event.pk, "bracket", "csv"])))
    assert len(rows) == 3 and rows[-1]["Winner"] == final.seat_a.player.name
    data = json.loads(
        client.get(reverse("event-export", args=[event.pk, "bracket", "json"])).content
    )
    assert data["places"][0] == {"place": 1, "name": final.seat_a.player.name}


def test_stoppa_event_exports_do_not_crash(client):
    event = stoppa_event_with_field(8, names=("Zoë Lindqvist",))
    services.draw_next_game(event)
    for what in ("standings", "results", "seating", "bracket"):
        for fmt in ("csv", "json"):
            response = client.get(reverse("event-export", args=[event.pk, what, fmt]))
            assert response.status_code in (200, 404), (what, fmt)
    seating = parse_csv(client.get(reverse("event-export", args=[event.pk, "seating", "csv"])))
    assert "Zoë Lindqvist" in {row["Name"] for row in seating}
    assert client.get(reverse("event-export", args=[event.pk, "bracket", "csv"])).status_code == 404


def test_season_acc_report_and_summary_pdf(client, demo):
    season = Season.objects.create(
        club=demo.club,
        name="Stagione 2026",
        start=demo.date.replace(month=1, day=1),
        end=demo.date.replace(month=12, day=31),
    )
    set_grass_roots(season, ACC_GRASS_ROOTS)
    Event.objects.filter(pk=demo.pk).update(status=Event.Status.FINISHED)  # only finished count
    zoe = demo.entries.get(player__name="Zoë Lindqvist")
    SpecialHand.objects.create(event=demo, entry=zoe, points=29, game_number=2)
    MasterPoints.objects.create(event=demo, place=1, points="1.50")
    recompute_season(season.pk)
    rows = parse_csv(client.get(reverse("season-acc-report", args=[season.pk])))
    assert len(rows) == 24
    zoe_row = next(row for row in rows if row["Name"] == "Zoë Lindqvist")
    assert zoe_row["29 hands"] == "1" and zoe_row["ACC number"] == "A10021"
    assert sum(float(row["Master points"]) for row in rows) == pytest.approx(1.5)
    pdf = client.get(reverse("season-summary-pdf", args=[season.pk]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert client.get(reverse("season-acc-report", args=[season.pk + 99])).status_code == 404


def test_club_archive_groups_finished_events_by_season(client, demo, django_assert_max_num_queries):
    season = Season.objects.create(
        club=demo.club,
        name="Inverno",
        start=demo.date.replace(month=1, day=1),
        end=demo.date.replace(month=12, day=31),
    )
    Event.objects.filter(pk=demo.pk).update(status=Event.Status.FINISHED)
    old = event_with_field(4, club=demo.club, name="Serata 2019", status=Event.Status.FINISHED)
    Event.objects.filter(pk=old.pk).update(date="2019-03-07")
    event_with_field(4, club=demo.club, name="Bozza")  # a draft: never listed
    url = reverse("club-archive", args=[demo.club.pk])
    with django_assert_max_num_queries(6) as few:
        page = client.get(url)
    # More nights with standings cost no more queries (no query per event).
    for n in range(3):
        night = event_with_field(4, club=demo.club, name=f"Serata {n}", status="running")
        round_ = services.draw_next_game(night)
        for table in round_.tables.filter(seat_b__isnull=False):
            services.record_result(night, table=table, winner=table.seat_a, loser_score=90)
        Event.objects.filter(pk=night.pk).update(status=Event.Status.FINISHED)
        recompute_standings(night.pk)
    with django_assert_max_num_queries(len(few.captured_queries)):
        more = client.get(url).content.decode()
    assert all(f"Serata {n}" in more for n in range(3))
    body = page.content.decode()
    assert page.status_code == 200
    assert "Inverno" in body and "2019" in body and "Serata 2019" in body and "Bozza" not in body
    assert body.index("Inverno") < body.index("Serata 2019")
    assert reverse("event", args=[demo.pk]) in body
    assert season.name in body
