"""The language of a page: ?lang=, the cookie, a player's link, an event's own language."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from results import services as result_services
from results.models import PlayerKey, PrintJob
from tests.factories import event_with_field
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    cache.clear()
    event = event_with_field(4, name="Serata")
    services.draw_next_game(event)
    return event


def test_lang_in_the_url_switches_and_is_kept(night):
    client = Client()
    url = reverse("event", args=[night.pk])
    page = client.get(url, {"lang": "it"})
    assert page["Content-Language"] == "it" and '<html lang="it"' in page.content.decode()
    assert page.cookies[settings.LANGUAGE_COOKIE_NAME].value == "it"
    again = client.get(url)  # no ?lang: the cookie keeps Italian
    assert again["Content-Language"] == "it"
    assert client.get(url, {"lang": "xx"})["Content-Language"] == "it"  # unknown: ignored


def test_the_events_language_is_where_its_public_pages_start(night):
    night.language = "de"
    night.save(update_fields=["language"])
    cache.clear()
    url = reverse("event", args=[night.pk])
    assert Client().get(url)["Content-Language"] == "de"
    browser_en = Client(HTTP_ACCEPT_LANGUAGE="en")  # the browser's language gives way
    assert browser_en.get(url)["Content-Language"] == "de"
    chosen = Client()
    chosen.cookies[settings.LANGUAGE_COOKIE_NAME] = "ro"  # a visitor who picked Romanian
    assert chosen.get(url)["Content-Language"] == "ro"
    # The projector keeps to the event's language, whatever the machine's choice.
    projector = reverse("event-projector", args=[night.pk])
    assert chosen.get(projector)["Content-Language"] == "de"
    assert chosen.get(projector, {"lang": "it"})["Content-Language"] == "it"
    # Other pages (the TD's, the home page) are not the event's.
    assert Client().get(reverse("home"))["Content-Language"] == "en"


def test_a_players_link_remembers_the_language_they_picked(night):
    entry = night.entries.first()
    key = result_services.key_for(entry).key
    url = reverse("player-page", args=[key])
    assert Client().get(url, {"lang": "ro"})["Content-Language"] == "ro"
    assert PlayerKey.objects.get(entry=entry).language == "ro"
    other_phone = Client(HTTP_ACCEPT_LANGUAGE="de")
    assert other_phone.get(url)["Content-Language"] == "ro"


def test_printables_are_in_the_events_language_else_the_tds(night, td_user):
    night.club.directors.add(td_user)
    client = Client()
    client.force_login(td_user)
    client.post(reverse("results-print", args=[night.pk]) + "?lang=it")
    assert PrintJob.objects.latest("pk").language == "it"
    night.language = "de"
    night.save(update_fields=["language"])
    client.post(reverse("results-print", args=[night.pk]) + "?lang=it")
    assert PrintJob.objects.latest("pk").language == "de"


def test_the_td_sets_the_events_language_in_its_settings(night, td_user):
    night.club.directors.add(td_user)
    page_client = Client()
    page_client.force_login(td_user)
    page = page_client.get(reverse("td-event-settings", args=[night.pk])).content.decode()
    assert 'name="language"' in page and "Each visitor" in page
    services.update_event_settings(night, language="ro")
    night.refresh_from_db()
    assert night.language == "ro"
    from core.errors import ServiceError

    with pytest.raises(ServiceError) as bad:
        services.update_event_settings(night, language="xx")
    assert bad.value.code == "bad_language"
