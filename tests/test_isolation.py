"""The test set-up itself: nothing one test leaves in the cache reaches the next.

SQLite (the embedded default) hands a rolled-back id out again, so two tests in a row each
make "event 1"; the cache is not rolled back with the database. Each parametrised pair below
fails in its second test, whichever runs first, unless every test starts with an empty cache
(``empty_cache`` in tests/conftest.py).
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.factories import event_with_field
from tournaments import services


@pytest.mark.parametrize("turn", ["first", "second"])
def test_each_test_starts_with_an_empty_cache(turn):
    assert cache.get("isolation-probe") is None
    cache.set("isolation-probe", turn)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["it", "de"])
def test_an_events_language_is_its_own_not_a_cached_earlier_events(client, language):
    event = event_with_field(4, language=language)
    services.draw_next_game(event)  # the public page opens with the first draw
    page = client.get(reverse("event", args=[event.pk]))
    assert page.status_code == 200 and page["Content-Language"] == language
