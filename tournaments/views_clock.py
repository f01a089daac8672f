"""The round clock's pages (issue 28): the TD's clock panel on the game page (start, pause,
resume, add minutes, stop; at time, the unfinished tables with the club's rule), the club's
clock rule, and the hall's clock that the projector and the players' pages poll.

An HTMX post answers the panel alone (with the refusal in it); a plain post redirects to the
game page, or shows the page again with the refusal (HTTP 400).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from core.errors import ServiceError

from . import selectors
from .clock import (
    Clock,
    at_time_applies,
    clock_of,
    public_clock,
    unfinished_group_tables,
    unfinished_tables,
)
from .forms.clock import CalledAtTimeForm, ClockRuleForm
from .models import Club, Event, Round
from .services import clock as clock_services

PANEL = "tournaments/_td_clock.html"
LISTED = 200  # unfinished tables listed at time; the game page finds the others


def clock_panel(event: Event, round_: Round, *, error: str = "", refused=None) -> dict:
    """The TD's clock panel: the clock, the buttons that apply, and at time the unfinished
    tables with the club's rule (``refused``: a called-at-time form in error)."""
    clock = clock_of(round_)
    club = event.club
    panel: dict[str, Any] = {
        "clock": clock,
        "url": reverse("td-clock", args=[event.pk, round_.number]),
        "call_url": reverse("td-call-at-time", args=[event.pk, round_.number]),
        "game_minutes": club.game_minutes,
        "rule": Club.AtTime(club.at_time).label,
        "applies": at_time_applies(club),
        "error": error,
        "tables": [],
        "groups": [],
    }
    if clock.state == Clock.TIME and event.game_kind.group_tables:
        # Tables of several players (three-handed, Stoppa): no single winner to call; the TD
        # keys each table's scores or nets on its page as the club's rule decides.
        groups = list(unfinished_group_tables(round_)[:LISTED])
        panel["groups"] = [
            (table, [seat.entry.name for seat in table.seats.all()]) for table in groups
        ]
        panel["unfinished"] = unfinished_group_tables(round_).count()
    elif clock.state == Clock.TIME:
        refused_table, refused_form = refused or (None, None)
        panel["tables"] = [
            (
                table,
                refused_form
                if refused_table is not None and table.pk == refused_table
                else CalledAtTimeForm(table=table),
            )
            for table in unfinished_tables(round_)[:LISTED]
        ]
        panel["unfinished"] = unfinished_tables(round_).count()
    if refused is not None and refused[0] not in {t.pk for t, _form in panel["tables"]}:
        panel["error"] = panel["error"] or _first_error(refused[1])  # no row to show it in
    return panel


def _panel(request: HttpRequest, event: Event, round_: Round, **kwargs) -> HttpResponse:
    context = {"event": event, "round": round_, "panel": clock_panel(event, round_, **kwargs)}
    return render(request, PANEL, context)


def _game(request: HttpRequest, event_id: int, number: int) -> tuple[Event, Round]:
    event = selectors.directed_event(request.user, event_id)
    return event, selectors.event_round(event, number)


def _refused_page(request: HttpRequest, event: Event, round_: Round, panel: dict):
    from .views_game import TEMPLATE, _page_context  # the game page, shown again

    if event.game_kind.round_page != "td-game":  # a kind with its own game page
        messages.error(request, panel["error"])
        return redirect(event.game_kind.round_page, event_id=event.pk, number=round_.number)

    context = _page_context(request, event, round_) | {"clock_panel": panel}
    return render(request, TEMPLATE, context, status=400)


@login_required
@never_cache
def td_clock(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """The clock panel (GET, the panel's poll while the clock runs); a clock action (POST:
    ``action`` start, pause, resume, extend or stop; ``minutes`` to start with or add)."""
    event, round_ = _game(request, event_id, number)
    if request.method != "POST":
        return _panel(request, event, round_)
    action = request.POST.get("action", "")
    minutes = request.POST.get("minutes") or None
    actions = {
        "start": lambda: clock_services.start_clock(round_, minutes=minutes, user=request.user),
        "pause": lambda: clock_services.pause_clock(round_, user=request.user),
        "resume": lambda: clock_services.resume_clock(round_, user=request.user),
        "extend": lambda: clock_services.extend_clock(
            round_,
            minutes,
            user=request.user,
        ),
        "stop": lambda: clock_services.stop_clock(round_, user=request.user),
    }
    error = ""
    if action not in actions:
        error = _("Choose a clock action.")
    else:
        try:
            round_ = actions[action]()
        except ServiceError as exc:
            error = exc.message
    if request.htmx:
        return _panel(request, event, round_, error=error)
    if error:
        return _refused_page(request, event, round_, clock_panel(event, round_, error=error))
    return redirect(event.game_kind.round_page, event_id=event.pk, number=number)


@login_required
@require_POST
def td_call_at_time(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """Record an unfinished table as called at time, by the club's rule (through the one
    audited result path)."""
    event, round_ = _game(request, event_id, number)
    form = CalledAtTimeForm(request.POST)
    saved = form.save(event, user=request.user)
    if saved is None:
        panel = clock_panel(event, round_, refused=(_table_id(form), form))
        if request.htmx:
            return render(request, PANEL, {"event": event, "round": round_, "panel": panel})
        return _refused_page(request, event, round_, panel)
    if request.htmx:
        return _panel(request, event, round_)
    messages.success(
        request, _("Table %(table)s recorded as called at time.") % {"table": saved.table.number}
    )
    return redirect("td-game", event_id=event.pk, number=number)


def _table_id(form: CalledAtTimeForm) -> int | None:
    try:
        return int(form.data.get("table", ""))
    except (TypeError, ValueError):
        return None


def _first_error(form) -> str:
    for errors in form.errors.values():
        return str(errors[0])
    return ""


@login_required
@require_POST
def td_clock_rule(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's minutes per game and its rule for a game not finished in time."""
    club = selectors.directed_club(request.user, club_id)
    form = ClockRuleForm(request.POST)
    if form.save(club) is None:
        from .views_club import _club_page

        return _club_page(request, club, status=400, clock_form=form)
    messages.success(request, _("Clock settings saved."))
    return redirect("td-club", club_id=club.pk)


@require_GET
@never_cache
def event_clock(request: HttpRequest, event_id: int) -> HttpResponse:
    """The hall's clock (the latest released game's), polled by the projector and the
    players' pages."""
    event = selectors.public_event(event_id)
    return render(
        request, "tournaments/_clock_public.html", {"event": event, "clock": public_clock(event)}
    )
