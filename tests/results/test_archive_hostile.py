"""Hostile event archives (issue #23): every one is a 400 naming what is wrong, on the page
and from the command, and nothing is written. Imports into one club take turns."""

from __future__ import annotations

import json
import threading

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import override_settings
from django.urls import reverse

from core.errors import ServiceError
from results.archive import export_event, import_event, parse_archive
from tests.conftest import require_service
from tests.factories import ClubFactory, UserFactory, event_with_field
from tournaments import services
from tournaments.models import Event, Player

pytestmark = pytest.mark.django_db

DEEP = [3_000, 100_000]


@pytest.fixture
def archive() -> dict:
    event = event_with_field(8, name="Hostile night")
    round_ = services.draw_next_game(event)
    for table in round_.tables.exclude(seat_b=None):
        services.record_result(event, table=table, winner=table.seat_a, loser_score=95)
    return json.loads(json.dumps(export_event(event), default=str))


@pytest.fixture
def td_and_club():
    td = UserFactory(username="hostile-td")
    club = ClubFactory(name="Import club", slug="import-club")
    club.directors.add(td)
    return td, club


def upload(client, club, body: bytes):
    return client.post(
        reverse("td-club-import", args=[club.pk]), {"file": SimpleUploadedFile("a.json", body)}
    )


@pytest.mark.parametrize("depth", DEEP)
def test_json_nested_thousands_deep_is_not_an_archive(client, td_and_club, tmp_path, depth):
    td, club = td_and_club
    body = ("[" * depth + "]" * depth).encode()
    with pytest.raises(ServiceError) as refused:
        parse_archive(body)
    assert refused.value.code == "bad_archive"

    client.force_login(td)
    events = Event.objects.count()
    response = upload(client, club, body)
    assert response.status_code == 400
    assert "not JSON" in response.content.decode()
    assert Event.objects.count() == events

    path = tmp_path / "deep.json"
    path.write_bytes(body)
    with pytest.raises(CommandError, match="not JSON"):
        call_command("import_event", str(path), "--club", str(club.pk))


@pytest.mark.parametrize(
    ("where", "path"),
    [
        (lambda d: d["players"][0], r"players\[0\].name"),
        (lambda d: d["event"], "event.name"),
    ],
)
def test_a_lone_surrogate_in_a_name_is_named(client, td_and_club, archive, where, path):
    td, club = td_and_club
    where(archive)["name"] = "Zo\ud800"
    body = json.dumps(archive).encode()  # ASCII: the surrogate travels as \ud800
    players, events = Player.objects.count(), Event.objects.count()
    with pytest.raises(ServiceError, match=path):
        import_event(parse_archive(body), club=club)
    client.force_login(td)
    response = upload(client, club, body)
    assert response.status_code == 400
    assert "not valid Unicode" in response.content.decode()
    assert (Player.objects.count(), Event.objects.count()) == (players, events)


def test_a_lone_surrogate_in_an_audit_reason_is_a_400(client, td_and_club, archive):
    td, club = td_and_club
    assert archive["audit"], "the fixture's night has an audit trail"
    for row in archive["audit"]:
        for key, value in row.items():
            if isinstance(value, str) and key not in {"at", "action"}:
                row[key] = value + "\udfff"
    body = json.dumps(archive).encode()
    client.force_login(td)
    events = Event.objects.count()
    response = upload(client, club, body)
    assert response.status_code == 400, response.content[:300]
    assert Event.objects.count() == events


def test_the_command_names_the_bad_value(td_and_club, archive, tmp_path):
    _td, club = td_and_club
    archive["players"][1]["name"] = "\ud83d"
    path = tmp_path / "surrogate.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    with pytest.raises(CommandError, match=r"players\[1\].name"):
        call_command("import_event", str(path), "--club", str(club.pk))


@override_settings(ARCHIVE_MAX_BYTES=1024 * 1024, DATA_UPLOAD_MAX_MEMORY_SIZE=512 * 1024)
def test_one_limit_for_the_archive_page_with_a_clear_413(client, td_and_club, archive):
    """An archive between the general upload limit and the archive limit is read; one over
    the archive limit is a 413 page that says the limit."""
    td, club = td_and_club
    client.force_login(td)
    archive["padding"] = "x" * (700 * 1024)  # over the general limit, under the archive's
    response = upload(client, club, json.dumps(archive).encode())
    assert response.status_code == 302, response.content[:300]
    too_big = upload(client, club, b" " * (1100 * 1024) + b"{}")
    assert too_big.status_code == 413
    page = too_big.content.decode()
    assert "over 1 MB" in page and "<html" in page
    # Elsewhere the general limit still holds.
    other = client.post(reverse("td-club", args=[club.pk]), {"x": "y" * (600 * 1024)})
    assert other.status_code == 413


def test_the_import_page_says_the_limit_before_the_upload(client, td_and_club):
    td, club = td_and_club
    client.force_login(td)
    page = client.get(reverse("td-club-import", args=[club.pk])).content.decode()
    assert 'data-max-bytes="52428800"' in page and "At most 50 MB." in page


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_four_imports_of_one_archive_at_once_make_one_player_a_name(archive):
    require_service(
        "PostgreSQL", connection.vendor == "postgresql", "SQLite runs one writer at a time"
    )
    club = ClubFactory(name="Race club", slug="race-club")
    errors: list[BaseException] = []

    def run() -> None:
        try:
            import_event(archive, club=club)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    names = list(Player.objects.filter(home_club=club).values_list("name", flat=True))
    assert len(names) == len(set(names)) == len(archive["players"])
    assert Event.objects.filter(club=club).count() == 4
