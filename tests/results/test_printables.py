"""Printables: a whole event's PDF set built by the Celery task, with progress and QR codes."""

from __future__ import annotations

import pytest
from django.urls import reverse

from results import printables, services
from results.models import PrintJob
from tests.factories import EntryFactory, event_with_field
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def test_score_cards_carry_games_and_the_private_link():
    event = event_with_field(3)
    EntryFactory(event=event, player__name="Ștefan Țurcanu", player__acc_number="R77")
    round_ = tournament_services.draw_next_game(event)
    table = round_.tables.filter(seat_b__isnull=False).first()
    tournament_services.record_result(event, table=table, winner=table.seat_a, loser_score=100)
    cards = {
        c["entry"].player.name: c for c in printables.score_cards(event, "http://club.example/")
    }
    card = cards[table.seat_a.player.name]
    assert card["link"] == "http://club.example/k/" + services.key_for(table.seat_a).key + "/"
    assert card["qr"].startswith("<svg") and len(card["rows"]) == event.games_planned
    first = card["rows"][0]
    assert (first["opponent"], first["points"], first["plus"]) == (
        table.seat_b.player.name,
        2,
        "21",
    )
    assert "Ștefan Țurcanu" in cards


def test_the_td_builds_and_downloads_the_pdf_set(
    client, td_user, django_capture_on_commit_callbacks
):
    event = event_with_field(6)
    event.club.directors.add(td_user)
    tournament_services.draw_next_game(event)
    client.force_login(td_user)
    with django_capture_on_commit_callbacks(execute=True):  # queued on commit
        response = client.post(reverse("results-print", args=[event.pk]))
    assert response.status_code == 302  # eager Celery: the job is done already
    job = PrintJob.objects.get(event=event)
    assert (job.status, job.done, job.total) == ("done", 9, 9)  # 6 score cards + 3 table cards
    assert bytes(job.pdf).startswith(b"%PDF")
    page = client.get(response.url)
    assert "Download the PDF" in page.content.decode()
    download = client.get(response.url + "?download=1")
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"


def test_table_cards_carry_keys_only_where_the_desk_checks():
    from results.printables import table_cards

    event = event_with_field(4)
    tournament_services.draw_next_game(event)
    cards = table_cards(event, "http://hall/")
    assert cards and all(seat["qr"] == "" for card in cards for seat in card["seats"])
    event.confirmation = event.Confirmation.DESK_CHECK
    event.save(update_fields=["confirmation"])
    cards = table_cards(event, "http://hall/")
    assert all(seat["qr"].startswith("<svg") for card in cards for seat in card["seats"])
