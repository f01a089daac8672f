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


@pytest.mark.django_db
def test_an_event_given_a_rolled_back_events_id_is_not_served_its_cached_pages(client):
    """SQLite hands a rolled-back (or deleted) event's id to the next event: the cached
    seating and standings are keyed by the event's random seed too."""
    from django.db import transaction

    class Undo(Exception):
        pass

    with pytest.raises(Undo), transaction.atomic():
        first = event_with_field(4, name="Rolled-back night", seed=111)  # seeds are random
        services.draw_next_game(first)
        page = client.get(reverse("event", args=[first.pk])).content.decode()
        names = set(first.entries.values_list("player__name", flat=True))
        assert all(name in page for name in names)
        pk = first.pk
        raise Undo

    from tests.factories import PlayerFactory

    second = event_with_field(4, name="Next night", seed=222)
    for n, entry in enumerate(second.entries.all()):  # other players than the first's
        entry.player = PlayerFactory(name=f"Second {n}", home_club=second.club)
        entry.save(update_fields=["player"])
    services.draw_next_game(second)
    page = client.get(reverse("event", args=[second.pk])).content.decode()
    if second.pk == pk:  # SQLite: the same id, and the same page key but for the seed
        assert "Second 0" in page and not any(name in page for name in names)


@pytest.mark.django_db
def test_deleting_a_draft_forgets_its_cached_language(client, django_capture_on_commit_callbacks):
    from tests.factories import EventFactory, UserFactory
    from tournaments.models import Event

    td = UserFactory(username="isolation-td")
    draft = EventFactory(name="Draft", language="ro", status=Event.Status.DRAFT)
    draft.club.directors.add(td)
    client.get(reverse("event", args=[draft.pk]))  # caches its language (then 404s)
    assert cache.get(f"event-language:{draft.pk}") == "ro"
    with django_capture_on_commit_callbacks(execute=True):
        services.delete_draft_event(draft, user=td)
    assert cache.get(f"event-language:{draft.pk}") is None
