"""Request middleware of the tournaments app: the language a page opens in (``?lang=``, a
player's link, an event's own language)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from core import cache

# The public pages of one event: they start in the event's language (Event.language), and
# the projector keeps to it, unless the visitor has picked one (?lang= or the language menu).
EVENT_PAGES = frozenset(
    {
        "event",
        "event-standings",
        "event-bracket",
        "event-bracket-fragment",
        "event-seating",
        "event-sessions",
        "event-export",
    }
)
EVENT_FIXED_PAGES = frozenset({"event-projector", "event-projector-seating"})
EVENT_LANGUAGE_FOR = 60  # seconds an event's language stays in the cache


def _event_language(event_id: int) -> str:
    from tournaments.models import Event

    key = f"event-language:{event_id}"
    found = cache.get(key)  # None with the cache down: asked of the database
    if found is None:
        found = Event.objects.filter(pk=event_id).values_list("language", flat=True).first() or ""
        cache.set(key, found, EVENT_LANGUAGE_FOR)
    return found


class LanguageChoiceMiddleware:
    """The language of a page: ``?lang=it`` (kept in the language cookie, so a shared link
    opens in Italian and the choice stays), else the cookie or the browser's (Django's
    LocaleMiddleware, before this one), else, on an event's public pages, the event's own.

    Sets ``request.language_chosen``: whether the visitor picked a language themselves.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.languages = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        asked = request.GET.get("lang", "")
        request.language_chosen = asked in self.languages or (  # type: ignore[attr-defined]
            settings.LANGUAGE_COOKIE_NAME in request.COOKIES
        )
        if asked in self.languages:
            _use(request, asked)
        response = self.get_response(request)
        if asked in self.languages:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                asked,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                samesite="Lax",
            )
        return response

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> None:
        match = request.resolver_match
        name = match.url_name if match else None
        if name not in EVENT_PAGES and name not in EVENT_FIXED_PAGES:
            return None
        if request.GET.get("lang", "") in self.languages:
            return None
        if name in EVENT_PAGES and request.language_chosen:  # type: ignore[attr-defined]
            return None
        event_id = view_kwargs.get("event_id")
        language = _event_language(int(event_id)) if event_id is not None else ""
        if language in self.languages:
            _use(request, language)
        return None


def _use(request: HttpRequest, language: str) -> None:
    from django.utils import translation

    translation.activate(language)
    request.LANGUAGE_CODE = language
