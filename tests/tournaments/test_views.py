"""Pages: public pages answer without login; the TD pages enter results and show form errors."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory, event_with_field
from tournaments import services
from tournaments.models import GameResult
from tournaments.selectors_game import PAGE_SIZE

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(td_user):
    event = event_with_field(6, name="Jeudi soir à Brașov")
    event.club.directors.add(td_user)
    round_ = services.draw_next_game(event)
    return event, round_


def test_public_pages_answer_without_login(client, night, django_capture_on_commit_callbacks):
    event, round_ = night
    table = round_.tables.first()
    with django_capture_on_commit_callbacks(execute=True):
        services.record_result(event, table=table, winner=table.seat_a, loser_score=88)
    home = client.get(reverse("home"))
    assert home.status_code == 200 and "Jeudi soir à Brașov" in home.content.decode()
    page = client.get(reverse("event", args=[event.pk]))
    body = page.content.decode()
    assert page.status_code == 200
    assert table.seat_a.player.name in body and "+33" in body
    fragment = client.get(reverse("event-standings", args=[event.pk]), HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200 and "<html" not in fragment.content.decode()
    assert 'hx-trigger="every 2s"' in fragment.content.decode()
    assert client.get(reverse("event-projector", args=[event.pk])).status_code == 200


def test_unpublished_standings_are_hidden_from_the_public(client, night):
    event, _ = night
    services.set_standings_published(event, False)
    body = client.get(reverse("event", args=[event.pk])).content.decode()
    assert "has not published the standings" in body


def test_td_pages_need_login_and_the_right_club(client, night):
    event, _ = night
    url = reverse("td-event", args=[event.pk])
    assert client.get(url).status_code == 302
    stranger = UserFactory(username="other-td")
    ClubFactory().directors.add(stranger)
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    assert client.get(reverse("td-game", args=[event.pk, 1])).status_code == 404


def test_td_enters_a_result(td_client, night):
    event, round_ = night
    assert td_client.get(reverse("td-event", args=[event.pk])).status_code == 200
    url = reverse("td-game", args=[event.pk, 1])
    page = td_client.get(url)
    assert page.status_code == 200 and page.content.decode().count('name="loser_score"') == 3
    table = round_.tables.order_by("number").first()
    response = td_client.post(
        url, {"table": table.pk, "winner": table.seat_b_id, "loser_score": "104"}
    )
    assert response.status_code == 302
    result = GameResult.objects.get(table=table)
    assert (result.winner_id, result.margin, result.winner_points) == (table.seat_b_id, 17, 2)


def test_htmx_post_returns_just_the_table_card(td_client, night):
    event, round_ = night
    table = round_.tables.order_by("number").first()
    response = td_client.post(
        reverse("td-game", args=[event.pk, 1]),
        {"table": table.pk, "winner": table.seat_a_id, "loser_score": "60"},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body and f'id="card-{table.pk}"' in body and "Saved." in body
    # The page's "Open tables (N)" counts down with it (the card carries the count).
    open_now = round_.tables.filter(seat_b__isnull=False, result__isnull=True).count()
    assert f'data-open="{open_now}"' in body


def test_a_refused_card_says_so_and_keeps_what_was_typed(td_client, night):
    """The card of a refused entry is marked for the keyboard script (the cursor stays on its
    field in error, tests/e2e/test_integrity.py) and keeps the winner and the typed score."""
    event, round_ = night
    table = round_.tables.order_by("number")[1]
    response = td_client.post(
        reverse("td-game", args=[event.pk, 1]),
        {"table": table.pk, "winner": table.seat_b_id, "loser_score": "125"},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert 'data-entry="refused"' in body and 'data-entry="saved"' not in body
    assert "data-open" not in body  # nothing changed
    assert 'value="125"' in body and "must be below 121" in body
    assert re.search(rf'id="t{table.pk}-w{table.seat_b_id}"[^>]*\s+checked>', body)
    saved = td_client.post(
        reverse("td-game", args=[event.pk, 1]),
        {"table": table.pk, "winner": table.seat_b_id, "loser_score": "100"},
        HTTP_HX_REQUEST="true",
    )
    assert 'data-entry="saved"' in saved.content.decode()


@pytest.mark.parametrize(
    ("loser_score", "message"),
    [("121", "must be below 121"), ("-3", "cannot be negative"), ("", "Enter the loser")],
)
def test_bad_result_gives_a_form_error_and_changes_nothing(td_client, night, loser_score, message):
    event, round_ = night
    table = round_.tables.order_by("number").first()
    response = td_client.post(
        reverse("td-game", args=[event.pk, 1]),
        {"table": table.pk, "winner": table.seat_a_id, "loser_score": loser_score},
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not GameResult.objects.filter(table=table).exists()


def test_player_not_at_the_table_is_a_form_error(td_client, night):
    event, round_ = night
    table, other = round_.tables.order_by("number")[:2]
    response = td_client.post(
        reverse("td-game", args=[event.pk, 1]),
        {"table": table.pk, "winner": other.seat_a_id, "loser_score": "100"},
        HTTP_HX_REQUEST="true",
    )
    assert f"is not at table {table.number}" in response.content.decode()
    assert not GameResult.objects.exists()


def test_table_of_another_game_is_a_form_error(td_client, night):
    event, round_ = night
    for table in round_.tables.all():
        services.record_result(event, table=table, winner=table.seat_a, loser_score=100)
    services.draw_next_game(event)
    old_table = round_.tables.order_by("number").first()
    response = td_client.post(
        reverse("td-game", args=[event.pk, 2]),
        {"table": old_table.pk, "winner": old_table.seat_b_id, "loser_score": "100"},
    )
    assert response.status_code == 400
    assert "belongs to game 1, not game 2" in response.content.decode()
    assert GameResult.objects.get(table=old_table).winner_id == old_table.seat_a_id


def test_td_draws_checks_in_and_registers(td_client, night):
    event, _round = night
    response = td_client.post(reverse("td-draw", args=[event.pk]), follow=True)
    assert "still has open tables" in response.content.decode()
    response = td_client.post(
        reverse("td-register", args=[event.pk]),
        {"name": "Jürgen Weiß", "acc_number": "", "status": "visitor"},
    )
    assert response.status_code == 302
    entry = event.entries.get(player__name="Jürgen Weiß")
    response = td_client.post(
        reverse("td-entry", args=[event.pk, entry.pk]),
        {"action": "check_out"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and "not checked in" in response.content.decode()
    entry.refresh_from_db()
    assert not entry.checked_in


def test_language_switch_keeps_working(client, night):
    response = client.post(reverse("set_language"), {"language": "it", "next": "/"})
    assert response.status_code == 302


def test_td_sets_the_ranking_chain(td_client, night):
    event, _ = night
    url = reverse("td-chain", args=[event.pk])
    response = td_client.post(
        url, {"tiebreakers": "game_points, head_to_head spread draw"}, follow=True
    )
    assert "Ranking chain saved" in response.content.decode()
    event.refresh_from_db()
    assert event.tiebreakers == ["game_points", "head_to_head", "spread", "draw"]
    response = td_client.post(url, {"tiebreakers": "game_points luck"}, follow=True)
    assert "Unknown tiebreaker &#x27;luck&#x27;" in response.content.decode()
    event.refresh_from_db()
    assert event.tiebreakers == ["game_points", "head_to_head", "spread", "draw"]


def test_a_large_game_page_opens_on_its_open_tables_and_finds_one(td_client, td_user):
    event = event_with_field(140)
    event.club.directors.add(td_user)
    round_ = services.draw_next_game(event)
    tables = list(round_.tables.order_by("number"))
    for table in tables[:60]:
        services.record_result(event, table=table, winner=table.seat_a, loser_score=100)
    url = reverse("td-game", args=[event.pk, 1])
    page = td_client.get(url).content.decode()
    assert page.count('name="loser_score"') == 10
    assert 'Open tables (<span id="open-count">10</span>)' in page
    assert page.count('id="open-count"') == 1  # the cards carry no copy of it
    # All 70 tables, a page of PAGE_SIZE (30) at a time: 30, 30 and 10.
    assert PAGE_SIZE == 30
    first = td_client.get(url, {"show": "all"}).content.decode()
    assert first.count('name="loser_score"') == 30 and "Page 1 of 3" in first
    last = td_client.get(url, {"show": "all", "page": "3"}).content.decode()
    assert last.count('name="loser_score"') == 10 and "Page 3 of 3" in last
    by_number = td_client.get(url, {"find": "7"}).content.decode()
    assert by_number.count('name="loser_score"') == 1
    name = tables[-1].seat_b.player.name
    by_name = td_client.get(url, {"find": name}).content.decode()
    assert by_name.count('name="loser_score"') == 1 and name in by_name


def test_draw_again_is_not_offered_on_a_game_with_a_result_among_hidden_tables(td_client, night):
    """The page showing only open tables (or a search) still knows the game has results."""
    event, round_ = night
    first, second, _third = round_.tables.order_by("number")
    services.record_result(event, table=first, winner=first.seat_a, loser_score=100)
    url = reverse("td-game", args=[event.pk, 1])
    for query in ({}, {"show": "open"}, {"find": str(second.number)}):
        page = td_client.get(url, query).content.decode()
        assert "Draw again" not in page, query
    assert td_client.post(reverse("td-redraw", args=[event.pk, 1])).status_code == 302
    assert round_.tables.get(pk=first.pk).result.loser_score == 100  # not redrawn


def test_all_tables_counts_the_tables_played_not_the_bye(td_client, td_user):
    event = event_with_field(7)  # three tables and a bye
    event.club.directors.add(td_user)
    services.draw_next_game(event)
    page = td_client.get(reverse("td-game", args=[event.pk, 1])).content.decode()
    assert "All tables (3)" in page and 'Open tables (<span id="open-count">3</span>)' in page
