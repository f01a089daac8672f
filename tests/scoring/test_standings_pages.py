"""Standings pages belong to scoring: the TD's panel is loaded into the TD's event page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.services import recompute_standings
from tests.factories import ClubFactory, UserFactory, event_with_field
from tournaments import services

pytestmark = pytest.mark.django_db


def test_the_td_panel_shows_unpublished_standings_to_the_td_only(
    client, td_user, django_capture_on_commit_callbacks
):
    event = event_with_field(4, name="Martedì")
    event.club.directors.add(td_user)
    round_ = services.draw_next_game(event)
    table = round_.tables.order_by("number").first()
    with django_capture_on_commit_callbacks(execute=True):
        services.record_result(event, table=table, winner=table.seat_a, loser_score=88)
    services.set_standings_published(event, False)
    url = reverse("td-standings", args=[event.pk])

    assert client.get(url).status_code == 302  # login first
    stranger = UserFactory(username="stranger")
    ClubFactory().directors.add(stranger)
    client.force_login(stranger)
    assert client.get(url).status_code == 404  # another club's TD

    client.force_login(td_user)
    page = client.get(reverse("td-event", args=[event.pk])).content.decode()
    assert url in page  # the TD page loads the panel
    panel = client.get(url).content.decode()
    assert table.seat_a.player.name in panel and "+33" in panel
    assert "has not published" not in panel


def test_an_unchanged_poll_is_a_304_and_a_new_result_changes_it(
    client, django_capture_on_commit_callbacks
):
    event = event_with_field(4)
    round_ = services.draw_next_game(event)
    first, second = round_.tables.order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        services.record_result(event, table=first, winner=first.seat_a, loser_score=88)
    url = reverse("event-standings", args=[event.pk])
    answer = client.get(url)
    etag = answer["ETag"]
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-cache"
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    services.record_result(event, table=second, winner=second.seat_b, loser_score=60)
    recompute_standings(event.pk)  # the job the commit would queue (the test never commits)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_a_large_field_shows_its_top_rows_and_finds_a_player(
    client, django_capture_on_commit_callbacks
):
    event = event_with_field(150)
    round_ = services.draw_next_game(event)
    with django_capture_on_commit_callbacks(execute=True):
        for table in round_.tables.all():
            services.record_result(event, table=table, winner=table.seat_a, loser_score=100)
    url = reverse("event-standings", args=[event.pk])
    top = client.get(url).content.decode()
    assert top.count("<tr") == 101 and "Showing the top 100 of 150" in top  # header + 100
    assert client.get(url + "?all=1").content.decode().count("<tr") == 151
    name = event.entries.order_by("pk").last().player.name
    found = client.get(url, {"find": name}).content.decode()
    assert found.count("<tr") == 2 and name in found
    assert "Nobody in the standings matches" in client.get(url, {"find": "Zzz"}).content.decode()


def test_the_event_page_shows_one_games_seating_at_a_time(client):
    event = event_with_field(6)
    first = services.draw_next_game(event)
    for table in first.tables.all():
        services.record_result(event, table=table, winner=table.seat_a, loser_score=100)
    second = services.draw_next_game(event)
    url = reverse("event", args=[event.pk])
    latest = client.get(url).content.decode()
    assert "?game=1" in latest and "?game=2" in latest
    pair = second.tables.order_by("number").first()
    assert _pair(pair) in latest
    assert latest.count("<details") == 1  # game 2 only, not every game inlined
    earlier = client.get(url, {"game": 1}).content.decode()
    pair = first.tables.order_by("number").first()
    assert _pair(pair) in earlier


def _pair(table) -> str:
    """A table's two players as the public seating shows them: each a link to their page."""
    a, b = table.seat_a.player, table.seat_b.player
    return f'<a href="/players/{a.pk}/">{a.name}</a> \u2013 <a href="/players/{b.pk}/">{b.name}</a>'


def test_the_standings_table_is_rendered_once_per_snapshot_version(
    client, django_capture_on_commit_callbacks, monkeypatch
):
    from django.core.cache import cache

    from scoring import views

    cache.clear()
    renders = []
    real = views.render_to_string
    # The standings' renders only (the event page renders its seating too, cached likewise).
    monkeypatch.setattr(
        views,
        "render_to_string",
        lambda *a, **k: ("standings" in a[0] and renders.append(a[0])) or real(*a, **k),
    )
    event = event_with_field(4)
    first, second = services.draw_next_game(event).tables.order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        services.record_result(event, table=first, winner=first.seat_a, loser_score=88)
    url = reverse("event-standings", args=[event.pk])
    page = reverse("event", args=[event.pk])
    answers = [client.get(url).content.decode() for _ in range(3)]
    answers.append(client.get(page, {"game": 1}).content.decode())  # the page reuses it
    assert len(renders) == 1 and answers[0] == answers[1] == answers[2]
    assert answers[0] in answers[3] and "+33" in answers[0]
    services.record_result(event, table=second, winner=second.seat_b, loser_score=60)
    recompute_standings(event.pk)  # the job the commit would queue (the test never commits)
    changed = client.get(url).content.decode()
    assert len(renders) == 2 and "+61" in changed  # a new snapshot, rendered anew
    client.get(url, {"find": second.seat_b.player.name})
    client.get(url, HTTP_ACCEPT_LANGUAGE="it")
    assert len(renders) == 4  # another window, another language: their own renders


def test_the_standings_render_without_the_cache(client, monkeypatch):
    from django.core.cache import cache

    def down(*args, **kwargs):
        raise ConnectionError("redis is down")

    event = event_with_field(4)
    services.draw_next_game(event)
    monkeypatch.setattr(cache, "get", down)
    monkeypatch.setattr(cache, "set", down)
    answer = client.get(reverse("event-standings", args=[event.pk]))
    assert answer.status_code == 200 and "No standings yet" in answer.content.decode()
    assert client.get(reverse("event", args=[event.pk])).status_code == 200


def test_find_me_matches_accented_names_whatever_their_case(
    client, django_capture_on_commit_callbacks
):
    event = event_with_field(30)
    stefan = event.entries.order_by("pk").first().player
    stefan.name = "Ștefan Țurcanu"
    stefan.save()
    round_ = services.draw_next_game(event)
    with django_capture_on_commit_callbacks(execute=True):
        for table in round_.tables.all():
            services.record_result(event, table=table, winner=table.seat_a, loser_score=90)
    found = client.get(reverse("event-standings", args=[event.pk]), {"find": "ștefan"})
    body = found.content.decode()
    assert body.count("<tr") == 2 and "Ștefan Țurcanu" in body


def test_a_large_games_seating_shows_its_first_tables_and_finds_a_table(client):
    from tournaments.models import Table

    event = event_with_field(150)  # 75 tables
    services.draw_next_game(event)
    url = reverse("event", args=[event.pk])
    page = client.get(url).content.decode()
    tables = Table.objects.filter(round__event=event).select_related(
        "seat_a__player", "seat_b__player"
    )
    last = tables.order_by("number").last()
    assert _pair(last) not in page
    assert "Showing tables 1 to 60 of 75" in page and 'name="seat"' in page
    by_name = client.get(url, {"game": 1, "seat": last.seat_b.player.name}).content.decode()
    assert _pair(last) in by_name
    assert "Showing tables" not in by_name
    tenth = tables.get(number=10)
    by_number = client.get(url, {"game": 1, "seat": "10"}).content.decode()
    assert _pair(tenth) in by_number
    every = client.get(url, {"game": 1, "tables": "all"}).content.decode()
    assert _pair(last) in every


def test_a_phone_gets_the_standings_compressed_and_its_poll_still_gets_a_304(
    client, django_capture_on_commit_callbacks
):
    import gzip

    event = event_with_field(30, name="Brașov")
    round_ = services.draw_next_game(event)
    with django_capture_on_commit_callbacks(execute=True):
        for table in round_.tables.all():
            services.record_result(event, table=table, winner=table.seat_a, loser_score=90)
    url = reverse("event-standings", args=[event.pk])
    answer = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert answer["Content-Encoding"] == "gzip"
    body = gzip.decompress(answer.content).decode()
    assert len(answer.content) < len(body) / 3 and body.count("<tr") == 31
    again = client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=answer["ETag"])
    assert again.status_code == 304


def test_the_projector_and_its_refresh_show_every_row(client, django_capture_on_commit_callbacks):
    """The projector's poll asks for every row too: it once cut a 200-player hall to 100."""
    event = event_with_field(120)
    round_ = services.draw_next_game(event)
    with django_capture_on_commit_callbacks(execute=True):
        for table in round_.tables.filter(seat_b__isnull=False):
            services.record_result(event, table=table, winner=table.seat_a, loser_score=80)
    page = client.get(reverse("event-projector", args=[event.pk])).content.decode()
    poll = reverse("event-standings", args=[event.pk]) + "?all=1"
    assert page.count("<tr") == 121 and f'hx-get="{poll}"' in page
    assert client.get(poll).content.decode().count("<tr") == 121


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("status", "published", "public"),
    [
        ("draft", True, False),
        ("running", False, False),
        ("running", True, True),
        ("finished", True, True),
        ("cancelled", True, False),
    ],
)
def test_one_selector_says_whether_the_public_sees_the_standings(status, published, public):
    from scoring.selectors import standings_event, standings_public
    from tests.factories import EventFactory

    event = EventFactory(status=status, standings_published=published)
    assert standings_public(event) is public
    # the API's reader asks the same rule
    assert (standings_event(None, event.pk) is not None) is public
