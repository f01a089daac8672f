"""Pages: the player's private link (no account), and the TD's results desk."""

from __future__ import annotations

import io

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from core.devices import device_of, remember_device
from core.errors import ServiceError
from core.middleware import retry_safe_when
from scoring.cut_needs import describe_need, need_of
from tournaments import selectors as tournament_selectors
from tournaments.clock import public_clock
from tournaments.kinds import ResultShape
from tournaments.models import Entry
from tournaments.services import door as tournament_door

from . import reviews, selectors, selectors_sheets, services, views_sheets
from .error_codes import ResultsError
from .forms import DealFormSet, DisputeForm, ImportForm, PlayerReportForm, RulingForm
from .models import ImportJob, PrintJob


def _entry_or_404(key: str):
    try:
        return services.entry_for_key(key)
    except ServiceError:
        raise Http404("Unknown link.") from None


# The private page of a kind whose results are not a winner and a score, by result shape.
PLAYER_PAGES = {
    ResultShape.TABLE_NETS: views_sheets.player_page,
    ResultShape.TABLE_SCORES: views_sheets.player_page,
}


@never_cache  # a private page that changes with every report: never from a cache
# A report sent twice is one report: safe to run again after a lost database connection.
@retry_safe_when(lambda request: request.POST.get("action", "report") == "report")
def player_page(request: HttpRequest, key: str) -> HttpResponse:
    """The player's page: current table and opponent, report, confirm or dispute.

    While the game is open the page polls itself (``?since=<token>``): a 204 while nothing
    changed, else the game's card and the games list anew; a confirmed or disputed game
    stops the poll.
    """
    entry = _entry_or_404(key)
    _player_language(request, entry)
    if request.method == "POST" and request.POST.get("action") == "here":
        return _im_here(request, key, entry)
    shaped = PLAYER_PAGES.get(entry.event.game_kind.result_shape)
    if shaped is not None:  # the kind's tables report another shape of result
        return shaped(request, key, entry)
    if request.method == "POST":
        return _player_post(request, key, entry)
    here = selectors.player_table(entry)
    if request.htmx and "since" in request.GET:
        if request.GET["since"] == here.token:
            return HttpResponse(status=204)
        return render(request, "results/player.html#live", _player_context(key, entry, here))
    return render(request, "results/player.html", _player_context(key, entry, here))


def _im_here(request: HttpRequest, key: str, entry) -> HttpResponse:
    """ "I'm here": the player checks themselves in from their own link (issue 28), through
    the tournaments' check-in service (audited); refused once the first game is drawn."""
    try:
        tournament_door.self_check_in(
            entry, how=Entry.CheckIn.LINK, device=device_of(request).label
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("You are checked in. Good luck!"))
    return remember_device(request, redirect("player-page", key=key))


def _player_language(request: HttpRequest, entry) -> None:
    """The link opens in the language its player picked (``?lang=``, remembered on the key,
    so any phone shows it), else the visitor's own, else the event's."""
    asked = request.GET.get("lang", "")
    if asked in dict(settings.LANGUAGES):
        services.remember_language(entry, asked)
        return  # LanguageChoiceMiddleware has switched to it already
    chosen = entry.key.language or (
        "" if getattr(request, "language_chosen", False) else entry.event.language
    )
    if chosen:
        translation.activate(chosen)
        request.LANGUAGE_CODE = chosen


def _player_context(key: str, entry, here, *, lean: bool = False, **forms) -> dict:
    """The private page's context; ``lean`` (a refused report) leaves out the games list
    and the discard reviews, and ``deals=False`` the deal-by-deal editor."""
    initial = {"table": here.table.pk} if here.table else None
    deals = forms.get("deals")
    return {
        "key": key,
        "entry": entry,
        "door_refusal": None if entry.checked_in else tournament_door.door_refusal(entry.event),
        "here": here,
        "table": here.table,
        "lean": lean,
        "form": forms.get("form") or PlayerReportForm(initial=initial),
        "dispute_form": forms.get("dispute_form") or DisputeForm(initial=initial),
        "deals": _deal_formset(None, entry) if deals is None else deals,
        "games": [] if lean else selectors.my_games(entry),
        "hall_clock": public_clock(entry.event) if here.polled and not lean else None,
        "discard_reviews": [] if lean else reviews.player_reviews(entry),
        "cut_need": "" if lean else _cut_need(entry),
    }


def _cut_need(entry) -> str:
    """What the player needs to make the cut, in words ("A win puts you in."); empty when
    the event has no cut ahead. Shown on the full page, not on every poll of the game card."""
    verdict = need_of(entry.event, entry.pk)
    return describe_need(verdict) if verdict else ""


def _deal_formset(data, entry):
    """The record's deals (a kind with hand records): bound to a POST that has them, else
    one blank deal."""
    if not entry.event.game_kind.hand_records:
        return None
    if data is None or "deal-TOTAL_FORMS" not in data:
        return DealFormSet(prefix="deal")
    return DealFormSet(data, prefix="deal")


def _resized_deals(request: HttpRequest, entry, action: str):
    """The deals with one more (the dealer alternates) or one fewer: the add and remove
    buttons of the record without JavaScript."""
    data = request.POST.copy()
    try:
        total = max(1, min(int(data.get("deal-TOTAL_FORMS", "1")), DealFormSet.max_num))
    except ValueError:
        total = 1
    if action == "add_deal" and total < DealFormSet.max_num:
        previous = data.get(f"deal-{total - 1}-dealer")
        if previous in {"me", "opponent"}:
            data[f"deal-{total}-dealer"] = "opponent" if previous == "me" else "me"
        total += 1
    elif action == "remove_deal" and total > 1:
        total -= 1
    data["deal-TOTAL_FORMS"] = str(total)
    data.setdefault("deal-INITIAL_FORMS", "0")
    return _deal_formset(data, entry)


def _report(form: PlayerReportForm, deals, entry, here, key: str):
    """Submit the player's report; a record entered deal by deal is checked strictly (every
    error the engine finds is shown beside its deal) and must not come with a pasted one.
    ``here()`` is the player's current table, read only when the deals need the opponent."""
    record, strict = form.cleaned_data["record"], False
    if deals is not None and deals.is_bound:
        if not deals.is_valid():
            raise ServiceError(
                ResultsError.BAD_RECORD,
                _("Some of the record is not right: see the deals below."),
                field="record",
            )
        built = None
        if _deals_filled(deals):
            opponent = here().opponent
            built = deals.to_record(
                me=entry.name,
                opponent=opponent.name if opponent else "",
                target=entry.event.target,
                muggins=entry.event.muggins,
            )
        if built is not None and record is not None:
            raise ServiceError(
                ResultsError.BAD_RECORD,
                _("Enter the record deal by deal or paste it, not both."),
                field="record",
            )
        if built is not None:
            record, strict = built, True
    try:
        return services.submit(
            key,
            table=form.cleaned_data["table"],
            winner=form.cleaned_data["winner"],  # "me" / "opponent", from the player's seat
            loser_score=form.cleaned_data["loser_score"],
            forfeit=form.cleaned_data["forfeit"],
            record=record,
            entry=entry,
            strict_record=strict,
        )
    except services.RecordError as exc:
        if not strict:
            raise
        elsewhere = deals.show_problems(exc.problems)
        raise ServiceError(exc.code, " ".join([exc.message, *elsewhere]), field="record") from None


def _deals_filled(deals) -> bool:
    """Whether any deal of a bound record has a value (a blank deal is left out)."""
    return deals is not None and any(
        value not in (None, "")
        for deal in deals.forms
        for value in getattr(deal, "cleaned_data", {}).values()
    )


def _player_post(request: HttpRequest, key: str, entry) -> HttpResponse:
    """Report, confirm the opponent's version, or dispute it; every write is a service's.

    A report costs what the API's costs (the page's own read of its key aside): the player's
    current game is read only to show the page again after a refusal, and only what the
    refused form needs (:func:`_refused`)."""
    found: list = []

    def here():
        if not found:
            found.append(selectors.player_table(entry))
        return found[0]

    action = request.POST.get("action", "report")
    forms: dict = {}
    done = None
    if action == "confirm":
        try:
            # The version the player saw: a report changed since is refused, not confirmed.
            done = services.confirm_opponent(
                key,
                table=int(request.POST.get("table", 0)),
                version=int(request.POST.get("version") or 0),
            )
        except (ServiceError, ValueError) as exc:
            # Refused (the report changed, or was confirmed meanwhile): the page as it now
            # stands, with why; a reload then asks nothing again.
            messages.error(request, getattr(exc, "message", str(exc)))
            return redirect("player-page", key=key)
    elif action == "dispute":
        form = forms["dispute_form"] = DisputeForm(request.POST)

        def dispute():
            data = form.cleaned_data
            if not data["winner"]:  # no version of their own: the opponent's goes to the TD
                return services.dispute(key, table=data["table"], reason=data["reason"])
            return services.submit(
                key,
                table=data["table"],
                winner=data["winner"],
                loser_score=data["loser_score"],
                forfeit=data["forfeit"],
                reason=data["reason"],
                entry=entry,
            )

        done = form.run(dispute)
    elif action in {"add_deal", "remove_deal"}:
        # Nothing is sent yet: the same form again, with one deal more or less.
        fields = PlayerReportForm.base_fields
        forms["form"] = PlayerReportForm(initial={k: request.POST.get(k) for k in fields})
        forms["deals"] = _resized_deals(request, entry, action)
        context = _player_context(key, entry, here(), **forms)
        return render(request, "results/player.html", context)
    else:
        form = forms["form"] = PlayerReportForm(request.POST)
        deals = forms["deals"] = _deal_formset(request.POST, entry)
        done = form.run(lambda: _report(form, deals, entry, here, key))
    if done is not None:
        messages.success(request, _("Thank you: your report is recorded."))
        return redirect("player-page", key=key)
    return _refused(request, key, entry, here(), forms)


def _refused(request: HttpRequest, key: str, entry, here, forms: dict) -> HttpResponse:
    """A refused report or dispute: the form again with its errors beside the fields.

    Lean: the games list and the discard reviews are left out, and so is the deal-by-deal
    editor (a hundred card lists) unless the player used it; with HTMX only the game's card
    comes back. A record to fix deal by deal is the page asking for corrections (200); any
    other refused report stays a 400 (an HTMX swap takes 200s only: 422 is not swapped)."""
    report_form = forms.get("form")
    deals = forms.get("deals")
    used = report_form is not None and ("record" in report_form.errors or _deals_filled(deals))
    context = _player_context(
        key, entry, here, lean=True, **{**forms, "deals": deals if used else False}
    )
    record_only = report_form is not None and set(report_form.errors) == {"record"}
    if request.htmx:
        return render(request, "results/player.html#live", context)
    return render(request, "results/player.html", context, status=200 if record_only else 400)


@login_required
def results_desk(request: HttpRequest, event_id: int) -> HttpResponse:
    """The TD's results desk: open tables, the dispute queue, corrections, import, audit."""
    event, role = selectors.results_role(request.user, event_id)
    context = _desk_context(event, role)
    if role == "td" and "table" in request.GET:
        # Correct a confirmed result: the TD finds the table by the numbers on its card.
        game, number = request.GET.get("game", ""), request.GET.get("table", "")
        found = None
        if game.isdigit() and number.isdigit():
            found = selectors.table_to_correct(event, int(game), int(number))
        context |= {"correcting": found, "correct_game": game, "correct_table": number}
    return render(request, "results/desk.html", context)


def _desk_context(event, role: str, *, form=None, report=None) -> dict:
    keys = []
    if role == "td":
        entries = tournament_selectors.by_name(event.entries.select_related("player"))
        by_entry = services.keys_for(entries)
        keys = [(e, by_entry[e.pk]) for e in entries]
    kind = event.game_kind
    table_nets = kind.group_tables  # tables of several: the players' sheets
    return {
        "event": event,
        "role": role,
        "table_nets": table_nets,
        # Final scores, not chip nets: the desk's words for the players' sheets.
        "sheet_scores": kind.result_shape == ResultShape.TABLE_SCORES,
        "sheets": selectors_sheets.open_sheets(event) if table_nets else [],
        "session_tables": selectors_sheets.open_session_tables(event) if table_nets else [],
        "open_tables": selectors.open_tables(event),
        "disputes": selectors.open_disputes(event),
        "to_check": selectors.to_check(event),
        "audit": selectors.audit_log(event) if role == "td" else [],
        "keys": keys,
        "import_form": form or ImportForm(),
        "import_report": report,
        "latest_game": selectors.latest_game_number(event),
        "missed_points": (
            reviews.missed_points_leaders(event) if role == "td" and kind.hand_records else []
        ),
    }


@login_required
@require_POST
def check_view(request: HttpRequest, event_id: int) -> HttpResponse:
    """Confirm two agreeing reports after checking them (TD or scorekeeper)."""
    event, _role = selectors.results_role(request.user, event_id)
    try:
        services.check_agreed(event, table=int(request.POST.get("table", 0)), user=request.user)
    except (ServiceError, ValueError) as exc:
        messages.error(request, getattr(exc, "message", str(exc)))
    else:
        messages.success(request, _("Checked and confirmed."))
    return redirect("results-desk", event_id=event.pk)


@login_required
@require_POST
def accept_view(request: HttpRequest, event_id: int) -> HttpResponse:
    """Accept one player's pending report from the TD's game page (no retyping)."""
    event, _role = selectors.results_role(request.user, event_id)
    try:
        result = services.accept_report(
            event,
            table=int(request.POST.get("table", 0)),
            version=int(request.POST.get("version") or 0),
            user=request.user,
        )
    except (ServiceError, ValueError) as exc:
        messages.error(request, getattr(exc, "message", str(exc)))
        number = request.POST.get("game", "")
    else:
        messages.success(request, _("Report accepted."))
        number = str(result.table.round.number)
    if number.isdigit():
        return redirect("td-game", event_id=event.pk, number=int(number))
    return redirect("results-desk", event_id=event.pk)


@login_required
@require_POST
def rule_view(request: HttpRequest, event_id: int) -> HttpResponse:
    """Settle a dispute: one version, or the TD's own result."""
    event, _role = selectors.results_role(request.user, event_id)
    table_id = request.POST.get("table", "")
    try:
        if request.POST.get("submission"):
            services.rule(
                event,
                table=int(table_id),
                user=request.user,
                submission=int(request.POST["submission"]),
                note=request.POST.get("note", ""),
            )
        else:
            form = RulingForm(request.POST)
            if (
                form.run(
                    lambda: services.rule(
                        event,
                        table=form.cleaned_data["table"],
                        user=request.user,
                        winner=form.cleaned_data["winner"],
                        loser_score=form.cleaned_data["loser_score"],
                        forfeit=form.cleaned_data["forfeit"],
                        note=form.cleaned_data["reason"],
                    )
                )
                is None
            ):
                for error in form.errors.values():
                    messages.error(request, " ".join(error))
                return redirect("results-desk", event_id=event.pk)
    except (ServiceError, ValueError) as exc:
        messages.error(request, getattr(exc, "message", str(exc)))
    else:
        messages.success(request, _("Ruling recorded."))
    return redirect("results-desk", event_id=event.pk)


@login_required
@require_POST
def correct_view(request: HttpRequest, event_id: int) -> HttpResponse:
    """Correct a confirmed result (TD only), with a reason."""
    event, role = selectors.results_role(request.user, event_id)
    if role != "td":
        raise Http404("No such event.")
    form = RulingForm(request.POST)
    done = form.run(
        lambda: services.correct(
            event,
            table=form.cleaned_data["table"],
            user=request.user,
            winner=form.cleaned_data["winner"],
            loser_score=form.cleaned_data["loser_score"],
            forfeit=form.cleaned_data["forfeit"],
            reason=form.cleaned_data["reason"],
        )
    )
    if done is None:
        for error in [*form.non_field_errors(), *[e for f in form.errors.values() for e in f]]:
            messages.error(request, error)
    else:
        messages.success(request, _("Correction recorded; the standings are being updated."))
    return redirect("results-desk", event_id=event.pk)


@login_required
@require_POST
def import_view(request: HttpRequest, event_id: int) -> HttpResponse:
    """Import paper cards (CSV) and reconcile them by Rule 12.2 (TD only)."""
    event, role = selectors.results_role(request.user, event_id)
    if role != "td":
        raise Http404("No such event.")
    if not event.game_kind.paper_import:
        messages.error(request, _("This event's results are not kept on W/L paper cards."))
        return redirect("results-desk", event_id=event.pk)
    form = ImportForm(request.POST, request.FILES)
    report = None
    if form.is_valid():
        raw = form.cleaned_data["file"].read()
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            form.add_error("file", _("The file must be UTF-8 text."))
        else:
            asked = form.run(lambda: services.request_import(event, text, user=request.user))
            if asked is not None and asked.job is not None:
                return redirect("results-import-job", event_id=event.pk, job_id=asked.job.pk)
            report = asked.report if asked is not None else None
    context = _desk_context(event, role, form=form, report=report)
    return render(request, "results/desk.html", context, status=200 if report else 400)


@login_required
@require_POST
def print_view(request: HttpRequest, event_id: int) -> HttpResponse:
    """Queue the event's PDF set (score cards, table cards, seating list)."""
    event, role = selectors.results_role(request.user, event_id)
    if role != "td":
        raise Http404("No such event.")
    job = services.request_printables(
        event, base_url=request.build_absolute_uri("/"), language=request.LANGUAGE_CODE
    )
    return redirect("results-print-job", event_id=event.pk, job_id=job.pk)


def _td_job(request: HttpRequest, event_id: int, model, job_id: int):
    """The event and one of its desk jobs, for its TD only (404 for anyone else)."""
    event, role = selectors.results_role(request.user, event_id)
    job = model.objects.filter(pk=job_id, event=event).first()
    if job is None or role != "td":
        raise Http404("No such job.")
    return event, job


def _job_page(request: HttpRequest, page: str, event, job) -> HttpResponse:
    """A job's page, or just its progress fragment for the HTMX poll."""
    return render(request, f"{page}#job" if request.htmx else page, {"event": event, "job": job})


@login_required
def import_job_view(request: HttpRequest, event_id: int, job_id: int) -> HttpResponse:
    """A large import's progress (polled by HTMX), then its report."""
    event, job = _td_job(request, event_id, ImportJob, job_id)
    return _job_page(request, "results/import_job.html", event, job)


@login_required
def print_job_view(request: HttpRequest, event_id: int, job_id: int) -> HttpResponse:
    """A print job's progress (polled by HTMX), then its PDF."""
    event, job = _td_job(request, event_id, PrintJob, job_id)
    if request.GET.get("download") and job.status == PrintJob.Status.DONE:
        filename = f"pegboard-{event.pk}-printables.pdf"
        return FileResponse(io.BytesIO(bytes(job.pdf)), as_attachment=True, filename=filename)
    return _job_page(request, "results/print_job.html", event, job)


# --- The club's scorekeepers (a section of the club page) --------------------------------------


def _scorekeepers(
    request: HttpRequest, club, *, form=None, status: int = 200, note: str = "", error: str = ""
) -> HttpResponse:
    from tournaments.forms import UserForm

    context = {
        "club": club,
        "scorekeepers": selectors.club_scorekeepers(club),
        "form": form or UserForm(),
        "note": note,
        "error": error,
    }
    # On the club page the section is loaded (and re-rendered) by HTMX; alone it is a page.
    template = "results/club_scorekeepers.html" + ("#section" if request.htmx else "")
    return render(request, template, context, status=status)


@login_required
def club_scorekeepers(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's scorekeepers: add one (an existing user, by username or email), remove one.

    Only the club's TDs manage them (a scorekeeper gets a 404, as for any page of a club
    they do not direct). A refusal is HTTP 400 without HTMX; with HTMX the section comes
    back with the error, as the other TD pages do.
    """
    from tournaments.forms import UserForm
    from tournaments.selectors import directed_club

    club = directed_club(request.user, club_id)
    if request.method != "POST":
        return _scorekeepers(request, club)
    refused = 200 if request.htmx else 400
    if "remove" in request.POST:
        try:
            services.remove_scorekeeper(club, int(request.POST["remove"]))
        except (ServiceError, ValueError):
            error = _("That user does not keep score for this club.")
            return _scorekeepers(request, club, status=refused, error=error)
        done = _("Scorekeeper removed.")
    else:
        form = UserForm(request.POST)
        user = form.run(lambda: services.add_scorekeeper(club, form.cleaned_data["who"]))
        if user is None:
            return _scorekeepers(request, club, form=form, status=refused)
        done = _("%(user)s now keeps score for the club.") % {"user": user}
    if request.htmx:
        return _scorekeepers(request, club, note=done)
    messages.success(request, done)
    return redirect("td-club", club_id=club.pk)
