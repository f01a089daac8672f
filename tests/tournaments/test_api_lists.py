"""The API's paginated lists of an event: entries, games, a game's tables, results and
standings, each cut into pages by a cursor on a unique key, scoped by the event, and costing
the same few queries for a page of 2 rows as for a page of 100."""

from __future__ import annotations

import base64
import itertools

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.services import recompute_standings
from tests.factories import event_with_field
from tournaments import services
from tournaments.models import Entry, Event, GameResult, Player, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(td_user):
    """15 players (a bye each game): game 1 complete, every winner +21 (seven tied at the
    top, seven at the bottom); game 2 drawn with two results in; game 3 a draft."""
    event = event_with_field(15)
    event.club.directors.add(td_user)
    game1 = services.draw_next_game(event)
    for table in game1.tables.filter(result__isnull=True):
        services.record_result(event, table=table, winner=table.seat_a, loser_score=100)
    game2 = services.draw_next_game(event)
    for table in game2.tables.filter(number__in=[1, 2]):
        services.record_result(event, table=table, winner=table.seat_b, loser_score=90)
    recompute_standings(event.pk)
    return event


def walk(api: APIClient, url: str) -> tuple[list[dict], int]:
    """Every row of a list, following ``next`` links; and how many pages it took."""
    rows, pages = [], 0
    while url:
        response = api.get(url)
        assert response.status_code == 200, response.content[:300]
        body = response.json()
        rows += body["results"]
        pages += 1
        url = body["next"]
    return rows, pages


def walk_back(api: APIClient, url: str) -> list[dict]:
    """Every row before the page at ``url`` and on it, following ``previous`` links."""
    rows: list[dict] = []
    while url:
        body = api.get(url).json()
        rows = body["results"] + rows
        url = body["previous"]
    return rows


def last_page_url(api: APIClient, url: str) -> str:
    while True:
        following = api.get(url).json()["next"]
        if following is None:
            return url
        url = following


def test_the_event_detail_has_counts_and_links_not_lists(api, night):
    body = api.get(reverse("api-event", args=[night.pk])).json()
    assert (body["entry_count"], body["game_count"]) == (15, 2)  # the draft game 3 is not public
    assert "entries" not in body and "games" not in body
    assert body["entries_url"] == f"http://testserver/api/v1/events/{night.pk}/entries/"
    assert body["games_url"].endswith(f"/api/v1/events/{night.pk}/games/")
    assert body["results_url"].endswith(f"/api/v1/events/{night.pk}/results/")
    assert body["standings_url"].endswith(f"/api/v1/events/{night.pk}/standings/")
    assert body["name"] == night.name and body["club"]["slug"] == night.club.slug


def test_the_event_detail_costs_the_same_at_any_size(api, night):
    bigger = event_with_field(60)
    services.draw_next_game(bigger)
    counts = []
    for event in (night, bigger):
        with CaptureQueriesContext(connection) as queries:
            assert api.get(reverse("api-event", args=[event.pk])).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 2


def test_entries_walk_every_row_once_in_id_order_both_ways(api, night):
    url = reverse("api-entries", args=[night.pk]) + "?page_size=4"
    rows, pages = walk(api, url)
    expected = list(night.entries.order_by("pk").values_list("pk", flat=True))
    assert [row["id"] for row in rows] == expected and pages == 4
    first = night.entries.select_related("player").order_by("pk").first()
    assert rows[0] == {
        "id": first.pk,
        "name": first.player.name,
        "acc_number": first.player.acc_number,
        "checked_in": True,
        "withdrawn": False,
    }
    assert api.get(url).json()["previous"] is None
    back = walk_back(api, last_page_url(api, url))
    assert [row["id"] for row in back] == expected


def test_games_have_their_counts_and_a_link_to_their_tables(api, night):
    body = api.get(reverse("api-games", args=[night.pk])).json()
    assert (body["next"], body["previous"]) == (None, None)
    games = body["results"]
    assert [g["number"] for g in games] == [1, 2]  # the draft game 3 is the TD's alone
    game1, game2 = games
    assert (game1["table_count"], game1["result_count"]) == (8, 8)  # 7 tables and the bye
    assert (game2["table_count"], game2["result_count"]) == (8, 3)  # tables 1 and 2, and the bye
    assert game1["seed"] == night.rounds.get(number=1).seed
    assert game2["tables_url"].endswith(f"/api/v1/events/{night.pk}/games/2/tables/")
    assert "notes" in game1 and "tables" not in game1  # the tables are a list of their own


def test_tables_by_number_with_the_bye_last_and_their_results(api, night):
    url = reverse("api-game-tables", args=[night.pk, 2])
    rows, _ = walk(api, url + "?page_size=3")
    assert [t["number"] for t in rows] == [1, 2, 3, 4, 5, 6, 7, None]
    table1 = Table.objects.get(round__event=night, round__number=2, number=1)
    assert rows[0]["seat_a"] == table1.seat_a_id and rows[0]["seat_b"] == table1.seat_b_id
    assert rows[0]["result"]["winner"] == table1.seat_b_id
    assert (rows[0]["result"]["game"], rows[0]["result"]["table"]) == (2, 1)
    assert rows[0]["result"]["loser_score"] == 90 and rows[0]["result"]["spread"] == "+31"
    assert rows[-1]["seat_b"] is None and rows[-1]["result"]["kind"] == "bye"
    assert rows[2]["result"] is None


def test_open_tables_are_the_ones_without_a_result(api, night):
    url = reverse("api-game-tables", args=[night.pk, 2])
    open_rows, _ = walk(api, url + "?open=1&page_size=2")
    assert [t["number"] for t in open_rows] == [3, 4, 5, 6, 7]
    assert all(t["result"] is None for t in open_rows)
    done = api.get(url + "?open=0").json()["results"]
    assert [t["number"] for t in done] == [1, 2, None]
    assert api.get(reverse("api-game-tables", args=[night.pk, 1]) + "?open=1").json() == {
        "next": None,
        "previous": None,
        "results": [],
    }


def test_a_draft_or_missing_game_has_no_public_tables(api, night):
    for number in (3, 4, 40_000):
        response = api.get(reverse("api-game-tables", args=[night.pk, number]))
        assert response.status_code == 404
        assert response.json()["errors"][0]["code"] == "not_found"


def test_results_game_by_game_then_table(api, night):
    rows, pages = walk(api, reverse("api-results", args=[night.pk]) + "?page_size=4")
    assert pages == 3 and len(rows) == 11  # 7 + the bye in game 1; 2 + the bye in game 2
    assert [(r["game"], r["table"]) for r in rows] == [
        *[(1, n) for n in range(1, 8)],
        (1, None),
        (2, 1),
        (2, 2),
        (2, None),
    ]
    assert len({r["id"] for r in rows}) == 11
    result = GameResult.objects.get(pk=rows[0]["id"])
    assert (rows[0]["winner"], rows[0]["loser_score"], rows[0]["spread"]) == (
        result.winner_id,
        100,
        "+21",
    )


def test_standings_walk_the_ties_once_each_in_rank_then_entry_order(api, night):
    url = reverse("api-standings", args=[night.pk])
    rows, pages = walk(api, url + "?page_size=2")
    assert pages == 8 and len(rows) == 15
    keys = [(r["rank"], r["entry"]) for r in rows]
    assert keys == sorted(keys) and len({r["entry"] for r in rows}) == 15
    assert any(a[0] == b[0] for a, b in itertools.pairwise(keys))  # ties were crossed
    assert walk_back(api, last_page_url(api, url + "?page_size=2")) == rows
    assert {r["after_game"] for r in rows} == {2}
    after_1, _ = walk(api, url + "?after_game=1&page_size=4")
    assert [r["rank"] for r in after_1].count(1) == 7  # the seven +21 winners, tied
    assert {r["after_game"] for r in after_1} == {1} and all(r["movement"] == 0 for r in after_1)
    assert api.get(url + "?after_game=99999999").json()["results"] == []


def test_standings_movement_is_per_page(api, night):
    url = reverse("api-standings", args=[night.pk])
    full = {r["entry"]: r["movement"] for r in walk(api, url)[0]}
    paged = {r["entry"]: r["movement"] for r in walk(api, url + "?page_size=3")[0]}
    assert paged == full and any(full.values())


def test_unpublished_standings_stay_the_tds(api, night, td_user):
    services.set_standings_published(night, False)
    url = reverse("api-standings", args=[night.pk])
    response = api.get(url)
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"
    api.force_authenticate(td_user)
    assert len(walk(api, url + "?page_size=10")[0]) == 15


def test_page_size_defaults_to_100_and_is_capped_at_500(api):
    event = event_with_field(1, status=Event.Status.RUNNING)
    players = Player.objects.bulk_create(
        Player(name=f"Bulk {i:04d}", home_club=event.club) for i in range(520)
    )
    Entry.objects.bulk_create(Entry(event=event, player=p) for p in players)
    url = reverse("api-entries", args=[event.pk])
    assert len(api.get(url).json()["results"]) == 100
    assert len(api.get(url + "?page_size=250").json()["results"]) == 250
    for huge in ("501", "100000", "99999999999999999999"):
        body = api.get(url + f"?page_size={huge}").json()
        assert len(body["results"]) == 500 and body["next"]
    for bad in ("0", "-3", "many", ""):
        assert len(api.get(url + f"?page_size={bad}").json()["results"]) == 100
    rows, pages = walk(api, url + "?page_size=500")
    assert (len(rows), pages) == (521, 2)


def test_another_events_rows_are_not_reachable(api, night):
    other = event_with_field(4)
    services.draw_next_game(other)
    theirs = set(other.entries.values_list("pk", flat=True))
    ours, _ = walk(api, reverse("api-entries", args=[night.pk]))
    assert not theirs & {r["id"] for r in ours}
    # A cursor is a position in this event's list, never a way into another's.
    first = api.get(reverse("api-entries", args=[other.pk]) + "?page_size=1").json()
    rows, _ = walk(api, reverse("api-entries", args=[night.pk]) + "?" + first["next"].split("?")[1])
    assert {r["id"] for r in rows} <= {r["id"] for r in ours}
    other_tables = api.get(reverse("api-game-tables", args=[other.pk, 1])).json()["results"]
    assert {t["seat_a"] for t in other_tables} <= theirs
    results, _ = walk(api, reverse("api-results", args=[night.pk]))
    assert (
        GameResult.objects.filter(pk__in=[r["id"] for r in results])
        .exclude(table__round__event=night)
        .count()
        == 0
    )
    draft = event_with_field(2, status=Event.Status.DRAFT)
    for name in ("api-entries", "api-games", "api-results", "api-event"):
        assert api.get(reverse(name, args=[draft.pk])).status_code == 404
        assert api.get(reverse(name, args=[2**40])).status_code == 404


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


@pytest.mark.parametrize(
    "cursor",
    [
        "not-a-cursor",
        "%00",
        "%C3%A9",
        b64("p=abc"),
        b64("p="),
        b64("p=1.2.3"),
        b64("p=99999999999999999999"),
        b64("r=2&p=1"),
        b64("p=1&x=1"),
        b64("o=5&p=1"),
        b64("r=1"),
        b64("p=1&p=2"),
        b64("p=\u00e9"),
        b64("p=1")[:-1],
    ],
)
def test_a_forged_cursor_is_a_404_with_the_standard_body(api, night, cursor):
    for name, args in (
        ("api-entries", [night.pk]),
        ("api-games", [night.pk]),
        ("api-game-tables", [night.pk, 1]),
        ("api-results", [night.pk]),
        ("api-standings", [night.pk]),
    ):
        response = api.get(reverse(name, args=args) + f"?cursor={cursor}")
        assert response.status_code == 404, (name, cursor, response.content[:200])
        body = response.json()
        assert body["type"] == "client_error"
        assert body["errors"][0]["code"] == "not_found" and body["errors"][0]["detail"]


def test_a_cursor_past_the_end_is_an_empty_page_that_leads_back(api, night):
    url = reverse("api-entries", args=[night.pk])
    last = night.entries.order_by("-pk").first().pk
    body = api.get(url + f"?cursor={b64(f'p={last + 100}')}").json()
    assert body["results"] == [] and body["next"] is None
    back = api.get(body["previous"]).json()
    assert back["results"][-1]["id"] == last


def test_a_page_costs_the_same_queries_for_2_rows_or_100(api, django_assert_max_num_queries):
    event = event_with_field(200)  # 100 tables a game
    for _ in range(2):
        game = services.draw_next_game(event)
        for table in game.tables.filter(result__isnull=True):
            services.record_result(event, table=table, winner=table.seat_a, loser_score=80)
    recompute_standings(event.pk)
    for name, args, full in (
        ("api-entries", [], 100),
        ("api-games", [], 2),
        ("api-game-tables", [1], 100),
        ("api-results", [], 100),
        ("api-standings", [], 100),
    ):
        url = reverse(name, args=[event.pk, *args])
        counts = []
        for size in (2, 100):
            with CaptureQueriesContext(connection) as queries:
                body = api.get(url + f"?page_size={size}").json()
            counts.append(len(queries))
            assert len(body["results"]) == min(size, full), name
        assert counts[0] == counts[1], (name, counts)
        with django_assert_max_num_queries(5):  # standings: event, snapshot, page, movement x2
            api.get(url + "?page_size=100")


def test_a_public_standings_page_is_built_once_per_version_and_polled_by_etag(
    api, night, django_assert_max_num_queries
):
    url = reverse("api-standings", args=[night.pk])
    first = api.get(url)
    assert first.status_code == 200 and first["ETag"]
    with django_assert_max_num_queries(1):  # the version; the page comes from the cache
        again = api.get(url)
    assert again.json() == first.json()
    assert api.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    table = (
        night.rounds.get(number=2).tables.filter(result__isnull=True).exclude(seat_b=None).first()
    )
    services.record_result(night, table=table, winner=table.seat_a, loser_score=70)
    recompute_standings(night.pk)
    changed = api.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert changed.json()["results"][0]["version"] > first.json()["results"][0]["version"]
