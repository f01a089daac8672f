"""The TD's game page: result entry per table, paged so a 500-table game stays a small page.

What the page shows (``tournaments/selectors_game.py`` reads it): the game's counts, the tables
that need the TD first (disputes, checks, players' reports), then one page of the open tables
(or all, or a search by table number or name), and an "enter the result of table N" box that
opens any table's card. A game with no more tables than a page looks as it always did.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import hooks, selectors
from . import selectors_game as game
from .forms import ResultForm, SwapForm
from .views_clock import clock_panel

TEMPLATE = "tournaments/td_game.html"
URGENT = frozenset({hooks.DeskMark.DISPUTED, hooks.DeskMark.TO_CHECK})


@login_required
def td_game(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """Result entry for game ``number``: one small form per table, a page of tables at a time.

    ``?card=N`` asked by htmx returns table N's card alone (the entry box). An HTMX post
    returns just that table's card (with its errors, or the saved result and the next open
    table's number); a plain post redirects on success and shows the page again with errors
    (HTTP 400).
    """
    event = selectors.directed_event(request.user, event_id)
    if event.game_kind.round_page != "td-game":  # a kind with its own round page
        return redirect(event.game_kind.round_page, event_id=event.pk, number=number)
    round_ = selectors.event_round(event, number)
    if request.method != "POST":
        if request.htmx and "card" in request.GET:
            return _entry_card(request, event, round_)
        return render(request, TEMPLATE, _page_context(request, event, round_))

    table = game.table_of_game(round_, request.POST.get("table", ""))
    form = ResultForm(request.POST, table=table)
    saved = form.save(event, game_number=number, user=request.user)
    if request.htmx:
        next_open = None
        if saved is not None:
            table = game.table_of_game(round_, str(table.pk))
            form = ResultForm(table=table)
            next_open = game.next_open_table(round_, table.number)
        _mark_tables(event, round_, [table])
        context = {
            "event": event,
            "round": round_,
            "table": table,
            "form": form,
            "saved": saved,
            "next_open": next_open,
            "game_url": _game_url(event, round_),
            # The page's "Open tables (N)" counts down as the TD keys (the card carries it).
            "open_left": game.game_counts(round_).open if saved is not None else None,
        }
        return render(request, f"{TEMPLATE}#table-card", context)
    if saved is not None:
        return redirect("td-game", event_id=event.pk, number=number)
    context = _page_context(request, event, round_, refused=(table, form))
    return render(request, TEMPLATE, context, status=400)


def _entry_card(request: HttpRequest, event, round_) -> HttpResponse:
    """Table ``?card=N``'s card for the entry box, or a line saying there is no such table."""
    typed = request.GET.get("card", "").strip()[:10]
    table = game.table_numbered(round_, int(typed)) if typed.isdigit() else None
    if table is None:
        context = {"missing": typed, "round": round_}
        return render(request, f"{TEMPLATE}#missing-card", context)
    _mark_tables(event, round_, [table])
    context = {
        "event": event,
        "round": round_,
        "table": table,
        "form": ResultForm(table=table),
        "game_url": _game_url(event, round_),
    }
    return render(request, f"{TEMPLATE}#table-card", context)


def _game_url(event, round_) -> str:
    """Where every card posts (reversed once, not twice a card)."""
    return reverse("td-game", args=[event.pk, round_.number])


def _mark_tables(event, round_, tables, desk: hooks.DeskMarks | None = None) -> hooks.DeskMarks:
    """Put the results desk's state on each table (``table.desk_mark``) and return the desk's
    counts (``desk`` when already read): disputed and player-reported tables are marked on
    the TD's game page."""
    desk = desk or hooks.desk_marks(event.pk, round_.pk)
    marks = desk.tables or {}
    reports = desk.reports or {}
    for table in tables:
        if table is not None:
            # The result or None: ``table.result`` on an open table raises, and a template
            # pays for each such lookup (three a card) with an exception and a dir().
            table.recorded = getattr(table, "result", None)
            table.desk_mark = marks.get(table.pk, "")
            table.pending_report = reports.get(table.pk)
    return desk


def _page_context(request: HttpRequest, event, round_, refused=None, swap_form=None) -> dict:
    """The game page: counts, the tables that need the TD first, one page of the list.

    ``?find=`` a table number or a name (``?card=`` too, the entry box without JavaScript),
    ``?show=open`` or ``all`` (a game of more than a page opens on its open tables),
    ``?page=``. ``refused`` is a plain post's (table, form) in error: its card shows the form.
    """
    counts = game.game_counts(round_)
    find = (request.GET.get("find") or request.GET.get("card") or "").strip()[:60]
    show = request.GET.get("show")
    if show not in (game.Show.OPEN, game.Show.ALL):
        show = game.Show.OPEN if counts.paged else game.Show.ALL
    desk = hooks.desk_marks(event.pk, round_.pk)
    marks = desk.tables or {}
    urgent = {pk for pk, mark in marks.items() if mark in URGENT}
    if urgent:  # the desk's disputes and checks are the event's: keep this game's
        urgent = set(round_.tables.filter(pk__in=urgent).values_list("pk", flat=True))
    attention, attention_count = [], 0
    if counts.paged and show == game.Show.OPEN and not find and not round_.is_draft:
        attention, attention_count = game.attention_tables(round_, urgent, desk.reports or {})
    tables = game.game_tables(round_, show=show, find=find, leave_out=[t.pk for t in attention])
    listed = None  # the open list's length is known: the open tables less those shown above
    if show == game.Show.OPEN and not find:
        listed = counts.open - sum(
            1 for t in attention if t.seat_b_id and getattr(t, "result", None) is None
        )
    page = game.page_of(tables, request.GET.get("page"), count=listed)
    shown = [*attention, *page.object_list]
    entry = []
    refused_table, refused_form = refused or (None, None)
    if refused_table is not None and all(t.pk != refused_table.pk for t in shown):
        entry = [refused_table]  # on another page: its card with the errors, above the list
    _mark_tables(event, round_, [*shown, *entry], desk)

    def card(table):
        if refused_table is not None and table.pk == refused_table.pk:
            return table, refused_form
        if table.recorded is None:
            # An open table's form is blank: the card draws its fields without one (a form and
            # its bound fields, made and looked up for each card, were a fifth of the page).
            return table, None
        return table, ResultForm(table=table)

    seated = []
    if round_.is_draft:  # the swap form lists every seated player of the draft
        seated = sorted(
            (seat for t in game.game_tables(round_) for seat in t.seats()),
            key=lambda e: e.name.casefold(),
        )
    return {
        "event": event,
        "round": round_,
        "clock_panel": clock_panel(event, round_) if not round_.is_draft else None,
        "counts": counts,
        "game_url": _game_url(event, round_),
        "paged": counts.paged,
        "attention_cards": [card(t) for t in attention],
        "attention_more": attention_count - len(attention),
        "cards": [card(t) for t in page.object_list],
        "entry_cards": [card(t) for t in entry],
        "page": page,
        "find": find,
        "show": game.Show.ALL if find else show,
        "open_count": format_html('<span id="open-count">{}</span>', counts.open),
        "table_count": counts.tables,
        "summary": {
            "waiting": sum(1 for mark in marks.values() if mark == hooks.DeskMark.WAITING),
            "disputed": sum(1 for pk in urgent if marks[pk] == hooks.DeskMark.DISPUTED),
            "to_check": sum(1 for pk in urgent if marks[pk] == hooks.DeskMark.TO_CHECK),
        },
        # A dispute anywhere in the event keeps the draw (as the desk's marks always did).
        "can_redraw": not marks and counts.done == 0 and selectors.can_redraw(event, round_, []),
        "desk": desk,
        "last_result": game.last_result_of_game(event, round_) if counts.done else None,
        "seated": seated,
        "swap_form": swap_form or SwapForm(),
        "stray_form": refused_form if refused is not None and refused_table is None else None,
    }


@login_required
@require_POST
def td_swap(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    """Swap two seats of a draft game; what the swap breaks is shown, and needs a confirm."""
    event = selectors.directed_event(request.user, event_id)
    round_ = selectors.event_round(event, number)
    form = SwapForm(request.POST)
    saved = form.save(round_)
    if saved is not None:
        _round, problems = saved
        for problem in problems:
            messages.warning(request, problem)
        messages.success(request, _("Seats swapped."))
        return redirect("td-game", event_id=event.pk, number=number)
    context = _page_context(request, event, round_, swap_form=form)
    return render(request, TEMPLATE, context, status=400)
