"""The TD's game page of a large game: a page of cards whatever the field, the tables that need
the TD first, the search, the entry by table number and the page links (issue 26)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from results import services as result_services
from tests.factories import event_with_field
from tournaments import services
from tournaments.models import Table
from tournaments.selectors_game import ATTENTION_SHOWN, PAGE_SIZE

CARD = re.compile(r'<div class="col" id="card-(\d+)" data-table-number="(\d+)"')


def cards(body: str) -> list[int]:
    """The table numbers of the cards on a page, in order."""
    return [int(number) for _pk, number in CARD.findall(body)]


def large_game(td_user, players: int):
    event = event_with_field(players)
    event.club.directors.add(td_user)
    round_ = services.draw_next_game(event)
    return event, round_, reverse("td-game", args=[event.pk, 1])


@pytest.fixture
def game(td_user):
    """Game 1 of a 120-player event: 60 tables, a page and a half."""
    return large_game(td_user, 120)


def table(round_, number: int) -> Table:
    return round_.tables.select_related("seat_a__player", "seat_b__player").get(number=number)


def test_a_page_holds_the_same_number_of_cards_and_queries_whatever_the_field(td_client, td_user):
    seen = []
    for players in (2 * PAGE_SIZE + 10, 4 * PAGE_SIZE + 20):  # 35 and 70 tables
        _event, _round, url = large_game(td_user, players)
        with CaptureQueriesContext(connection) as queries:
            body = td_client.get(url).content.decode()
        assert cards(body) == list(range(1, PAGE_SIZE + 1))
        assert 'id="table-pages"' in body and 'id="enter-table"' in body
        seen.append(len(queries))
    assert seen[0] == seen[1]


def test_the_summary_counts_and_the_tables_that_need_the_td_come_first(td_client, game):
    event, round_, url = game
    done = table(round_, 1)
    services.record_result(event, table=done, winner=done.seat_a, loser_score=90)
    reported = [table(round_, n) for n in (30, 50, 55)]
    for t in reported:
        result_services.submit(
            result_services.key_for(t.seat_a).key, table=t, winner=t.seat_a, loser_score=80
        )
    disputed = table(round_, 57)
    key_a = result_services.key_for(disputed.seat_a).key
    result_services.submit(key_a, table=disputed, winner=disputed.seat_a, loser_score=95)
    result_services.submit(
        result_services.key_for(disputed.seat_b).key,
        table=disputed,
        winner=disputed.seat_b,
        loser_score=100,
    )
    result_services.dispute(key_a, table=disputed, reason="he pegged 3 twice")

    body = td_client.get(url).content.decode()
    item = r'<li class="list-inline-item">([^<:]+): <strong>(\d+)</strong>'
    summary = dict(re.findall(item, body))
    assert summary == {
        "Open": "59",
        "Reported, waiting for the opponent": "3",
        "Disputed": "1",
        "Done": "1",
    }
    attention = body[body.index('id="attention"') : body.index('id="tables"')]
    assert cards(attention) == [57, 30, 50, 55]  # the dispute first, then the reports
    assert "Accept this report" in attention
    # The list goes on with the other open tables: none twice, none left out.
    listed = cards(body[body.index('id="tables"') :])
    assert listed == [n for n in range(2, 60) if n not in (30, 50, 55, 57)][:PAGE_SIZE]
    second = cards(td_client.get(url, {"page": 2}).content.decode().split('id="tables"')[1])
    assert sorted(listed + second + [30, 50, 55, 57]) == list(range(2, 61))


def test_more_reports_than_the_first_rows_hold_stay_marked_in_the_list(td_client, game):
    event, round_, url = game
    for number in range(1, ATTENTION_SHOWN + 3):
        t = table(round_, number)
        result_services.submit(
            result_services.key_for(t.seat_a).key, table=t, winner=t.seat_a, loser_score=80
        )
    body = td_client.get(url).content.decode()
    assert len(cards(body.split('id="tables"')[0])) == ATTENTION_SHOWN
    assert "2 more tables with a player's report are marked in the list below." in body
    listed = body.split('id="tables"')[1]
    assert cards(listed)[:2] == [ATTENTION_SHOWN + 1, ATTENTION_SHOWN + 2]
    assert listed.count("reported, waiting for the opponent") == 2


def test_search_by_table_number_or_name_accents_and_case_aside(td_client, game):
    event, round_, url = game
    target = table(round_, 47)
    target.seat_b.player.name = "Ștefan Țurcanu"
    target.seat_b.player.save()
    assert cards(td_client.get(url, {"find": "47"}).content.decode()) == [47]
    for typed in ("stefan turcanu", "TURCANU", "Țurcanu ștefan"):
        body = td_client.get(url, {"find": typed}).content.decode()
        assert cards(body) == [47], typed
        assert "Ștefan Țurcanu" in body
    body = td_client.get(url, {"find": "nobody here"}).content.decode()
    assert cards(body) == [] and "No table matches." in body


def test_the_entry_box_opens_one_table_card(td_client, game):
    _event, round_, url = game
    fragment = td_client.get(url, {"card": "52"}, HTTP_HX_REQUEST="true")
    body = fragment.content.decode()
    assert fragment.status_code == 200 and "<html" not in body
    assert cards(body) == [52] and 'name="loser_score"' in body
    assert table(round_, 52).seat_a.player.name in body
    missing = td_client.get(url, {"card": "999"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Game 1 has no table 999." in missing and 'role="alert"' in missing
    assert "no table" in td_client.get(url, {"card": "x"}, HTTP_HX_REQUEST="true").content.decode()
    # Without JavaScript the box is a search: the page with that one card.
    assert cards(td_client.get(url, {"card": "52"}).content.decode()) == [52]


def test_page_links_keep_the_list_and_the_search(td_client, game):
    _event, _round, url = game
    first = td_client.get(url).content.decode()
    assert "Page 1 of 2" in first and 'rel="next" href="?page=2"' in first
    assert 'rel="prev"' not in first
    second = td_client.get(url, {"page": 2}).content.decode()
    assert "Page 2 of 2" in second and 'rel="prev" href="?page=1"' in second
    assert cards(second) == list(range(PAGE_SIZE + 1, 61))
    everything = td_client.get(url, {"show": "all", "page": 2}).content.decode()
    assert 'href="?show=all&amp;page=1"' in everything
    by_name = td_client.get(url, {"find": "player"}).content.decode()  # every player matches
    assert len(cards(by_name)) == PAGE_SIZE and 'href="?find=player&amp;page=2"' in by_name
    # Nonsense or past the end: the first or the last page, never an error.
    assert "Page 1 of 2" in td_client.get(url, {"page": "x"}).content.decode()
    assert "Page 2 of 2" in td_client.get(url, {"page": "99"}).content.decode()


def test_a_save_names_the_next_open_table_for_the_cursor(td_client, game):
    event, round_, url = game
    for number in (42, 43):
        t = table(round_, number)
        services.record_result(event, table=t, winner=t.seat_a, loser_score=70)

    def save(number):
        t = table(round_, number)
        body = td_client.post(
            url, {"table": t.pk, "winner": t.seat_b_id, "loser_score": "88"}, HTTP_HX_REQUEST="true"
        ).content.decode()
        assert 'data-entry="saved"' in body
        found = re.search(r'data-next="(\d+)"', body)
        return int(found.group(1)) if found else None

    assert save(41) == 44  # the next open one, past the tables already done
    assert save(60) == 1  # none after the last: back to the first open table
    for t in round_.tables.filter(result__isnull=True).exclude(number=5):
        services.record_result(event, table=t, winner=t.seat_a, loser_score=70)
    assert save(5) is None  # the game is complete: nowhere to go


def test_a_refused_plain_post_shows_that_card_with_its_error_even_off_the_page(td_client, game):
    _event, round_, url = game
    t = table(round_, 58)
    response = td_client.post(url, {"table": t.pk, "winner": t.seat_a_id, "loser_score": "130"})
    body = response.content.decode()
    assert response.status_code == 400 and "must be below 121" in body
    entry = body[body.index('id="entry-cards"') : body.index('id="tables"')]
    assert cards(entry) == [58] and 'value="130"' in entry
    assert body.count(f'id="card-{t.pk}"') == 1


def test_a_small_game_looks_as_it_did(td_client, td_user):
    event, _round, url = large_game(td_user, 24)
    body = td_client.get(url).content.decode()
    assert cards(body) == list(range(1, 13))
    for new in ('id="game-summary"', 'id="enter-table"', 'id="table-pages"', 'id="attention"'):
        assert new not in body


def test_a_finished_large_game_stays_small(td_client, game):
    event, round_, url = game
    for t in round_.tables.all():
        services.record_result(event, table=t, winner=t.seat_a, loser_score=70)
    body = td_client.get(url).content.decode()
    assert cards(body) == [] and "Every table of this game has a result." in body
    assert len(body) < 20_000


def test_an_open_card_is_blank_and_a_recorded_one_shows_its_result_in_its_fields(td_client, game):
    # Open cards are drawn without a form: nothing checked, no score; a recorded table's card
    # still comes with its form, filled with the result.
    event, round_, url = game
    done = table(round_, 2)
    services.record_result(event, table=done, winner=done.seat_b, loser_score=87)
    body = td_client.get(url, {"show": "all"}).content.decode()
    open_card = body.split(f'id="card-{table(round_, 1).pk}"')[1].split('<div class="col"')[0]
    assert " checked" not in open_card and 'name="loser_score" type="number"' in open_card
    assert 'value=""' in open_card and 'name="reason"' not in open_card
    done_card = body.split(f'id="card-{done.pk}"')[1].split('<div class="col"')[0]
    assert (
        f'value="{done.seat_b.pk}" id="t{done.pk}-w{done.seat_b.pk}" autocomplete="off" checked'
        in done_card
    )
    assert 'value="87"' in done_card and 'name="reason"' in done_card
