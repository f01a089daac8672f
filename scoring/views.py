"""Standings pages (public event page, HTMX fragment, projector, the TD's panel) and season
pages (public season tables, the TD's recompute button)."""

from __future__ import annotations

import hashlib
import time
from collections import defaultdict
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import strip_spaces_between_tags
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_GET, require_POST

from core import cache
from tournaments import selectors
from tournaments.clock import public_clock
from tournaments.selectors import clubs_directed_by

from .models import Season
from .seasons import explain_night, season_events, split_members, uncounted_events
from .selectors import (
    entrants_and_no_shows,
    games_with_snapshots,
    seating_version,
    standings_public,
    standings_version,
    standings_with_movement,
)

ROWS_SHOWN = 100  # a 1,000-player field shows its top rows; "find me" and "all" show more
TABLES_SHOWN = 60  # the public seating of a large game: its first tables and a search
RENDERED_FOR = 3600  # seconds a rendered standings table stays in the cache
PROJECTOR_VIEWS = ("standings", "seating", "bracket")
PROJECTOR_SECONDS = 10  # a page of the projector stays this long, unless ?seconds= says


def _standings_context(
    event, after_game: int | None = None, *, find: str = "", show_all: bool = True
) -> dict:
    top = None if show_all else ROWS_SHOWN
    entrants, absent = entrants_and_no_shows(event.pk, after_game)
    return {
        "event": event,
        "standings_public": standings_public(event),
        "standings": standings_with_movement(event.pk, after_game, limit=top, find=find),
        "standings_total": entrants,
        "no_shows": absent,
        "find": find,
        "snapshot_games": games_with_snapshots(event.pk),
        "after_game": after_game,
    }


def _window(request: HttpRequest) -> dict:
    """The rows a public standings request asks for: ``?find=name``, ``?all=1``, else the top."""
    return {"find": request.GET.get("find", "").strip()[:60], "show_all": "all" in request.GET}


def _after_game(request: HttpRequest) -> int | None:
    value = request.GET.get("after", "")
    return int(value) if value.isdigit() else None


def _standings_query(request: HttpRequest) -> str:
    """The query string of what the public standings show (the rest of a URL's query, such
    as the event page's ``?game=``, does not change them)."""
    return urlencode(
        [(k, request.GET[k]) for k in ("after", "find", "all") if request.GET.get(k, "") != ""]
    )


def _standings_key(request: HttpRequest, event_id: int) -> str:
    """What the public standings table shows, as one short hash: the snapshot's version (one
    short query, once per request), the language and the window asked for. It is the poll's
    ETag and the key of the rendered table in the cache. 404 for an event the public may not
    see."""
    memo = getattr(request, "_standings_key", None)
    if memo is not None:
        return memo
    version = standings_version(event_id, _after_game(request))
    if version is None:
        raise Http404("No such event.")
    parts = [version, request.LANGUAGE_CODE, _standings_query(request)]
    key = hashlib.blake2b("|".join(parts).encode(), digest_size=12).hexdigest()
    request._standings_key = key  # type: ignore[attr-defined]
    return key


def _standings_html(request: HttpRequest, event_id: int, event=None) -> SafeString:
    """The public standings table, rendered once per snapshot version, language and window
    and then read from the cache (Redis): a hall of phones polling a 1,000-player event
    costs one render per new snapshot, not one per phone. Without the cache it renders."""
    cache_key = f"standings-html:{event_id}:{_standings_key(request, event_id)}"
    html = cache.get(cache_key)  # None with the cache down: rendered, as without one
    if html is None:
        event = event or selectors.public_event(event_id)
        context = _standings_context(event, _after_game(request), **_window(request)) | {
            "public": True,
            "standings_query": _standings_query(request),
        }
        # Rendered once and sent many times: the white space between tags goes (a third of
        # a 100-row table).
        html = strip_spaces_between_tags(
            render_to_string("scoring/standings.html#standings-table", context, request)
        )
        cache.set(cache_key, html, RENDERED_FOR)
    return mark_safe(html)  # our own rendered template, escaped when it was rendered


def _seating_query(request: HttpRequest) -> str:
    """The query string of what the public seating shows (``?game=``, ``?seat=``,
    ``?tables=all``); the rest of a URL's query does not change it."""
    return urlencode(
        [(k, request.GET[k]) for k in ("game", "seat", "tables") if request.GET.get(k, "") != ""]
    )


def _seating_key(request: HttpRequest, event_id: int, board: bool = False) -> str:
    """What a public seating shows, as one short hash: the seating's version (one short
    query), the language and the game, search and tables asked for (the projector's board
    always shows the latest game, whole). The poll's ETag and the rendered seating's key in
    the cache. 404 for an event the public may not see."""
    memo_name = "_board_key" if board else "_seating_key"
    memo = getattr(request, memo_name, None)
    if memo is not None:
        return memo
    version = seating_version(event_id)
    if version is None:
        raise Http404("No such event.")
    what = "board" if board else _seating_query(request)
    parts = [version, request.LANGUAGE_CODE, what]
    key = hashlib.blake2b("|".join(parts).encode(), digest_size=12).hexdigest()
    setattr(request, memo_name, key)
    return key


def _board_key(request: HttpRequest, event_id: int) -> str:
    return _seating_key(request, event_id, board=True)


def _seating_context(event, request: HttpRequest) -> dict:
    """The public seating of one game: the latest unless ``?game=N``, and of a large game
    its first tables, with a search by table number or name (``?seat=``) and
    ``?tables=all``: a 1,000-player event's 22 games of tables made a 4 MB page."""
    kind = event.game_kind
    numbers = list(selectors.released_numbers(event))
    asked = request.GET.get("game", "")
    shown = int(asked) if asked.isdigit() and int(asked) in numbers else max(numbers, default=0)
    seat = request.GET.get("seat", "").strip()[:60]
    every_table = request.GET.get("tables") == "all"
    rounds = list(
        kind.public_rounds(
            event, number=shown, find=seat, limit=None if every_table or seat else TABLES_SHOWN
        )
    )
    # Only a kind whose rounds count their tables (cribbage) narrows its seating.
    total = getattr(rounds[0], "table_count", 0) if rounds else 0
    listed = len(rounds[0].tables.all()) if total else 0
    return {
        "event": event,
        "seating_search": bool(seat) or total > listed,
        "seating_more": {"shown": listed, "total": total} if total > listed and not seat else None,
        "rounds": rounds,
        "seating_games": numbers,
        "seating_game": shown,
        # The search keeps the game only when one was asked for: on the latest game, a search
        # made after the next game is released looks in that one.
        "seating_asked": asked if asked.isdigit() and int(asked) in numbers else "",
        "seat": seat,
        "every_table": every_table,
        "seating_query": _seating_query(request),
        "public": True,
    }


def _board_context(event) -> dict:
    """The projector's "find your table": every player of the latest released game,
    alphabetically, with their table, as the event's kind seats them."""
    latest = max(selectors.released_numbers(event), default=None)
    kind = event.game_kind
    return {
        "event": event,
        "seat_lines": kind.seat_lines(event, latest) if latest is not None else [],
        "board_label": kind.round_label(latest) if latest is not None else "",
    }


def _seating_html(request: HttpRequest, event_id: int, event=None, *, board=False) -> SafeString:
    """A public seating (the event page's, or the projector's board), rendered once per
    seating version, language and query and then read from the cache, like the standings."""
    key = _seating_key(request, event_id, board)
    cache_key = f"seating-html:{event_id}:{key}"
    html = cache.get(cache_key)  # None with the cache down: rendered, as without one
    if html is None:
        event = event or selectors.public_event(event_id)
        if board:
            name, context = "seating-board", _board_context(event)
        else:
            name, context = "seating-section", _seating_context(event, request)
        html = strip_spaces_between_tags(
            render_to_string(f"scoring/seating.html#{name}", context, request)
        )
        cache.set(cache_key, html, RENDERED_FOR)
    return mark_safe(html)  # our own rendered template, escaped when it was rendered


@require_GET
def event_public(request: HttpRequest, event_id: int) -> HttpResponse:
    """Public page of an event: standings (when published) and the seating of one game,
    both following the results (HTMX polls answered 304 while nothing changed)."""
    event = selectors.public_event(event_id)
    context = {
        "event": event,
        "standings_html": _standings_html(request, event.pk, event),
        "seating_html": _seating_html(request, event.pk, event),
        "bracket": selectors.event_bracket(event),
        "public": True,
        "standings_public": standings_public(event),
        # the club's seasons this event's date falls in: a spectator's way to the club
        "event_seasons": Season.objects.filter(
            club_id=event.club_id, start__lte=event.date, end__gte=event.date
        ),
    }
    return render(request, "scoring/event_public.html", context)


def _fragment(html: SafeString) -> HttpResponse:
    response = HttpResponse(html)
    response["Cache-Control"] = "no-cache"  # revalidate every poll (and get the 304)
    return response


@require_GET
@condition(etag_func=_seating_key)
def seating_fragment(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event page's seating alone, polled by HTMX: a new game's tables and the results
    of the game shown appear without a reload; 304 while nothing changed."""
    return _fragment(_seating_html(request, event_id))


@require_GET
@condition(etag_func=_board_key)
def board_fragment(request: HttpRequest, event_id: int) -> HttpResponse:
    """The projector's "find your table" alone, polled by HTMX; 304 while nothing changed."""
    return _fragment(_seating_html(request, event_id, board=True))


@require_GET
@condition(etag_func=_standings_key)
def standings_fragment(request: HttpRequest, event_id: int) -> HttpResponse:
    """The standings table alone, polled by HTMX so the page follows the results.

    Every poll carries the ETag of the last answer: while no result changed the standings,
    the answer is a 304 that costs one short query, not a page of rows; a changed snapshot
    is rendered once and then served from the cache.
    """
    response = HttpResponse(_standings_html(request, event_id))
    response["Cache-Control"] = "no-cache"  # revalidate every poll (and get the 304)
    return response


def _projector_options(request: HttpRequest) -> dict:
    """The projector's ``?view=``, ``?theme=`` and ``?seconds=``; anything else is the default
    (a hall's screen shows something rather than an error)."""
    view = request.GET.get("view", "")
    asked = request.GET.get("seconds", "")
    return {
        "view": view if view in PROJECTOR_VIEWS else "standings",
        "theme": "light" if request.GET.get("theme") == "light" else "dark",
        "seconds": min(max(int(asked), 1), 600) if asked.isdigit() else PROJECTOR_SECONDS,
    }


def _projector_link(options: dict, **changes) -> str:
    """The projector's query string with ``changes``, leaving out what is the default."""
    chosen = options | changes
    defaults = {"view": "standings", "theme": "dark", "seconds": PROJECTOR_SECONDS}
    return "?" + urlencode([(k, v) for k, v in chosen.items() if defaults[k] != v])


@require_GET
def projector(request: HttpRequest, event_id: int) -> HttpResponse:
    """The hall's screen, full-screen in large type: the standings (every row), "find your
    table" for the latest game (``?view=seating``) or the bracket (``?view=bracket``), paged
    to fit the screen (every ``?seconds=``), dark or light (``?theme=``), following the
    results through the same cheap polls as the public page."""
    event = selectors.public_event(event_id)
    options = _projector_options(request)
    bracket = selectors.event_bracket(event)
    titles = {
        "standings": _("Standings"),
        "seating": _("Find your table"),
        "bracket": _("Playoff"),
    }
    views = [
        {
            "label": titles[v],
            "url": _projector_link(options, view=v),
            "current": v == options["view"],
        }
        for v in PROJECTOR_VIEWS
        if v != "bracket" or bracket or options["view"] == "bracket"
    ]
    other = "light" if options["theme"] == "dark" else "dark"
    context = options | {
        "event": event,
        "public": True,
        "views": views,
        "view_title": titles[options["view"]],
        "theme_link": _projector_link(options, theme=other),
        "event_url": request.build_absolute_uri(reverse("event", args=[event.pk])),
        "hall_clock": public_clock(event),
    }
    if options["view"] == "standings":
        # The hall reads every row (the projector pages through them), and so must the poll
        # that refreshes it: without ?all=1 it would get only the first rows.
        context |= _standings_context(event) | {"standings_query": "all=1"}
    elif options["view"] == "seating":
        context["seating_html"] = _seating_html(request, event.pk, event, board=True)
    elif bracket is not None:
        context |= {
            "bracket": bracket,
            "sections": selectors.bracket_sections(bracket),
            "places": selectors.bracket_places(bracket),
        }
    return render(request, "scoring/projector.html", context)


@login_required
@require_GET
def td_standings(request: HttpRequest, event_id: int) -> HttpResponse:
    """The TD's provisional standings (published or not), loaded into the TD's event page."""
    event = selectors.directed_event(request.user, event_id)
    context = _standings_context(event) | {"public": False}
    return render(request, "scoring/standings.html#standings-table", context)


# --- Seasons ------------------------------------------------------------------------------------


def _pending(request: HttpRequest, season: Season) -> float | None:
    """The time a recompute was asked for, while the season has not been computed since."""
    try:
        since = float(request.GET.get("since", ""))
    except ValueError:
        return None
    done = season.computed_at is not None and season.computed_at.timestamp() >= since
    return None if done else since


@require_GET
def season_list(request: HttpRequest) -> HttpResponse:
    """Every club's seasons, newest first."""
    seasons = Season.objects.select_related("club").order_by("club__name", "-start")
    return render(request, "scoring/season_list.html", {"seasons": seasons})


@require_GET
def season_detail(request: HttpRequest, season_id: int) -> HttpResponse:
    """A season table: Grass Roots points, master points, nights, special hands."""
    season = Season.objects.select_related("club").filter(pk=season_id).first()
    if season is None:
        raise Http404("No such season.")
    ledgers = list(season.ledgers.select_related("player").order_by("rank", "player__name"))
    nights: defaultdict[int, list] = defaultdict(list)
    for night in season.nights.select_related("event").order_by("event__date", "event_id"):
        night.reason = explain_night(night, season.night_games)
        nights[night.player_id].append(night)
    for row in ledgers:
        row.night_lines = nights.get(row.player_id, [])
    members, guests = split_members(season, ledgers)
    context = {
        "season": season,
        "ledgers": ledgers,
        # Members first, guests apart (headed only when the season had guests).
        "groups": [(_("Members"), members), (_("Guests"), guests)] if guests else [("", members)],
        "events": season_events(season).order_by("date"),
        "uncounted": uncounted_events(season),
        "grass_roots": season.grass_roots.all(),
        "can_recompute": clubs_directed_by(request.user).filter(pk=season.club_id).exists(),
        "pending": _pending(request, season),
    }
    if request.htmx:
        return render(request, "scoring/season_detail.html#season-table", context)
    return render(request, "scoring/season_detail.html", context)


@login_required
@require_POST
def season_recompute(request: HttpRequest, season_id: int) -> HttpResponse:
    """Queue a rebuild of the season's ledgers (Celery); the page follows it."""
    from .seasons import request_recompute

    season = Season.objects.filter(pk=season_id, club__in=clubs_directed_by(request.user)).first()
    if season is None:
        raise Http404("No such season.")
    asked = time.time()
    request_recompute(season)
    messages.info(request, _("The season table is being recomputed."))
    return redirect(f"{reverse('season', args=[season.pk])}?since={asked:.3f}")


@require_GET
def player_ledgers(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's season lines and lifetime totals across every season."""
    from tournaments.models import Player

    from .seasons import lifetime_totals

    player = Player.objects.select_related("home_club").filter(pk=player_id).first()
    if player is None:
        raise Http404("No such player.")
    lines = player.ledgers.select_related("season__club").order_by("-season__start")
    from .partners import partner_record
    from .ratings import player_game_counts, player_history

    # Games won and played are counted as the ratings count them (every confirmed game,
    # playoff games included; no forfeits, no byes): one count beside the ratings.
    won, played = player_game_counts(player.pk)
    context = {
        "player": player,
        "lines": lines,
        "lifetime": lifetime_totals(player.pk),
        "games_won": won,
        "games_played": played,
        "ratings": player_history(player.pk),
        "partners": partner_record(player.pk),
    }
    return render(request, "scoring/player.html", context)
