"""Final places (issue 22, item 4): once the playoff is decided, the final standings list its
places first (champion, runner-up, the semifinal losers sharing 3rd), then the qualifying
order, on the pages, in the exports, the API, the archives and the seasons."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

import pytest
from django.urls import reverse

from scoring.models import MasterPoints, Season
from scoring.places import compute_places, final_places
from scoring.seasons import recompute_season
from scoring.selectors import standings_for_event
from tests.factories import event_with_field
from tournaments import services
from tournaments.models import Bracket, Event

pytestmark = pytest.mark.django_db


def decided_event(players: int = 16, games: int = 3) -> Event:
    """A sanctioned event played through: ``games`` qualifying games (table seat A always
    wins, by margins that vary with the table and the game), the cut (ties at the line
    settled by the lots), and a best-of-3 playoff in which the lower seed wins every match,
    so the champion is not the top qualifier."""
    event = event_with_field(players, kind=Event.Kind.SANCTIONED, games_planned=games)
    for game in range(1, games + 1):
        round_ = services.draw_next_game(event)
        for table in round_.tables.exclude(seat_b=None):
            score = 60 + (7 * table.number + 13 * game) % 60
            services.record_result(event, table=table, winner=table.seat_a, loser_score=score)
    services.create_playoff(event, confirm_lots=True)
    bracket = Bracket.objects.get(event=event)
    seed_of = {pk: i for i, pk in enumerate(bracket.seeds, start=1)}
    while True:
        ready = [m for m in bracket.matches.all() if not m.decided and m.seat_a and m.seat_b]
        if not ready:
            break
        for match in ready:
            underdog = max((match.seat_a_id, match.seat_b_id), key=seed_of.__getitem__)
            for _ in range(2):
                services.record_playoff_game(
                    event, match=match.code, winner=underdog, loser_score=110
                )
    services.finish_event(event)
    return event


@pytest.fixture
def decided():
    return decided_event()


def _expected(event: Event) -> list[tuple[int, int]]:
    """(place, entry) best first, worked out from the bracket and the qualifying ranks."""
    bracket = Bracket.objects.get(event=event)
    places = {int(pk): place for pk, place in bracket.places.items()}
    rows = standings_for_event(event.pk).values_list("entry_id", "rank", "entry__player__name")
    rank_of = {pk: (rank, name) for pk, rank, name in rows}
    rest = sorted((rank, pk) for pk, rank, _name in rows if pk not in places)
    out = dict(places)
    for rank, pk in rest:
        out[pk] = len(places) + 1 + sum(1 for r, _ in rest if r < rank)
    ordered = sorted(out.items(), key=lambda item: (item[1], *rank_of[item[0]], item[0]))
    return [(place, pk) for pk, place in ordered]


def test_compute_places_bracket_first_then_qualifying_order():
    # Qualifying: 1..6 with 3 and 4 tied; entries 10 (rank 1), 11, 12, 13 (=3), 14, 15.
    ranks = [(10, 1), (11, 2), (12, 3), (13, 3), (14, 5), (15, 6)]
    # Bracket of three: 12 (won the lots at 3=) is champion, 10 runner-up, 11 3rd.
    places = compute_places(ranks, {12: 1, 10: 2, 11: 3}, [10, 11, 12])
    assert places == {12: 1, 10: 2, 11: 3, 13: 4, 14: 5, 15: 6}
    # A withdrawn player ranked 2 above the cut, ties below it stay shared.
    ranks = [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 5), (7, 7)]
    places = compute_places(ranks, {3: 1, 1: 2, 4: 3, 5: 3}, [1, 3, 4, 5])
    assert places == {3: 1, 1: 2, 4: 3, 5: 3, 2: 5, 6: 6, 7: 7}
    # The semifinal losers wait for their third-place match: they share 3rd meanwhile.
    places = compute_places([], {1: 1, 2: 2, 5: 5, 6: 5, 7: 5, 8: 5}, [1, 2, 3, 4, 5, 6, 7, 8])
    assert places[3] == places[4] == 3


def test_final_places_put_the_champion_first(decided):
    bracket = Bracket.objects.get(event=decided)
    places = final_places(decided.pk)
    assert places.decided
    champion = bracket.champion_id
    champion_rank = standings_for_event(decided.pk).get(entry_id=champion).rank
    assert champion_rank > 1  # the lowest seed won: the qualifying rank says otherwise
    assert places.place(champion, champion_rank) == 1
    assert places.label(champion, champion_rank) == "1"
    semifinal_losers = [int(pk) for pk, place in bracket.places.items() if place == 3]
    assert len(semifinal_losers) == 2
    assert {places.label(pk, 0) for pk in semifinal_losers} == {"3="}
    # The standings after an earlier game keep the qualifying ranks.
    assert not final_places(decided.pk, after_game=2).decided
    assert final_places(decided.pk, after_game=3).decided


def test_public_and_td_pages_list_the_final_places_first(client, decided):
    body = client.get(reverse("event", args=[decided.pk])).content.decode()
    table = body[body.index('id="standings"') :]
    order = [pk for _place, pk in _expected(decided)]
    names = dict(decided.entries.values_list("pk", "player__name"))
    positions = [table.index(f">{names[pk]}</a>") for pk in order]
    assert positions == sorted(positions)
    assert "Final places" in table and '<td class="num place">1</td>' in table
    assert '<td class="num place">3=</td>' in table


def test_standings_csv_and_json_have_a_place_column_in_final_order(client, decided):
    url = reverse("event-export", args=[decided.pk, "standings", "csv"])
    rows = list(csv.DictReader(io.StringIO(client.get(url).content.decode("utf-8-sig"))))
    expected = _expected(decided)
    names = dict(decided.entries.values_list("pk", "player__name"))
    assert [(int(r["Place"]), r["Name"]) for r in rows] == [(p, names[pk]) for p, pk in expected]
    url = reverse("event-export", args=[decided.pk, "standings", "json"])
    data = json.loads(client.get(url).content)
    assert [r["place"] for r in data["rows"]] == [p for p, _pk in expected]
    assert data["rows"][0]["name"] == names[Bracket.objects.get(event=decided).champion_id]


def test_standings_api_orders_by_place_and_pages_through(client, decided):
    url = reverse("api-standings", args=[decided.pk])
    first = client.get(url, {"page_size": 5}).json()
    second = client.get(first["next"]).json()
    rows = first["results"] + second["results"]
    # The API breaks ties by entry id (a cursor key is integers), not by name.
    expected = sorted(_expected(decided))
    assert [(r["place"], r["entry"]) for r in rows] == expected[:10]
    assert rows[0]["place_label"] == "1" and rows[2]["place_label"] == "3="


def test_club_archive_podium_shows_final_places(client, decided):
    body = client.get(reverse("club-archive", args=[decided.club_id])).content.decode()
    names = dict(decided.entries.values_list("pk", "player__name"))
    champion = Bracket.objects.get(event=decided).champion_id
    assert f"1. {names[champion]}" in body
    assert body.count("3=. ") == 2


def test_event_archive_has_places_and_round_trips(decided):
    from results.archive import export_event, import_event

    data = export_event(decided)
    rows = data["final_standings"]["rows"]
    expected = _expected(decided)
    assert [r["place"] for r in rows] == [p for p, _pk in expected]
    copy = import_event(json.loads(json.dumps(data)), club=decided.club)
    again = export_event(copy)["final_standings"]["rows"]
    assert [r["place"] for r in again] == [r["place"] for r in rows]
    names = dict(decided.entries.values_list("pk", "player__name"))
    copied = dict(copy.entries.values_list("pk", "player__name"))
    champion = Bracket.objects.get(event=copy).champion_id
    assert copied[champion] == names[Bracket.objects.get(event=decided).champion_id]


def test_master_points_go_by_final_place(decided):
    season = Season.objects.create(
        club=decided.club, name="S", start=decided.date, end=decided.date
    )
    MasterPoints.objects.create(event=decided, place=1, points=Decimal("20"))
    MasterPoints.objects.create(event=decided, place=3, points=Decimal("8"))
    recompute_season(season.pk)
    bracket = Bracket.objects.get(event=decided)
    champion = decided.entries.get(pk=bracket.champion_id).player
    top_qualifier = decided.entries.get(pk=bracket.seeds[0]).player
    assert season.ledgers.get(player=champion).master_points == Decimal("20")
    # The top qualifier lost a semifinal to the fourth seed: 3rd place, 8 points.
    assert season.ledgers.get(player=top_qualifier).master_points == Decimal("8")
