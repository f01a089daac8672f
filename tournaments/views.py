"""Pages: public event pages (no login) and the TD's pages. Views only call services/selectors."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh

from core.errors import ServiceError

from . import hooks, selectors, services
from .error_codes import TournamentsError
from .forms import (
    ForbiddenPairForm,
    FormatForm,
    PlayoffForm,
    PlayoffGameForm,
    RegisterForm,
    RosterImportForm,
    TeamForm,
)
from .selectors_members import door_statuses, guest_status
from .services.results import describe_result


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The front page: running and finished events; the TD's own events when logged in."""
    return render(
        request,
        "tournaments/home.html",
        {
            "events": selectors.public_events()[:50],
            "my_events": selectors.events_directed_by(request.user)[:50],
            "my_clubs": selectors.clubs_directed_by(request.user)[:50],
        },
    )


# --- TD pages ------------------------------------------------------------------------------------


@login_required
@require_GET
def td_event(request: HttpRequest, event_id: int) -> HttpResponse:
    """The TD's dashboard of one event: entries, the current game, provisional standings.

    ``?add=1`` (where an added player lands) puts the cursor back in the name field.
    """
    event = selectors.directed_event(request.user, event_id)
    return _td_event_page(request, event, focus=request.GET.get("add") == "1")


def _td_event_page(
    request: HttpRequest,
    event,
    *,
    register_form: RegisterForm | None = None,
    team_form=None,
    import_form: RosterImportForm | None = None,
    report=None,
    focus: bool = False,
    status: int = 200,
) -> HttpResponse:
    latest = selectors.latest_round(event)
    bracket = selectors.event_bracket(event)
    # A refused name like the club's players: those players, to pick instead.
    candidates = getattr(register_form, "candidates", [])
    entered = set(event.entries.filter(player__in=candidates).values_list("player_id", flat=True))
    return render(
        request,
        "tournaments/td_event.html",
        {
            "event": event,
            "entries": _with_open_tables(event, selectors.event_entries(event)),
            "latest": latest,
            "rounds": event.rounds.order_by("number"),
            "register_form": register_form or RegisterForm(),
            "team_form": team_form or TeamForm(),
            "import_form": import_form or RosterImportForm(),
            "import_report": report,
            "focus": focus or register_form is not None or team_form is not None,
            "candidates": candidates,
            "entered": entered,
            "bracket": bracket,
            "actions": selectors.td_actions(event, latest, has_bracket=bracket is not None),
            "next_week": event.date + datetime.timedelta(days=7),  # the clone's date
            "desk": hooks.desk_marks(event.pk),
        },
        status=status,
    )


def _with_open_tables(event, entries) -> list:
    """The entries, each with ``open_table``: its table of a released game without a result
    (what a withdrawal would leave open, offered as a forfeit beside the button), and
    ``door``: the player's guest status on the event's date (the ACC guest rule's badge)."""
    found = selectors.open_tables(event)
    door = door_statuses(event)
    entries = list(entries)
    for entry in entries:
        entry.open_table = found.get(entry.pk)
        entry.door = door.get(entry.pk)  # the guest rule's badge at the door
    return entries


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
    """Draw the seating of the next game (released at once, or a draft to check first)."""
    event = selectors.directed_event(request.user, event_id)
    try:
        round_ = services.draw_next_game(event, draft=request.POST.get("draft") == "1")
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("td-event", event_id=event.pk)
    return redirect(_round_page(event), event_id=event.pk, number=round_.number)


def _round_page(event) -> str:
    """The TD's page of one game: the result cards, or a Stoppa session's tables."""
    return event.game_kind.round_page


@login_required
@require_POST
def td_redraw(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """Draw the latest game again (before any result)."""
    event = selectors.directed_event(request.user, event_id)
    try:
        round_ = services.redraw_game(selectors.event_round(event, number))
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(_round_page(event), event_id=event.pk, number=number)
    messages.success(
        request,
        _("%(round)s drawn again from a new seed (%(seed)s).")
        % {"round": event.game_kind.round_label(round_.number), "seed": round_.seed},
    )
    return redirect(_round_page(event), event_id=event.pk, number=round_.number)


@login_required
@require_POST
def td_finish(request: HttpRequest, event_id: int) -> HttpResponse:
    """Close the event."""
    return _td_action(request, event_id, services.finish_event, _("The event is finished."))


@login_required
@require_POST
def td_reopen(request: HttpRequest, event_id: int) -> HttpResponse:
    """Take a finished event back to running (a late correction, one more game)."""
    return _td_action(
        request,
        event_id,
        services.reopen_event,
        _("The event is running again: the standings are provisional until you finish it."),
    )


@login_required
@require_POST
def td_undo_result(request: HttpRequest, event_id: int) -> HttpResponse:
    """Take back the last result recorded (with an optional reason); its table is open."""
    event = selectors.directed_event(request.user, event_id)
    reason = request.POST.get("reason", "").strip()[:300]
    try:
        undone = services.undo_last_result(event, user=request.user, reason=reason)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("td-event", event_id=event.pk)
    table = undone.table
    messages.success(
        request,
        _("Undone: game %(game)s, table %(table)s (%(result)s). The table is open again.")
        % {
            "game": table.round.number,
            "table": table.number,
            "result": describe_result(undone.old),
        },
    )
    if undone.draft_removed:
        messages.info(
            request,
            _("The draft of game %(n)s was drawn on that result: it is gone; draw it again.")
            % {"n": undone.draft_removed},
        )
    return redirect("td-game", event_id=event.pk, number=table.round.number)


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
    """Register a player at the door (checked in at once): one picked from the search, a
    known one, or a new one when asked. A refusal shows the page again with the typed name
    and the error beside it (HTTP 400)."""
    event = selectors.directed_event(request.user, event_id)
    form = RegisterForm(request.POST)
    entry = form.save(event)
    if entry is None:
        return _td_event_page(request, event, register_form=form, status=400)
    messages.success(request, f"{entry.name} ✓")
    # No #register fragment: a URL fragment makes Chromium ignore the name field's autofocus.
    return redirect(f"{reverse('td-event', args=[event.pk])}?add=1")


@login_required
@require_POST
def td_register_team(request: HttpRequest, event_id: int) -> HttpResponse:
    """Register a team of two partners (checked in at once); a refusal shows the page again
    with the names typed and the error beside its field (HTTP 400)."""
    event = selectors.directed_event(request.user, event_id)
    form = TeamForm(request.POST)
    entry = form.save(event)
    if entry is None:
        return _td_event_page(request, event, team_form=form, status=400)
    messages.success(request, f"{entry.name} ✓")
    return redirect(f"{reverse('td-event', args=[event.pk])}?add=1")


@login_required
@require_GET
def td_player_search(request: HttpRequest, event_id: int) -> HttpResponse:
    """The club's players whose names fit what is typed (accents and case aside), as the
    candidates under the name field; those already entered are shown, not offered."""
    event = selectors.directed_event(request.user, event_id)
    found = selectors.find_club_players(event.club, request.GET.get("name", ""))
    entered = set(event.entries.filter(player__in=found).values_list("player_id", flat=True))
    return render(
        request,
        "tournaments/td_event.html#candidates",
        {"event": event, "candidates": found, "entered": entered},
    )


@login_required
@require_POST
def td_check_in_all(request: HttpRequest, event_id: int) -> HttpResponse:
    """Check in every entry that has not withdrawn."""
    event = selectors.directed_event(request.user, event_id)
    try:
        count = services.check_in_all(event)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Checked in: %(n)s.") % {"n": count})
    return redirect("td-event", event_id=event.pk)


@login_required
@require_POST
def td_import(request: HttpRequest, event_id: int) -> HttpResponse:
    """Enter a pasted or uploaded list of players; the page shows who was added, matched
    or skipped and why."""
    event = selectors.directed_event(request.user, event_id)
    form = RosterImportForm(request.POST, request.FILES)
    report = form.save(event)
    if report is None:
        return _td_event_page(request, event, import_form=form, status=400)
    return _td_event_page(request, event, report=report)


@login_required
@require_POST
def td_entry(request: HttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    """Check an entry in or out, or withdraw it."""
    event = selectors.directed_event(request.user, event_id)
    entry = get_object_or_404(event.entries.select_related("player"), pk=entry_id)
    action = request.POST.get("action")
    # Only a withdrawal can move the waiting list (a check-in at the door reads nothing more).
    withdrawing = action in ("withdraw", "withdraw_forfeit")
    waiting = event.waiting_list.count() if withdrawing else None
    try:
        match action:
            case "check_in":
                entry = services.set_checked_in(entry, True, user=request.user)
            case "check_out":
                entry = services.set_checked_in(entry, False, user=request.user)
            case "withdraw":
                entry = services.withdraw_entry(entry)
            case "withdraw_forfeit":  # and the opponent wins their open table by forfeit
                entry = services.withdraw_entry(entry, forfeit_open=True, user=request.user)
            case "forfeit_open":
                services.forfeit_open_tables(entry, user=request.user)
            case "reinstate":
                entry = services.reinstate_entry(entry)
            case other:
                raise ServiceError(
                    TournamentsError.UNKNOWN_ACTION,
                    _("Unknown action: %(action)s") % {"action": other},
                )
    except ServiceError as exc:
        if request.htmx:  # the row says why, where the TD is looking
            context = {"event": event, "entry": entry, "row_error": exc.message}
            return render(request, "tournaments/td_event.html#entry-row", context, status=400)
        messages.error(request, exc.message)
    if request.htmx:
        if withdrawing and event.waiting_list.count() != waiting:
            # A withdrawal moved someone up from the waiting list: a new row, a new count,
            # the badge; the whole page, not just this row.
            return HttpResponseClientRefresh()
        entry.open_table = selectors.open_tables(event, [entry]).get(entry.pk)
        entry.door = guest_status(event.club, entry.player, event.date)
        return render(
            request, "tournaments/td_event.html#entry-row", {"event": event, "entry": entry}
        )
    return redirect("td-event", event_id=event.pk)


@login_required
@require_POST
def td_release(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """Release a draft game to the players."""
    event = selectors.directed_event(request.user, event_id)
    try:
        services.release_game(selectors.event_round(event, number))
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        released = str(event.game_kind.messages.released)
        messages.success(request, released % {"n": number})
    return redirect(_round_page(event), event_id=event.pk, number=number)


@login_required
@require_GET
def td_seating(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """The seating of one game, to print and pin up: by table and by player name."""
    event = selectors.directed_event(request.user, event_id)
    if event.game_kind.round_page != "td-game":
        return redirect(event.game_kind.round_page, event_id=event.pk, number=number)
    round_ = selectors.event_round(event, number)
    tables, by_name = selectors.seating_list(round_)
    return render(
        request,
        "tournaments/seating_print.html",
        {"event": event, "round": round_, "tables": tables, "by_name": by_name},
    )


@login_required
@require_POST
def td_format(request: HttpRequest, event_id: int) -> HttpResponse:
    """Set the event's kind, pairing method, games per opponent and number of games."""
    event = selectors.directed_event(request.user, event_id)
    form = FormatForm(request.POST)
    if form.save(event) is None:
        for error in form.non_field_errors() + [e for f in form.errors.values() for e in f]:
            messages.error(request, error)
    else:
        messages.success(request, _("Format saved."))
    return redirect("td-event", event_id=event.pk)


@login_required
def td_forbidden(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event's forbidden pairs (family, partners): list, add, lift."""
    event = selectors.directed_event(request.user, event_id)
    status = 200
    if request.method == "POST":
        if request.POST.get("remove"):
            try:
                services.remove_forbidden_pair(event, int(request.POST["remove"]))
            except (ServiceError, ValueError):
                messages.error(request, _("There is no such forbidden pair."))
            return redirect("td-forbidden", event_id=event.pk)
        form = ForbiddenPairForm(request.POST, event=event)
        if form.save(event) is not None:
            messages.success(request, _("Forbidden pair saved: applies from the next draw."))
            return redirect("td-forbidden", event_id=event.pk)
        status = 400
    else:
        form = ForbiddenPairForm(event=event)
    context = {"event": event, "form": form, "pairs": selectors.forbidden_pairs(event)}
    return render(request, "tournaments/td_forbidden.html", context, status=status)


def _bracket_context(event, bracket) -> dict:
    if bracket is None:
        return {"event": event, "bracket": None}
    return {
        "event": event,
        "bracket": bracket,
        "sections": selectors.bracket_sections(bracket),
        "places": selectors.bracket_places(bracket),
        "cut_lots": selectors.cut_lots(bracket),
    }


@login_required
def td_playoff(request: HttpRequest, event_id: int) -> HttpResponse:
    """The TD's playoff page: the cut (or the draw) before, result entry per match after."""
    event = selectors.directed_event(request.user, event_id)
    bracket = selectors.event_bracket(event)
    status = 200
    cut_form = None
    game_form = None
    if request.method == "POST" and bracket is None:
        cut_form = PlayoffForm(request.POST, event=event)
        if cut_form.save(event) is not None:
            messages.success(request, _("The playoff bracket is drawn."))
            return redirect("td-playoff", event_id=event.pk)
        status = 400
    elif request.method == "POST":
        game_form = PlayoffGameForm(request.POST)
        if request.POST.get("undo"):
            try:
                services.undo_playoff_game(event, match=request.POST["undo"], user=request.user)
            except ServiceError as exc:
                messages.error(request, exc.message)
            return redirect("td-playoff", event_id=event.pk)
        if game_form.save(event, user=request.user) is not None:
            return redirect("td-playoff", event_id=event.pk)
        status = 400
    elif bracket is None:
        cut_form = PlayoffForm(event=event)
    preview = None
    if bracket is None:
        asked = request.POST.get("qualifiers", "") if request.method == "POST" else ""
        preview = selectors.cut_preview(event, int(asked) if asked.isdigit() else None)
    context = _bracket_context(event, bracket) | {
        "cut_form": cut_form,
        "cut_preview": preview,
        "game_form": game_form,
        "ready": selectors.ready_matches(bracket) if bracket else [],
    }
    return render(request, "tournaments/td_playoff.html", context, status=status)


@login_required
@require_POST
def td_consolation(request: HttpRequest, event_id: int) -> HttpResponse:
    """Create the consolation event for everyone who missed the cut."""
    event = selectors.directed_event(request.user, event_id)
    try:
        consolation = services.create_consolation(event)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("td-playoff", event_id=event.pk)
    messages.success(request, _("The consolation event is ready: check the field in."))
    return redirect("td-event", event_id=consolation.pk)


# --- Public bracket ------------------------------------------------------------------------------


@require_GET
def event_bracket(request: HttpRequest, event_id: int) -> HttpResponse:
    """The playoff bracket for phones and the projector (``?big=1``), following the results."""
    event = selectors.public_event(event_id)
    bracket = selectors.event_bracket(event)
    if bracket is None:
        raise Http404("No playoff yet.")
    context = _bracket_context(event, bracket) | {"big": request.GET.get("big") == "1"}
    return render(request, "tournaments/bracket.html", context)


@require_GET
def bracket_fragment(request: HttpRequest, event_id: int) -> HttpResponse:
    """The bracket alone, polled by HTMX."""
    event = selectors.public_event(event_id)
    bracket = selectors.event_bracket(event)
    if bracket is None:
        raise Http404("No playoff yet.")
    return render(
        request, "tournaments/bracket.html#bracket-body", _bracket_context(event, bracket)
    )
