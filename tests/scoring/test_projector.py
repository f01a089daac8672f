"""The projector (standings, "find your table", bracket) and the public event page's live
seating: what they show, and that their polls stay cheap (ETag, 304, one render a version)."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from scoring.services import recompute_standings
from tests.factories import EntryFactory, event_with_field, stoppa_event_with_field
from tournaments import services
from tournaments.models import Event, StoppaSeat, Table

pytestmark = pytest.mark.django_db

# One line of the "find your table" board: the name, then the table number or a note.
BOARD_LINE = re.compile(
    r'<li class="seat-line"><span class="seat-name">([^<]*)</span><span class="seat-table">'
    r'(?:<span class="visually-hidden">table </span>(\d+)|<span class="seat-note">([^<]*)</span>)'
)


def board(body: str) -> list[tuple[str, str]]:
    """The board's lines as (name, table number or note), in the order shown."""
    return [(html.unescape(name), table or note) for name, table, note in BOARD_LINE.findall(body)]


def projector(client, event: Event, **query) -> str:
    answer = client.get(reverse("event-projector", args=[event.pk]), query)
    assert answer.status_code == 200
    return answer.content.decode()


@pytest.fixture
def big_night(django_capture_on_commit_callbacks):
    """A 200-player club night, game 1 drawn and every table played, standings computed."""
    event = event_with_field(200, name="Gran Premio d'Autunno")
    round_ = services.draw_next_game(event)
    with django_capture_on_commit_callbacks(execute=True):
        for i, table in enumerate(round_.tables.order_by("number")):
            services.record_result(
                event, table=table, winner=table.seat_a, loser_score=20 + i % 100
            )
    return event


def test_the_projector_shows_every_standings_row_full_screen_in_the_dark(client, big_night):
    body = projector(client, big_night)
    names = big_night.entries.values_list("player__name", "player_id")
    assert body.count("<tr") == 201  # the header and every one of the 200 players
    for name, player_id in names:
        assert f'<a href="/players/{player_id}/">{html.escape(name)}</a>' in body
    assert 'data-bs-theme="dark"' in body and 'data-seconds="10"' in body
    # Full screen: none of the site's navbar, login or language menu.
    assert "navbar" not in body and "set_language" not in body and "log in" not in body.lower()
    assert 'data-pager="#standings tbody tr"' in body and "js/projector.js" in body
    poll = reverse("event-standings", args=[big_night.pk]) + "?all=1"
    assert f'hx-get="{poll}"' in body  # the cheap, cached poll of the public page, every row
    assert client.get(poll).content.decode().count("<tr") == 201


def test_theme_seconds_and_view_come_from_the_query_and_bad_values_fall_back(client, big_night):
    light = projector(client, big_night, theme="light", seconds="3", view="seating")
    assert 'data-bs-theme="light"' in light and 'data-seconds="3"' in light
    # The toggle keeps the view and the pace and switches the theme; the strip switches view.
    assert 'href="?view=seating&amp;seconds=3">Dark theme</a>' in light
    assert 'href="?theme=light&amp;seconds=3">Standings</a>' in light
    odd = projector(client, big_night, theme="pink", seconds="soon", view="everything")
    assert 'data-bs-theme="dark"' in odd and 'data-seconds="10"' in odd
    assert odd.count("<tr") == 201  # the standings
    assert 'data-seconds="600"' in projector(client, big_night, seconds="99999")
    assert 'data-seconds="1"' in projector(client, big_night, seconds="0")


def test_find_your_table_lists_every_player_alphabetically_with_their_table(client, big_night):
    game_2 = services.draw_next_game(big_night)
    body = projector(client, big_night, view="seating")
    tables = Table.objects.filter(round=game_2).values_list(
        "number", "seat_a__player__name", "seat_b__player__name"
    )
    expected = {a: str(n) for n, a, _ in tables} | {b: str(n) for n, _, b in tables}
    lines = board(body)
    assert len(lines) == 200 and dict(lines) == expected  # game 2's tables, not game 1's
    assert [name for name, _ in lines] == sorted(expected)
    assert '<h2 class="board-title">Game 2</h2>' in body
    assert 'data-pager=".seat-board > li"' in body
    assert f'hx-get="{reverse("event-projector-seating", args=[big_night.pk])}"' in body


def test_find_your_table_sorts_accents_with_their_letter_and_shows_the_bye(client):
    event = event_with_field(0)
    for name in ("Zoë Lindqvist", "Ștefan Țurcanu", "Ann Oak", "Sam Ray", "Émile Roux"):
        EntryFactory(event=event, player__name=name)
    services.draw_next_game(event)
    lines = board(projector(client, event, view="seating"))
    assert [name for name, _ in lines] == [
        "Ann Oak",
        "Émile Roux",
        "Sam Ray",
        "Ștefan Țurcanu",
        "Zoë Lindqvist",
    ]
    assert sorted(table for _, table in lines) == ["1", "1", "2", "2", "bye"]


def test_find_your_table_works_for_stoppa_sessions(client):
    event = stoppa_event_with_field(
        10, table_size=4, min_table_size=3, names=("Zoë", "Nicolò", "Ann")
    )
    session = services.draw_next_game(event)
    seats = StoppaSeat.objects.filter(table__round=session).values_list(
        "entry__player__name", "table__number"
    )
    lines = board(projector(client, event, view="seating"))
    assert dict(lines) == {name: str(number) for name, number in seats}
    assert len(lines) == 10 and lines[0][0] == "Ann" and lines[-1][0] == "Zoë"
    assert '<h2 class="board-title">Session 1</h2>' in projector(client, event, view="seating")


def test_find_your_table_before_any_game_and_for_the_public_only(client):
    event = event_with_field(4)  # a draft event: not public
    assert client.get(reverse("event-projector", args=[event.pk])).status_code == 404
    assert client.get(reverse("event-projector-seating", args=[event.pk])).status_code == 404
    assert client.get(reverse("event-seating", args=[event.pk])).status_code == 404
    services.draw_next_game(event, draft=True)  # drawn, not released: not the hall's yet
    body = projector(client, event, view="seating")
    assert board(body) == [] and "No game drawn yet" in body


def test_the_boards_poll_is_a_304_until_the_seating_changes(client, big_night):
    url = reverse("event-projector-seating", args=[big_night.pk])
    answer = client.get(url)
    etag = answer["ETag"]
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-cache"
    assert "<html" not in answer.content.decode() and len(board(answer.content.decode())) == 200
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    services.draw_next_game(big_night)  # a new game released: the hall sees its tables
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert '<h2 class="board-title">Game 2</h2>' in changed.content.decode()


def test_the_board_is_rendered_once_per_seating_version(client, big_night, monkeypatch):
    from django.core.cache import cache

    from scoring import views

    cache.clear()
    renders = []
    real = views.render_to_string
    monkeypatch.setattr(
        views, "render_to_string", lambda *a, **k: renders.append(a[0]) or real(*a, **k)
    )
    url = reverse("event-projector-seating", args=[big_night.pk])
    answers = [client.get(url).content.decode() for _ in range(3)]
    assert renders == ["scoring/seating.html#seating-board"] and len(set(answers)) == 1
    assert answers[0] in projector(client, big_night, view="seating")  # the page reuses it
    assert len(renders) == 1


def test_the_bracket_in_projector_mode(client, td_user):
    event = event_with_field(8, kind=Event.Kind.PLAYOFF_ONLY, name="Consy Lite à Brașov")
    services.create_playoff(event)
    first = event.bracket.matches.get(code="M1-1")
    services.record_playoff_game(event, match="M1-1", winner=first.seat_a, loser_score=99)
    body = projector(client, event, view="bracket", theme="light")
    assert 'data-bs-theme="light"' in body and "navbar" not in body
    assert first.seat_a.player.name in body and "Semifinals" in body and "best of 3" in body
    assert 'id="bracket"' in body and "bracket-big" in body
    assert ">Playoff</a>" in body  # the strip offers the bracket where there is one
    page = client.get(reverse("event-bracket", args=[event.pk])).content.decode()
    assert f'href="/events/{event.pk}/projector/?view=bracket">Projector view' in page
    night = event_with_field(4)
    services.draw_next_game(night)
    assert ">Playoff</a>" not in projector(client, night)
    assert "No playoff yet." in projector(client, night, view="bracket")


def test_the_event_page_seating_follows_results_with_a_cheap_poll(
    client, django_capture_on_commit_callbacks
):
    event = event_with_field(6)
    game = services.draw_next_game(event)
    first, second, _third = game.tables.order_by("number")
    page = client.get(reverse("event", args=[event.pk])).content.decode()
    url = reverse("event-seating", args=[event.pk])
    assert f'hx-get="{url}"' in page and 'hx-trigger="every 3s"' in page
    answer = client.get(url)
    etag = answer["ETag"]
    assert answer.content.decode() in page  # the page and its poll share one render
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        services.record_result(event, table=first, winner=first.seat_b, loser_score=71)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert f"{first.seat_b.player.name} +50" in changed.content.decode()  # the result, live
    # The next game appears in the seating, with a game picker a finger can hit.
    for table in (second, _third):
        services.record_result(event, table=table, winner=table.seat_a, loser_score=90)
    recompute_standings(event.pk)
    services.draw_next_game(event)
    later = client.get(url).content.decode()
    assert "Game 2" in later and later.count("tap-target") == 2
    assert 'href="?game=1"' in later and 'aria-current="page">Game 2<' in later
    # A game asked for keeps its own poll (its own cached render).
    older = client.get(reverse("event", args=[event.pk]), {"game": 1}).content.decode()
    assert f'hx-get="{url}?game=1"' in older


def test_the_event_page_names_link_to_the_players_and_the_picker_is_tappable(client):
    event = event_with_field(4)
    for _ in range(2):
        game = services.draw_next_game(event)
        for table in game.tables.all():
            services.record_result(event, table=table, winner=table.seat_a, loser_score=80)
    recompute_standings(event.pk)  # the job the commits would queue (the test never commits)
    page = client.get(reverse("event", args=[event.pk])).content.decode()
    for entry in event.entries.select_related("player"):
        link = f'<a href="/players/{entry.player_id}/">{entry.player.name}</a>'
        assert page.count(link) == 2  # in the standings and in the seating
    picker = re.findall(r'<a class="btn btn-sm tap-target[^"]*" href="\?after=\d"', page)
    assert len(picker) == 2  # "after game 1" and "after game 2", each 44 x 44 px
    assert f'hx-get="{reverse("event-seating", args=[event.pk])}"' in page
    services.finish_event(event)  # a finished event's page polls nothing any more
    finished = client.get(reverse("event", args=[event.pk])).content.decode()
    assert "hx-trigger" not in finished
