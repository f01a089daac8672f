"""Downloads: an event's exports (public and the TD's), a season's ACC report and printable
summary, and a club's public results archive."""

from __future__ import annotations

from collections import OrderedDict

from django.contrib.auth.decorators import login_required
from django.db.models import OuterRef, Q, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments import selectors
from tournaments.limits import MAX_NUMBER
from tournaments.models import Club, Event

from . import exports
from .models import Season, Standing, StandingsSnapshot
from .places import final_places_for
from .seasons import season_events, split_members
from .selectors import standings_public


def _number(request: HttpRequest, name: str) -> int | None:
    """A game number from the query (``?after=3``, ``?game=2``); absent or not one: None."""
    value = request.GET.get(name, "")
    if value.isascii() and value.isdigit() and int(value) <= MAX_NUMBER:
        return int(value)
    return None


def download(export: exports.Export, fmt: str) -> HttpResponse:
    """The export as a file to save (CSV or JSON), named after the event."""
    response = HttpResponse(exports.render(export, fmt), content_type=exports.CONTENT_TYPES[fmt])
    response["Content-Disposition"] = exports.content_disposition(f"{export.name}.{fmt}")
    return response


def _event_download(request: HttpRequest, event: Event, what: str, fmt: str, director: bool):
    if what not in exports.WHATS or fmt not in exports.FORMATS:
        raise Http404("No such export.")
    try:
        export = exports.event_export(
            event,
            what,
            after_game=_number(request, "after"),
            game=_number(request, "game"),
            director=director,
        )
    except exports.ExportUnavailable as exc:
        raise Http404(str(exc)) from None
    return download(export, fmt)


@require_GET
def event_export(request: HttpRequest, event_id: int, what: str, fmt: str) -> HttpResponse:
    """``/events/<id>/export/<what>.<csv|json>``: what the public page shows, as a file
    (404 for a draft, and for standings the TD has not published)."""
    event = selectors.public_event(event_id)
    return _event_download(request, event, what, fmt, director=False)


@login_required
@require_GET
def td_event_export(request: HttpRequest, event_id: int, what: str, fmt: str) -> HttpResponse:
    """The TD's export: unpublished standings and draft games included."""
    event = selectors.directed_event(request.user, event_id)
    return _event_download(request, event, what, fmt, director=True)


def _season(season_id: int) -> Season:
    season = Season.objects.select_related("club").filter(pk=season_id).first()
    if season is None:
        raise Http404("No such season.")
    return season


@require_GET
def season_acc_report(request: HttpRequest, season_id: int) -> HttpResponse:
    """``/seasons/<id>/export/acc.csv``: the season's ledger as the ACC report (public, as
    the season table is)."""
    return download(exports.acc_report(_season(season_id)), "csv")


@require_GET
def season_summary_pdf(request: HttpRequest, season_id: int) -> HttpResponse:
    """``/seasons/<id>/summary.pdf``: the season table and its nights, printable.

    Rendered synchronously: one club's season is a few pages (the event printables, which
    can run to hundreds of score cards, go through Celery instead).
    """
    import weasyprint

    season = _season(season_id)
    ledgers = list(season.ledgers.select_related("player").order_by("rank", "player__name"))
    members, guests = split_members(season, ledgers)
    context = {
        "season": season,
        "ledgers": ledgers,
        "groups": [(_("Members"), members), (_("Guests"), guests)] if guests else [("", members)],
        "events": season_events(season).order_by("date"),
        "grass_roots": season.grass_roots.all(),
    }
    html = render_to_string("scoring/season_summary_pdf.html", context, request)
    pdf = weasyprint.HTML(string=html, base_url=request.build_absolute_uri("/")).write_pdf()
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = exports.content_disposition(
        f"{season.club.name} {season.name}.pdf"
    )
    return response


PODIUM = 3  # the archive shows the top of each event's final standings


def club_archive_context(club: Club) -> dict:
    """A club's finished public events, newest first, grouped by season (by year for an event
    outside every season), each with the top of its final standings when published: the
    final places (the playoff's first, once it is decided). Six queries whatever the number
    of events."""
    seasons = list(Season.objects.filter(club=club).order_by("-start"))
    latest = (
        StandingsSnapshot.objects.filter(event=OuterRef("event"))
        .order_by("-after_game")
        .values("pk")[:1]
    )
    events = list(
        selectors.public_events()
        .filter(club=club, status=Event.Status.FINISHED)
        .order_by("-date", "name")
    )
    published = [e.pk for e in events if standings_public(e)]
    places = final_places_for(published)
    moved = [entry for p in places.values() for entry in p.moved]
    podium: dict[int, list[Standing]] = {}
    for row in (
        Standing.objects.filter(event_id__in=published)
        .filter(Q(rank__lte=PODIUM) | Q(entry_id__in=moved))
        .filter(snapshot_id=Subquery(latest))
        .select_related("entry__player", "entry__partner")
        .order_by("event_id", "rank", "entry__player__name")
    ):
        final = places[row.event_id]
        row.place = final.place(row.entry_id, row.rank)  # type: ignore[attr-defined]
        if row.place <= PODIUM:  # type: ignore[attr-defined]
            row.place_label = final.label(row.entry_id, row.rank, row.tied)  # type: ignore[attr-defined]
            podium.setdefault(row.event_id, []).append(row)
    for rows in podium.values():
        rows.sort(key=lambda row: row.place)  # type: ignore[attr-defined]
    groups: OrderedDict[str, dict] = OrderedDict()
    for event in events:
        season = next((s for s in seasons if s.start <= event.date <= s.end), None)
        key = f"season-{season.pk}" if season else f"year-{event.date.year}"
        group = groups.setdefault(key, {"season": season, "year": event.date.year, "events": []})
        event.podium = podium.get(event.pk, [])  # type: ignore[attr-defined]
        group["events"].append(event)
    return {"club": club, "groups": list(groups.values())}


@require_GET
def club_archive(request: HttpRequest, club_id: int) -> HttpResponse:
    """``/clubs/<id>/archive/``: the club's past events by season, linking to each one's
    final standings."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise Http404("No such club.")
    return render(request, "scoring/club_archive.html", club_archive_context(club))
