"""The champion's trophy is a vendored SVG drawn inline with a label, not the 🏆 emoji (an
empty box on a machine without an emoji font): on the page, the projector and in PDFs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template
from django.urls import reverse

from tests.factories import event_with_field
from tests.tournaments.test_event_formats import play_playoff
from tournaments import services
from tournaments.models import Event

TROPHY = "\N{TROPHY}"
LABELLED = '<svg class="icon icon-trophy" role="img" aria-label="Champion" width="1.2em"'


@pytest.fixture
def finished_playoff(db):
    event = event_with_field(4, kind=Event.Kind.PLAYOFF_ONLY, name="Coppa")
    services.create_playoff(event)
    play_playoff(event, random.Random(5))
    event.bracket.refresh_from_db()
    assert event.bracket.champion is not None
    return event


def test_the_bracket_page_and_the_projector_show_the_svg_trophy(client, finished_playoff):
    event = finished_playoff
    champion = event.bracket.champion.player.name
    for url in (
        reverse("event-bracket", args=[event.pk]),
        reverse("event-projector", args=[event.pk]) + "?view=bracket",
    ):
        body = client.get(url).content.decode()
        assert TROPHY not in body, url
        assert LABELLED in body and "<title>Champion</title>" in body, url
        assert body.index(LABELLED) < body.index(f"<strong>{champion}</strong>"), url


def test_the_trophy_label_is_translated(client, finished_playoff):
    event = finished_playoff
    body = client.get(reverse("event-bracket", args=[event.pk]) + "?lang=it").content.decode()
    assert 'aria-label="Campione"' in body


def test_the_icon_tag_inlines_the_vendored_file_and_hides_an_unlabelled_icon():
    svg = (Path(settings.BASE_DIR) / "static" / "icons" / "trophy.svg").read_text()
    assert svg.startswith("<svg ") and "viewBox" in svg
    html = Template('{% load pegboard %}{% icon "trophy" %}').render(Context())
    assert 'aria-hidden="true"' in html and "role=" not in html
    html = Template('{% load pegboard %}{% icon "trophy" label %}').render(
        Context({"label": '<b>"x"'})
    )
    assert 'aria-label="&lt;b&gt;&quot;x&quot;"' in html and "<b>" not in html


def test_no_template_or_stylesheet_draws_the_trophy_emoji():
    roots = [Path(settings.BASE_DIR) / d for d in ("templates", "static", "tournaments")]
    roots += [Path(settings.BASE_DIR) / d for d in ("results", "scoring", "games_web")]
    found = [
        str(path)
        for root in roots
        for path in root.rglob("*")
        if path.suffix in {".html", ".css", ".js", ".py", ".txt"}
        and TROPHY in path.read_text(encoding="utf-8", errors="ignore")
    ]
    assert found == []
