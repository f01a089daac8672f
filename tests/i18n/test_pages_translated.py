"""The main TD, player and public pages in Italian, German and Romanian: no English sentence of
the catalogue is left on them (and accented names survive every language)."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import polib
import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from results import services as result_services
from scoring.seasons import create_season
from scoring.services import recompute_standings
from tests.factories import EntryFactory, EventFactory
from tournaments import services

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Zoë Lindqvist", "Ștefan Țurcanu", "Niccolò Ferrà", "Jürgen Weiß"]


def english_sentences(language: str) -> list[str]:
    """The catalogue's English sentences whose translation differs: any of them on a page in
    ``language`` is a string the page did not translate. Placeholders and very short words
    (which may be names, codes or shared words) are left out."""
    po = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
    found = []
    for entry in po:
        text = entry.msgid
        if entry.msgid_plural or "%" in text or "{" in text or "<" in text:
            continue
        if len(text) < 12 or " " not in text or entry.msgstr == text:
            continue
        found.append(text)
    return found


def visible_text(html: str) -> str:
    html = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", html)
    html = re.sub(r"(?s)<!--.*?-->", " ", html)
    text = re.sub(r"<[^>]+>", " ", html)
    return " ".join(unescape(text).split())


@pytest.fixture
def night(td_user):
    cache.clear()
    event = EventFactory(name="Serata di prova")
    for name in NAMES:
        EntryFactory(event=event, player__name=name)
    event.club.directors.add(td_user)
    create_season(event.club)
    round_ = services.draw_next_game(event)
    first = round_.tables.order_by("number").first()
    services.record_result(event, table=first, winner=first.seat_a, loser_score=95)
    recompute_standings(event.pk)
    return event


def pages(event) -> dict[str, tuple[str, bool]]:
    """name -> (url, needs the TD's login)."""
    key = result_services.key_for(event.entries.order_by("pk").last()).key
    season = event.club.seasons.first()
    return {
        "home": (reverse("home"), False),
        "public event": (reverse("event", args=[event.pk]), False),
        "projector": (reverse("event-projector", args=[event.pk]), False),
        "player link": (reverse("player-page", args=[key]), False),
        "season": (reverse("season", args=[season.pk]), False),
        "login": (reverse("login"), False),
        "cribbage checker": (reverse("cribbage-checker"), False),
        "Stoppa checker": (reverse("stoppa-checker"), False),
        "seasons": (reverse("season-list"), False),
        "TD club": (reverse("td-club", args=[event.club_id]), True),
        "TD new event": (reverse("td-event-new", args=[event.club_id]), True),
        "TD event": (reverse("td-event", args=[event.pk]), True),
        "TD settings": (reverse("td-event-settings", args=[event.pk]), True),
        "TD game": (reverse("td-game", args=[event.pk, 1]), True),
        "results desk": (reverse("results-desk", args=[event.pk]), True),
        "TD seasons": (reverse("td-seasons", args=[event.club_id]), True),
        "TD players": (reverse("td-players", args=[event.club_id]), True),
        "TD playoff": (reverse("td-playoff", args=[event.pk]), True),
    }


@pytest.mark.parametrize("language", ["it", "de", "ro"])
def test_main_pages_have_no_english_sentence_left(language, night, td_user):
    sentences = english_sentences(language)
    anonymous, td = Client(), Client()
    td.force_login(td_user)
    left: dict[str, list[str]] = {}
    for name, (url, login) in pages(night).items():
        client = td if login else anonymous
        response = client.get(url, {"lang": language})
        assert response.status_code == 200, (name, response.status_code)
        assert response["Content-Language"] == language, name
        text = visible_text(response.content.decode())
        english = [s for s in sentences if s in text]
        if english:
            left[name] = english
        if name in ("public event", "TD event", "projector"):
            for player in NAMES:  # accented names survive every language
                assert player in text, (name, player)
    assert not left, f"English left on the {language} pages: {left}"
