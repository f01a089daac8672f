"""Three-handed cribbage pages and API: the TD's game page (a refused table is a form error
beside the row), the players' sheet from their private links, public seating and standings,
exports, the API of a table's scores."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse
from rest_framework.test import APIClient

from results import services as result_services
from results.models import NetSheet
from scoring.exports import results_export, seating_export
from scoring.services import recompute_standings
from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments import services
from tournaments.models import AuditEntry, Event, StoppaTable
from tournaments.threehanded import services as services_three
from tournaments.threehanded.kind import KEY

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Bea", "Ștefan", "Łucja", "Jürgen", "Niccolò")


@pytest.fixture
def night():
    cache.clear()
    event = EventFactory(game=KEY, name="Three-handed night", target=121)
    for name in NAMES:
        EntryFactory(event=event, player__name=name)
    td = UserFactory(username="td3")
    event.club.directors.add(td)
    round_ = services.draw_next_game(event)
    return event, round_, td


def seats_of(table: StoppaTable):
    return list(table.seats.select_related("entry__player").order_by("position"))


def test_the_td_keys_a_table_and_a_mistake_is_a_form_error(client, night):
    event, round_, td = night
    client.force_login(td)
    url = reverse("td-three-game", args=[event.pk, 1])
    page = client.get(url)
    assert page.status_code == 200
    table = round_.stoppa_tables.get(number=1)
    a, b, c = seats_of(table)
    assert a.entry.player.name in page.content.decode()
    wrong = {
        "table": table.pk,
        f"score_{a.entry_id}": 121,
        f"score_{b.entry_id}": 121,
        f"score_{c.entry_id}": 90,
    }
    refused = client.post(url, wrong)
    assert refused.status_code == 400
    assert "Only one player can reach 121" in refused.content.decode()
    table.refresh_from_db()
    assert not table.has_result
    right = dict(wrong, **{f"score_{b.entry_id}": 100})
    assert client.post(url, right).status_code == 302
    table.refresh_from_db()
    assert table.has_result
    assert [s.net for s in seats_of(table)] == [121, 100, 90]
    audit = AuditEntry.objects.get(event=event, action="table_scores")
    assert audit.new["nets"] == {
        a.entry.player.name: 121,
        b.entry.player.name: 100,
        c.entry.player.name: 90,
    }


def test_players_report_and_confirm_from_their_links(client, night):
    event, round_, _td = night
    table = round_.stoppa_tables.get(number=2)
    a, b, c = seats_of(table)
    link = reverse("player-page", args=[result_services.key_for(a.entry).key])
    page = client.get(link)
    assert "Send the table's scores" in page.content.decode()
    bad = {
        "action": "report_nets",
        "table": table.pk,
        f"net-{a.entry_id}": "110",
        f"net-{b.entry_id}": "100",
        f"net-{c.entry_id}": "90",
    }
    refused = client.post(link, bad)
    assert refused.status_code == 400
    assert "Nobody at table 2 reached 121" in refused.content.decode()
    sent = client.post(link, dict(bad, **{f"net-{a.entry_id}": "121"}))
    assert sent.status_code == 302
    sheet = NetSheet.objects.get(table=table, status=NetSheet.Status.OPEN)
    for other in (b, c):
        other_link = reverse("player-page", args=[result_services.key_for(other.entry).key])
        assert "Confirm these scores" in client.get(other_link).content.decode()
        client.post(other_link, {"action": "confirm_nets", "table": table.pk, "sheet": sheet.pk})
    table.refresh_from_db()
    assert table.has_result and [s.net for s in seats_of(table)] == [121, 100, 90]


def test_public_pages_exports_and_standings(client, night):
    event, round_, _td = night
    for table in round_.stoppa_tables.all():
        a, b, c = seats_of(table)
        services_three.record_table_scores(
            event, table=table, scores={a.entry_id: 121, b.entry_id: 95, c.entry_id: 60}
        )
    recompute_standings(event.pk)
    winner = seats_of(round_.stoppa_tables.get(number=1))[0].entry.player.name
    standings = client.get(reverse("event", args=[event.pk]))
    assert standings.status_code == 200
    assert winner in standings.content.decode()
    seating = client.get(reverse("event-seating", args=[event.pk]))
    assert seating.status_code == 200 and "Table 2" in seating.content.decode()
    rows = results_export(event).records()
    assert {r["place"] for r in rows} == {1, 2, 3}
    assert {(r["score"], r["game_points"]) for r in rows} == {(121, 2), (95, 1), (60, 0)}
    assert len(seating_export(event).rows) == 6


def test_the_td_api_records_a_tables_scores(night):
    event, round_, td = night
    api = APIClient()
    api.force_authenticate(td)
    table = round_.stoppa_tables.get(number=1)
    a, b, c = seats_of(table)
    url = f"/api/v1/events/{event.pk}/three-handed/results/"
    body = {
        "game": 1,
        "table": 1,
        "scores": [
            {"entry": a.entry_id, "score": 121},
            {"entry": b.entry_id, "score": 130},
            {"entry": c.entry_id, "score": 3},
        ],
    }
    refused = api.post(url, body, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == "score_over_target"
    body["scores"][1]["score"] = 61
    made = api.post(url, body, format="json")
    assert made.status_code == 201, made.content
    assert [s["score"] for s in made.json()["seats"]] == [121, 61, 3]
    listed = APIClient().get(f"/api/v1/events/{event.pk}/three-handed/games/")
    assert listed.status_code == 200
    assert listed.json()[0]["tables"][0]["seats"][0]["score"] == 121


def test_another_kinds_event_is_not_found_here(client, night):
    _event, _round, td = night
    other = EventFactory(game="cribbage", club=_event.club)
    client.force_login(td)
    assert client.get(reverse("td-three-game", args=[other.pk, 1])).status_code == 404
    assert Event.objects.filter(game=KEY).count() == 1


def test_the_td_api_draws_releases_and_finishes_a_three_handed_night():
    cache.clear()
    event = EventFactory(game=KEY, games_planned=1, target=61)
    for name in NAMES:
        EntryFactory(event=event, player__name=name)
    td = UserFactory(username="td-api")
    event.club.directors.add(td)
    api = APIClient()
    api.force_authenticate(td)
    drawn = api.post(reverse("api-games", args=[event.pk]), {"draft": True}, format="json")
    assert drawn.status_code == 201, drawn.content
    released = api.post(f"/api/v1/events/{event.pk}/games/1/release/", {}, format="json")
    assert released.status_code == 200, released.content
    games = api.get(f"/api/v1/events/{event.pk}/three-handed/games/").json()
    assert [len(t["seats"]) for t in games[0]["tables"]] == [3, 3]
    for table in games[0]["tables"]:
        scores = [
            {"entry": s["entry"], "score": v}
            for s, v in zip(table["seats"], [61, 45, 20], strict=True)
        ]
        body = {"game": 1, "table": table["number"], "scores": scores}
        made = api.post(f"/api/v1/events/{event.pk}/three-handed/results/", body, format="json")
        assert made.status_code == 201, made.content
    points = f"/api/v1/events/{event.pk}/three-handed/place-points/"
    bad = api.put(points, {"points_first": 1, "points_second": 2, "points_third": 0}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["code"] == "bad_format"
    assert APIClient().put(points, {}, format="json").status_code in (401, 403)
    set_ = api.put(
        points, {"points_first": 3, "points_second": 1, "points_third": 0}, format="json"
    )
    assert set_.status_code == 200 and set_.json()["points_first"] == 3
    assert APIClient().get(points).json() == set_.json()
    finished = api.post(f"/api/v1/events/{event.pk}/finish/", {}, format="json")
    assert finished.status_code == 200, finished.content
    recompute_standings(event.pk)
    rows = api.get(reverse("api-standings", args=[event.pk])).json()["results"]
    assert sorted(r["game_points"] for r in rows) == [0, 0, 1, 1, 3, 3]


def test_the_desk_projector_and_board_speak_of_scores(client, night):
    event, round_, td = night
    table = round_.stoppa_tables.get(number=1)
    a, b, c = seats_of(table)
    key = result_services.key_for(a.entry).key
    client.post(
        reverse("player-page", args=[key]),
        {
            "action": "report_nets",
            "table": table.pk,
            f"net-{a.entry_id}": "121",
            f"net-{b.entry_id}": "99",
            f"net-{c.entry_id}": "98",
        },
    )
    client.force_login(td)
    desk = client.get(f"/td/events/{event.pk}/results/").content.decode()
    assert "Scores waiting for the players" in desk and "Nets waiting" not in desk
    assert a.entry.player.name in desk
    projector = client.get(reverse("event-projector", args=[event.pk]))
    assert projector.status_code == 200
    board = client.get(reverse("event-projector-seating", args=[event.pk]))
    assert board.status_code == 200
    assert a.entry.player.name in board.content.decode()


def test_the_td_creates_a_three_handed_night_and_sets_its_place_points(td_client, td_user):
    from tests.factories import ClubFactory
    from tests.tournaments.test_club_pages import wizard_data

    club = ClubFactory()
    club.directors.add(td_user)
    url = reverse("td-event-new", args=[club.pk])
    assert "Three-handed cribbage" in td_client.get(url).content.decode()
    created = td_client.post(url, wizard_data(game=KEY, chain_game=KEY, target="61"))
    assert created.status_code == 302, created.content.decode()[:2000]
    event = Event.objects.get(club=club)
    assert event.game == KEY and event.target == 61
    assert event.ranking_chain == ("game_points", "games_won", "spread")
    page = td_client.get(reverse("td-event", args=[event.pk])).content.decode()
    assert "Place points" in page and "Start: draw game 1" in page
    points = reverse("td-place-points", args=[event.pk])
    td_client.post(points, {"points_first": "1", "points_second": "2", "points_third": "0"})
    event.refresh_from_db()
    assert (event.points_first, event.points_second) == (2, 1)  # refused: worse beats better
    td_client.post(points, {"points_first": "3", "points_second": "1", "points_third": "0"})
    event.refresh_from_db()
    assert (event.points_first, event.points_second, event.points_third) == (3, 1, 0)


def test_the_td_downloads_the_nights_csv_with_accented_names(client, night):
    event, round_, td = night
    for table in round_.stoppa_tables.all():
        a, b, c = seats_of(table)
        services_three.record_table_scores(
            event, table=table, scores={a.entry_id: 121, b.entry_id: 95, c.entry_id: 95}
        )
    recompute_standings(event.pk)
    client.force_login(td)
    for what in ("standings", "results", "seating"):
        url = reverse("td-event-export", args=[event.pk, what, "csv"])
        response = client.get(url)
        assert response.status_code == 200, what
        body = response.content.decode("utf-8-sig")
        assert "Ștefan" in body and "Łucja" in body and "Niccolò" in body, what
    results = client.get(reverse("td-event-export", args=[event.pk, "results", "csv"]))
    lines = results.content.decode("utf-8-sig").splitlines()
    assert lines[0].split(",")[-3:] == ["Score", "Place", "Game points"]
    # The two players tied on 95 share second place and its point.
    assert sum(line.endswith(",95,2,1") for line in lines) == 4


def test_score_cards_and_the_pdf_set_of_a_three_handed_night(
    client, night, django_capture_on_commit_callbacks
):
    from results import printables
    from results.models import PrintJob

    event, round_, td = night
    table = round_.stoppa_tables.get(number=1)
    a, b, c = seats_of(table)
    services_three.record_table_scores(
        event, table=table, scores={a.entry_id: 121, b.entry_id: 100, c.entry_id: 77}
    )
    cards = {card["entry"].pk: card for card in printables.score_cards(event, "http://x/")}
    first = cards[c.entry_id]["rows"][0]
    assert (first["game"], first["table"], first["seat"], first["score"]) == (1, 1, 3, 77)
    assert len(printables.table_cards(event, "http://x/")) == 2
    client.force_login(td)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("results-print", args=[event.pk]))
    assert response.status_code == 302
    job = PrintJob.objects.get(event=event)
    assert (job.status, job.total) == ("done", 6 + 2)
    assert bytes(job.pdf).startswith(b"%PDF")


def test_the_crosstable_shows_each_tables_scores_without_a_sign(client, night):
    event, round_, _td = night
    for table in round_.stoppa_tables.all():
        a, b, c = seats_of(table)
        services_three.record_table_scores(
            event, table=table, scores={a.entry_id: 121, b.entry_id: 95, c.entry_id: 60}
        )
    recompute_standings(event.pk)
    page = client.get(reverse("event-crosstable", args=[event.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    # A score is a score (121, 95, 60), not a chip net (+121); the totals are game points.
    assert "121" in html and "+121" not in html and "+95" not in html
    # The legend is the kind's (no W or L here), and the loser on 60 is skunked (<= 90).
    assert "Each game: everyone at the player&#x27;s table" in html and "W or L" not in html
    first = seats_of(round_.stoppa_tables.get(number=1))[0].entry.player.name
    assert first in html
    tables = round_.stoppa_tables.count()
    assert html.count('60 <span title="skunk">*</span>') == 3 * tables
    assert '95 <span title="skunk">' not in html
    data = client.get(reverse("api-crosstable", args=[event.pk])).json()
    skunks = {
        score: {
            cell["skunk"] for row in data["rows"] for cell in row["cells"] if cell["score"] == score
        }
        for score in (121, 95, 60)
    }
    assert skunks == {121: {1}, 95: {0}, 60: {1}}  # the winner's skunk won, the loser's suffered


def test_the_round_clock_runs_on_a_three_handed_game_and_lists_the_tables_at_time(client, night):
    """The clock panel is on the three-handed game page as on a two-player game's; at time it
    lists the tables of three still without scores, to key by the club's rule."""
    import datetime

    from django.utils import timezone

    from tournaments.services import clock as clock_services

    event, round_, td = night
    client.force_login(td)
    page_url = reverse("td-three-game", args=[event.pk, 1])
    page = client.get(page_url).content.decode()
    assert 'id="td-clock"' in page and "Start the clock" in page
    clock_url = reverse("td-clock", args=[event.pk, 1])
    started = client.post(clock_url, {"action": "start", "minutes": "20"}, HTTP_HX_REQUEST="true")
    assert started.status_code == 200 and "Pause" in started.content.decode()
    # Without JS a clock action lands back on this page, not the two-player one.
    paused = client.post(clock_url, {"action": "pause"})
    assert paused.status_code == 302 and paused.url == page_url
    bad = client.post(clock_url, {"action": "pause"})  # not running: said on this page
    assert bad.status_code == 302 and bad.url == page_url
    # At time: the tables without scores, with their players.
    clock_services.stop_clock(round_)
    clock_services.start_clock(
        round_, minutes=1, now=timezone.now() - datetime.timedelta(minutes=2)
    )
    tables = list(round_.stoppa_tables.filter(number__isnull=False).order_by("number"))
    a, b, c = seats_of(tables[0])
    services_three.record_table_scores(
        event, table=tables[0], scores={a.entry_id: 121, b.entry_id: 95, c.entry_id: 60}
    )
    panel = client.get(clock_url).content.decode()
    n = len(tables) - 1
    assert f"Time: {n} table" in panel and "Key each table" in panel
    assert f'id="at-time-{tables[0].number}"' not in panel
    open_names = [s.entry.player.name for s in seats_of(tables[1])]
    assert ", ".join(open_names) in panel


def test_a_three_handed_player_checks_in_and_sees_the_clock_on_their_own_link(client):
    """The door's "I'm here" and the hall's clock on a three-handed player's page, as on a
    two-player game's."""
    from tournaments.services import clock as clock_services

    cache.clear()
    event = EventFactory(game=KEY, name="Three-handed night", target=121)
    for name in NAMES:
        EntryFactory(event=event, player__name=name, checked_in=False)
    entry = event.entries.order_by("pk").first()
    url = f"/k/{result_services.key_for(entry).key}/"
    page = client.get(url).content.decode()
    assert 'id="im-here"' in page and 'id="hall-clock"' not in page
    assert client.post(url, {"action": "here"}).status_code == 302
    entry.refresh_from_db()
    assert entry.checked_in and entry.checked_in_how == "link"
    services.check_in_all(event)
    round_ = services.draw_next_game(event)
    clock_services.start_clock(round_, minutes=15)
    page = client.get(url).content.decode()
    assert 'id="hall-clock"' in page and "js/clock.js" in page and 'id="im-here"' not in page
