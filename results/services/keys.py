"""Players' private keys: created on first use, looked up, throttled per key."""

from __future__ import annotations

import hashlib

from django.utils.translation import gettext as _

from core import cache
from core.errors import ServiceError
from tournaments.models import Entry

from ..error_codes import ResultsError
from ..models import PlayerKey

SUBMISSIONS_PER_MINUTE = 12  # per key: a flood from one phone cannot take the event down
WINDOW_SECONDS = 60


def key_for(entry: Entry) -> PlayerKey:
    """The entry's private key, created on first use."""
    key, _created = PlayerKey.objects.get_or_create(entry=entry)
    return key


def keys_for(entries) -> dict[int, str]:
    """Every entry's private key in two queries (missing ones are created), for pages and
    printables that list a whole field."""
    ids = [e.pk for e in entries]
    missing = set(ids) - set(
        PlayerKey.objects.filter(entry_id__in=ids).values_list("entry_id", flat=True)
    )
    PlayerKey.objects.bulk_create([PlayerKey(entry_id=pk) for pk in missing], ignore_conflicts=True)
    return dict(PlayerKey.objects.filter(entry_id__in=ids).values_list("entry_id", "key"))


def entry_for_key(key: str) -> Entry:
    """The entry a private key belongs to; a clear error for an unknown key."""
    found = (
        PlayerKey.objects.select_related("entry__event__club", "entry__player", "entry__partner")
        .filter(key=key)
        .first()
    )
    if found is None:
        raise ServiceError(
            ResultsError.UNKNOWN_KEY, _("This link is not valid. Ask the tournament director.")
        )
    return found.entry


def throttle(key: str) -> None:
    """Refuse a key that submits more than SUBMISSIONS_PER_MINUTE times in a minute.

    The window opens with the key's first submission and closes 60 s later (a fixed window
    per key: cheap, and a burst cannot straddle two windows to double its allowance).
    """
    # The key as typed may be anything (it is counted before it is looked up): its digest
    # keeps the cache key short and printable whatever arrives.
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    count = cache.count(f"results:throttle:{digest}", window=WINDOW_SECONDS)
    # With the cache down (None) the report goes through: it is saved in the database, which
    # is what matters at the table; the limit is back with the cache.
    if count is not None and count > SUBMISSIONS_PER_MINUTE:
        raise ServiceError(
            ResultsError.THROTTLED,
            _("Too many submissions from this link; wait a minute and try again."),
            retry_after=WINDOW_SECONDS,  # at most: the window opened with the first of them
        )


def remember_language(entry: Entry, language: str) -> None:
    """Keep the language a player picked on their link (``?lang=``): it opens in it again,
    on any phone. An unknown language is ignored."""
    from django.conf import settings

    if language in dict(settings.LANGUAGES):
        PlayerKey.objects.filter(entry=entry).exclude(language=language).update(language=language)
