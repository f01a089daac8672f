"""Pages: public event pages (no login) and the TD's pages. Views only call services/selectors."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from pegboard.errors import ServiceError
from scoring.selectors import games_with_snapshots, standings_with_movement
from scoring.tiebreakers import REGISTRY as TIEBREAKERS

from . import selectors, services
from .forms import RegisterForm, ResultForm


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The front page: running and finished events; the TD's own events when logged in."""
    return render(
        request,
        "tournaments/home.html",
        {
            "events": selectors.public_events()[:50],
            "my_events": selectors.events_directed_by(request.user)[:50],
        },
    )


def _standings_context(event, after_game: int | None = None) -> dict:
    latest = selectors.latest_round(event)
    return {
        "event": event,
        "standings": standings_with_movement(event.pk, after_game),
        "latest_game": latest.number if latest else 0,
        "snapshot_games": games_with_snapshots(event.pk),
        "after_game": after_game,
    }


def _after_game(request: HttpRequest) -> int | None:
    value = request.GET.get("after", "")
    return int(value) if value.isdigit() else None


@require_GET
def event_public(request: HttpRequest, event_id: int) -> HttpResponse:
    """Public page of an event: standings (when published) and the seating of every game."""
    event = selectors.public_event(event_id)
    context = _standings_context(event, _after_game(request)) | {
        "rounds": selectors.rounds_with_tables(event),
        "public": True,
    }
    return render(request, "tournaments/event_public.html", context)


@require_GET
def standings_fragment(request: HttpRequest, event_id: int) -> HttpResponse:
    """The standings table alone, polled by HTMX so the page follows the results."""
    event = selectors.public_event(event_id)
    context = _standings_context(event, _after_game(request)) | {"public": True}
    return render(request, "tournaments/standings.html#standings-table", context)


@require_GET
def projector(request: HttpRequest, event_id: int) -> HttpResponse:
    """Standings in large type for the projector, refreshing itself."""
    event = selectors.public_event(event_id)
    return render(
        request, "tournaments/projector.html", _standings_context(event) | {"public": True}
    )


# --- TD pages ------------------------------------------------------------------------------------


@login_required
@require_GET
def td_event(request: HttpRequest, event_id: int) -> HttpResponse:
    """The TD's dashboard of one event: entries, the current game, provisional standings."""
    event = selectors.directed_event(request.user, event_id)
    latest = selectors.latest_round(event)
    return render(
        request,
        "tournaments/td_event.html",
        _standings_context(event)
        | {
            "entries": selectors.event_entries(event),
            "latest": latest,
            "rounds": event.rounds.order_by("number"),
            "register_form": RegisterForm(),
            "tiebreakers": TIEBREAKERS,
        },
    )


def _td_action(request: HttpRequest, event_id: int, action, success: str) -> HttpResponse:
    event = selectors.directed_event(request.user, event_id)
    try:
        action(event)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, success)
    return redirect("td-event", event_id=event.pk)


@login_required
@require_POST
def td_draw(request: HttpRequest, event_id: int) -> HttpResponse:
    """Draw the seating of the next game."""
    event = selectors.directed_event(request.user, event_id)
    try:
        round_ = services.draw_next_game(event)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("td-event", event_id=event.pk)
    return redirect("td-game", event_id=event.pk, number=round_.number)


@login_required
@require_POST
def td_redraw(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """Draw the latest game again (before any result)."""
    event = selectors.directed_event(request.user, event_id)
    try:
        round_ = services.redraw_game(selectors.event_round(event, number))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("td-game", event_id=event.pk, number=number)
    return redirect("td-game", event_id=event.pk, number=round_.number)


@login_required
@require_POST
def td_finish(request: HttpRequest, event_id: int) -> HttpResponse:
    """Close the event."""
    return _td_action(request, event_id, services.finish_event, _("The event is finished."))


@login_required
@require_POST
def td_publish(request: HttpRequest, event_id: int) -> HttpResponse:
    """Publish or hide the standings."""
    publish = request.POST.get("publish") == "1"
    return _td_action(
        request,
        event_id,
        lambda event: services.set_standings_published(event, publish),
        _("Standings are public.") if publish else _("Standings are hidden from the public."),
    )


@login_required
@require_POST
def td_chain(request: HttpRequest, event_id: int) -> HttpResponse:
    """Set the ranking chain (tiebreakers in order)."""
    keys = request.POST.get("tiebreakers", "").replace(",", " ").split()
    return _td_action(
        request,
        event_id,
        lambda event: services.set_ranking_chain(event, keys),
        _("Ranking chain saved; the standings are being re-ranked."),
    )


@login_required
@require_POST
def td_register(request: HttpRequest, event_id: int) -> HttpResponse:
    """Register a player at the door (checked in at once)."""
    event = selectors.directed_event(request.user, event_id)
    form = RegisterForm(request.POST)
    entry = form.save(event)
    if entry is None:
        for error in form.non_field_errors() + [e for f in form.errors.values() for e in f]:
            messages.error(request, error)
    else:
        messages.success(request, f"{entry.player.name} ✓")
    return redirect("td-event", event_id=event.pk)


@login_required
@require_POST
def td_entry(request: HttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    """Check an entry in or out, or withdraw it."""
    event = selectors.directed_event(request.user, event_id)
    entry = get_object_or_404(event.entries.select_related("player"), pk=entry_id)
    try:
        match request.POST.get("action"):
            case "check_in":
                entry = services.set_checked_in(entry, True)
            case "check_out":
                entry = services.set_checked_in(entry, False)
            case "withdraw":
                entry = services.withdraw_entry(entry)
            case other:
                messages.error(request, _("Unknown action: %(action)s") % {"action": other})
    except ServiceError as exc:
        messages.error(request, exc.message)
    if request.htmx:
        return render(
            request, "tournaments/td_event.html#entry-row", {"event": event, "entry": entry}
        )
    return redirect("td-event", event_id=event.pk)


@login_required
def td_game(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """Result entry for game ``number``: one small form per table.

    An HTMX post returns just that table's card (with its errors, or the saved result);
    a plain post redirects on success and shows the page again with errors (HTTP 400).
    """
    event = selectors.directed_event(request.user, event_id)
    round_ = selectors.event_round(event, number)
    tables = list(selectors.tables_with_results(round_))
    if request.method != "POST":
        cards = [(t, ResultForm(table=t)) for t in tables]
        return render(
            request, "tournaments/td_game.html", {"event": event, "round": round_, "cards": cards}
        )

    posted_table = request.POST.get("table", "")
    table = next((t for t in tables if str(t.pk) == posted_table), None)
    form = ResultForm(request.POST, table=table)
    saved = form.save(event, game_number=number, user=request.user)
    if request.htmx:
        if saved is not None:
            table = selectors.tables_with_results(round_).get(pk=table.pk)
            form = ResultForm(table=table)
        context = {"event": event, "round": round_, "table": table, "form": form, "saved": saved}
        return render(request, "tournaments/td_game.html#table-card", context)
    if saved is not None:
        return redirect("td-game", event_id=event.pk, number=number)
    cards = [(t, form if t is table else ResultForm(table=t)) for t in tables]
    context = {
        "event": event,
        "round": round_,
        "cards": cards,
        "stray_form": None if table else form,
    }
    return render(request, "tournaments/td_game.html", context, status=400)
