"""The club's money pages, for its TDs and treasurers (``treasury.access``): the money
settings, the payout table (with its preview), the side pools, the treasurers, and the season
books (page, CSV and PDF). The event's money desk is ``treasury.views``. Views call only
services and selectors."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from books.payouts import PayoutTable
from core.errors import ServiceError
from scoring import seasons as scoring_seasons
from scoring.exports import content_disposition
from scoring.forms import SeasonForm
from tournaments import selectors as tournament_selectors
from tournaments.models import Club

from . import access, club_services, season, selectors, services
from .forms import (
    ClubMoneyForm,
    PayoutTableForm,
    PoolForm,
    PreviewForm,
    TreasurerForm,
)
from .models import ClubRole
from .payout_tables import PayoutTableRefused, check_rows
from .views import posted_int

PREVIEW_FIELD = 12
# The club's money log's actions in words (club_services writes them).
LOG_WORDS = {
    "club_money_set": pgettext_lazy("money log", "money settings changed"),
    "payout_table_set": pgettext_lazy("money log", "payout table saved"),
    "pool_created": pgettext_lazy("money log", "side pool added"),
    "pool_changed": pgettext_lazy("money log", "side pool changed"),
    "staff_added": pgettext_lazy("money log", "treasurer named"),
    "staff_removed": pgettext_lazy("money log", "treasurer removed"),
}


def _preview(club: Club, form: PreviewForm, table: PayoutTable | None = None) -> dict:
    """The preview of the table for the form's field size and fee, or the reason it has none."""
    if not form.is_bound or not form.is_valid():
        return {}
    try:
        sheet = selectors.payout_preview(
            club, form.cleaned_data["entrants"], form.cleaned_data["fee"], table
        )
    except ServiceError as exc:
        return {"preview_error": exc.message}
    return {"preview": sheet}


def _club_money_page(
    request: HttpRequest, club: Club, *, status: int = 200, **forms: Any
) -> HttpResponse:
    settings = selectors.club_money(club)
    stored = selectors.stored_table_rows(club)
    table_form = forms.get("table_form")
    table_error = ""
    if table_form is None:
        table_form = PayoutTableForm(stored=stored)
        _table, problems = check_rows(stored, stored=True)
        if problems:  # a stored row the rules refuse: said beside it, the page still works
            table_form = PayoutTableForm(PayoutTableForm.data_of(stored), stored=stored)
            table_form.is_valid()
            table_form.rows()
            table_form.add_problems(problems)
            table_error = _("The stored payout table cannot be used: correct the rows marked.")
    preview_form = forms.get("preview_form")
    if preview_form is None:  # the stored table for a field of 12 at the club's fee
        preview_form = PreviewForm({"entrants": PREVIEW_FIELD, "fee": settings.entry_fee})
    log = list(selectors.club_money_log(club)[:10])
    for entry in log:
        entry.words = LOG_WORDS.get(entry.action, entry.action)  # type: ignore[attr-defined]
    is_td = access.directs(request.user, club)
    context = {
        "club": club,
        "is_td": is_td,
        "events": selectors.club_events(club)[:20],
        "treasurers": selectors.club_staff(club, ClubRole.TREASURER),
        "money": settings,
        "money_form": forms.get("money_form") or ClubMoneyForm(instance=settings),
        "pool_form": forms.get("pool_form") or PoolForm(),
        "pools": club.pools.order_by("name"),
        "ledgers": selectors.club_ledgers(club)[:20],
        "table_form": table_form,
        "table_error": table_error,
        "table_default": not stored,
        "preview_form": preview_form,
        "treasurer_form": forms.get("treasurer_form") or TreasurerForm(),
        "appointed": forms.get("appointed"),
        "log": log,
    }
    context |= forms.get("preview") or _preview(club, preview_form)
    return render(request, "treasury/club_money.html", context, status=status)


@login_required
@require_POST
def club_payout_table(request: HttpRequest, club_id: int) -> HttpResponse:
    """Save the club's payout table (the TD or a treasurer), or preview the rows typed
    (``action=preview``) without saving them: the figures for the preview's field and fee."""
    club = access.money_club(request.user, club_id)
    form = PayoutTableForm(request.POST, stored=selectors.stored_table_rows(club))
    preview_form = PreviewForm(request.POST)
    form.is_valid()
    rows = form.rows()
    table, problems = check_rows(rows)
    if problems:  # said beside the rows; no preview of a table that cannot pay
        form.add_problems(problems)
        return _club_money_page(
            request,
            club,
            table_form=form,
            preview_form=preview_form,
            preview={"preview_error": _("Correct the rows marked to see their preview.")},
            status=400,
        )
    if request.POST.get("action") == "preview":
        preview = _preview(club, preview_form, table)
        return _club_money_page(
            request, club, table_form=form, preview_form=preview_form, preview=preview
        )
    try:
        club_services.set_payout_table(
            club, rows, user=request.user, reason=form.cleaned_data.get("reason", "")
        )
    except PayoutTableRefused as exc:
        form.add_problems(exc.problems)
        return _club_money_page(request, club, table_form=form, status=400)
    messages.success(request, _("The payout table is saved."))
    return redirect(reverse("club-money", args=[club.pk]) + "#payout-table")


@login_required
@require_http_methods(["GET", "POST"])
def club_money(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's money settings (GET shows them, POST saves them), its pools, its nights."""
    club = access.money_club(request.user, club_id)
    if request.method == "GET":
        return _club_money_page(request, club)
    form = ClubMoneyForm(request.POST, instance=selectors.club_money(club))
    if not form.is_valid():
        return _club_money_page(request, club, money_form=form, status=400)
    try:
        services.set_club_money(club, user=request.user, **form.cleaned_data)
    except ServiceError as exc:
        form.add_error(exc.field, exc.message)
        return _club_money_page(request, club, money_form=form, status=400)
    messages.success(request, _("The club's money settings are saved."))
    return redirect("club-money", club_id=club.pk)


@login_required
@require_POST
def club_pool_new(request: HttpRequest, club_id: int) -> HttpResponse:
    """Add a side pool to the club."""
    club = access.money_club(request.user, club_id)
    form = PoolForm(request.POST)
    if not form.is_valid():
        return _club_money_page(request, club, pool_form=form, status=400)
    values = dict(form.cleaned_data)
    ratios = values.pop("ratios_text")
    try:
        services.create_pool(
            club,
            values.pop("name"),
            values.pop("kind"),
            values.pop("fee"),
            ratios=ratios,
            user=request.user,
            **values,
        )
    except ServiceError as exc:
        form.add_error(None, exc.message)
        return _club_money_page(request, club, pool_form=form, status=400)
    messages.success(request, _("The pool is added."))
    return redirect("club-money", club_id=club.pk)


@login_required
@require_POST
def club_pool_active(request: HttpRequest, club_id: int, pool_id: int) -> HttpResponse:
    """Retire a side pool (no new night runs it; its balance stays) or bring it back."""
    club = access.money_club(request.user, club_id)
    active = request.POST.get("active") == "1"
    try:
        pool = club_services.update_pool(club, pool_id, user=request.user, active=active)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        done = _("%(pool)s is back.") if active else _("%(pool)s is retired.")
        messages.success(request, done % {"pool": pool.name})
    return redirect(reverse("club-money", args=[club.pk]) + "#club-pools")


@login_required
@require_GET
def money_home(request: HttpRequest) -> HttpResponse:
    """The clubs whose books the user keeps (as TD or treasurer), to their money pages."""
    return render(
        request, "treasury/home.html", {"clubs": access.money_clubs(request.user).order_by("name")}
    )


@login_required
@require_POST
def club_treasurer(request: HttpRequest, club_id: int) -> HttpResponse:
    """A TD names a treasurer of the club (by username) or takes the role back."""
    # The TDs' page only: a treasurer keeps the books, they do not appoint.
    club = tournament_selectors.directed_club(request.user, club_id)
    try:
        services.set_club_role(
            club,
            request.POST.get("username", ""),
            ClubRole.TREASURER,
            on=request.POST.get("action") != "remove",
            by=request.user,
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The club's treasurers are saved."))
    return redirect("club-money", club_id=club.pk)


@login_required
@require_POST
def club_treasurer_new(request: HttpRequest, club_id: int) -> HttpResponse:
    """A TD appoints a treasurer by name and e-mail: their account, or a new one with a link
    to choose a password (mailed to them, and shown to the TD when the account is new)."""
    club = tournament_selectors.directed_club(request.user, club_id)  # TDs only
    form = TreasurerForm(request.POST)
    if not form.is_valid():
        return _club_money_page(request, club, treasurer_form=form, status=400)
    try:
        appointed = club_services.appoint_treasurer(
            club,
            name=form.cleaned_data["name"],
            email=form.cleaned_data["email"],
            user=request.user,
        )
    except ServiceError as exc:
        form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        return _club_money_page(request, club, treasurer_form=form, status=400)
    link = ""
    if appointed.set_password_path:
        url = request.build_absolute_uri(appointed.set_password_path)
        mailed = club_services.mail_set_password_link(appointed.user, club, url)
        # The link is the TD's to pass on only for an account made now: an older account's
        # owner gets it by mail alone.
        link = url if appointed.created else ""
        if not mailed:
            messages.warning(request, _("The e-mail could not be sent."))
    messages.success(
        request,
        _("%(name)s is a treasurer of the club (username %(username)s).")
        % {"name": form.cleaned_data["name"], "username": appointed.user.get_username()},
    )
    if link:
        return _club_money_page(request, club, appointed={"link": link, "user": appointed.user})
    return redirect(reverse("club-money", args=[club.pk]) + "#treasurers")


def _season_books(request: HttpRequest, club_id: int, season_id: int) -> season.SeasonBooks:
    club = access.money_club(request.user, club_id)
    return season.season_books(season.club_season(club, season_id))


@login_required
@require_GET
def season_page(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's season books: ``?season=<id>``, else its latest season; a club without a
    season is told how to make one, and the TD or treasurer can make it here."""
    return _season_page(request, access.money_club(request.user, club_id))


def _season_page(
    request: HttpRequest, club: Club, form: SeasonForm | None = None, status: int = 200
) -> HttpResponse:
    seasons = list(season.club_seasons(club))
    chosen = posted_int(request.GET.get("season"))
    picked = next((s for s in seasons if s.pk == chosen), seasons[0] if seasons else None)
    books = season.season_books(picked) if picked is not None else None
    if form is None:
        start, end = scoring_seasons.default_dates(timezone.localdate())
        form = SeasonForm(initial={"start": start, "end": end})
    return render(
        request,
        "treasury/season.html",
        {"club": club, "seasons": seasons, "picked": picked, "books": books, "form": form},
        status=status,
    )


@login_required
@require_POST
def season_new(request: HttpRequest, club_id: int) -> HttpResponse:
    """A new season of the club (name, first and last day), from its season books page: the
    TD's or the treasurer's (``scoring.seasons.create_season``, the TD's seasons page's)."""
    club = access.money_club(request.user, club_id)
    form = SeasonForm(request.POST)
    made = form.create(club)
    if made is None:
        return _season_page(request, club, form, status=400)
    messages.success(request, _("Season %(name)s created.") % {"name": made.name})
    return redirect(reverse("money-season", args=[club.pk]) + f"?season={made.pk}")


@login_required
@require_GET
def season_csv(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    """The season books as CSV (UTF-8, accented names kept)."""
    books = _season_books(request, club_id, season_id)
    response = HttpResponse(season.season_csv(books), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition(
        f"{books.season.club.name} {books.season.name} {_('books')}.csv"
    )
    return response


@login_required
@require_GET
def season_pdf(request: HttpRequest, club_id: int, season_id: int) -> HttpResponse:
    """The season books as a PDF (WeasyPrint with DejaVu Sans, as the season summary).

    Rendered synchronously: a season is a few dozen nights, a page or two.
    """
    import weasyprint

    books = _season_books(request, club_id, season_id)
    html = render_to_string("treasury/season_pdf.html", {"books": books}, request)
    pdf = weasyprint.HTML(string=html, base_url=request.build_absolute_uri("/")).write_pdf()
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition(
        f"{books.season.club.name} {books.season.name} {_('books')}.pdf"
    )
    return response
