"""The ACC event report (issue 27): what a director sends the ACC after a sanctioned event or a
Grass Roots night, as one CSV and one PDF.

One line per entrant in final places (the playoff's first where there is one): ACC number,
member or guest on the night, games, game points, and the points the night earned: computed
Master Rating Points for a Main or Consolation event (``scoring.mrp_awards``; marked
provisional where they rest on an unverified table), Grass Roots points for a club night
(members only, by the season's table, the ACC's 9-game table outside every season).

The payback figures (what each place was paid, the pot, what was held back) belong to the
money app, which is built apart: :func:`register_payback_provider` is its hook, and the
report's "Payback" section and column stay empty until a provider is registered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.models import Event, Membership
from tournaments.selectors_members import member_ids

from .exports import Export
from .models import MrpAward, Season
from .mrp_awards import mrp_kind
from .seasons import ACC_GRASS_ROOTS, ACC_NIGHT_GAMES, night_points
from .selectors import placed_standings, with_place_labels


@dataclass(frozen=True)
class Payback:
    """The money side of the report, as the money app gives it: per entry what was paid,
    and the night's figures in order (label, amount)."""

    by_entry: dict[int, Decimal] = field(default_factory=dict)
    figures: list[tuple[str, Decimal]] = field(default_factory=list)


PaybackProvider = Callable[[Event], Payback]
_payback_provider: PaybackProvider | None = None


def register_payback_provider(provider: PaybackProvider | None) -> None:
    """The money app's hook: how to read an event's payback figures (None unregisters)."""
    global _payback_provider
    _payback_provider = provider


def payback_for(event: Event) -> Payback:
    """The event's payback figures from the money app; empty while none is registered."""
    return _payback_provider(event) if _payback_provider is not None else Payback()


@dataclass
class ReportLine:
    """One entrant's line of the report."""

    entry_id: int
    place: str
    name: str
    acc_number: str
    member: bool
    games_played: int
    games_won: int
    game_points: int
    spread: int
    mrp: Decimal | None = None
    mrp_provisional: bool = False
    grp: int | None = None
    payback: Decimal | None = None


@dataclass
class EventReport:
    """The whole report of one event."""

    event: Event
    kind: str  # "main", "consolation" or "grass_roots"
    lines: list[ReportLine]
    payback: Payback
    mrp_computed: bool = False
    generated_at: object = None

    @property
    def provisional(self) -> bool:
        """Whether some MRPs rest on an unverified (or missing) table."""
        return any(line.mrp_provisional for line in self.lines)

    @property
    def members(self) -> list[ReportLine]:
        return [line for line in self.lines if line.member]

    @property
    def guests(self) -> list[ReportLine]:
        return [line for line in self.lines if not line.member]


def _grass_roots_table(event: Event) -> tuple[dict[int, int], int]:
    """The Grass Roots table and night length the event is scored by: its season's, else the
    ACC's 9-game table."""
    season = (
        Season.objects.filter(club_id=event.club_id, start__lte=event.date, end__gte=event.date)
        .order_by("start")
        .first()
    )
    if season is None:
        return dict(ACC_GRASS_ROOTS), ACC_NIGHT_GAMES
    return dict(season.grass_roots.values_list("game_points", "points")), season.night_games


def event_report(event: Event) -> EventReport:
    """The ACC report of ``event`` (see the module's docstring)."""
    placed, places = placed_standings(event.pk)
    rows = with_place_labels(
        list(placed.filter(games_played__gt=0).select_related("entry__player", "entry__partner")),
        places,
    )
    players = [row.entry.player_id for row in rows]
    members = member_ids(event.club, players, event.date)
    numbers = dict(
        Membership.objects.filter(
            club=event.club,
            player_id__in=players,
            season_start__lte=event.date,
            season_end__gte=event.date,
        ).values_list("player_id", "acc_number")
    )
    kind = mrp_kind(event)
    awards = {a.entry_id: a for a in MrpAward.objects.filter(event=event)}
    table, night_games = _grass_roots_table(event) if kind is None else ({}, ACC_NIGHT_GAMES)
    games = event.rounds.count() or event.games_planned
    payback = payback_for(event)
    lines = []
    for row in rows:
        player = row.entry.player
        line = ReportLine(
            entry_id=row.entry_id,
            place=row.place_label,  # type: ignore[attr-defined]
            name=row.entry.name,  # a team: both partners
            acc_number=numbers.get(player.pk) or player.acc_number,
            member=player.pk in members,
            games_played=row.games_played,
            games_won=row.games_won,
            game_points=row.game_points,
            spread=row.spread,
            payback=payback.by_entry.get(row.entry_id),
        )
        if kind is not None:
            award = awards.get(row.entry_id)
            line.mrp = award.points if award is not None else (Decimal(0) if awards else None)
            line.mrp_provisional = award is not None and award.provisional
        elif event.game_kind.acc_points:  # Grass Roots points: the ACC's games only
            # Grass Roots points go to members only; the line says the guest got none.
            line.grp = (
                night_points(table, row.game_points, games, night_games).points
                if line.member
                else 0
            )
        lines.append(line)
    return EventReport(
        event=event,
        kind=kind.value if kind is not None else "grass_roots",
        lines=lines,
        payback=payback,
        mrp_computed=bool(awards),
        generated_at=timezone.now(),
    )


def report_export(report: EventReport) -> Export:
    """The report as rows for the CSV: one line per entrant."""
    columns = [
        ("place", _("Place")),
        ("name", _("Name")),
        ("acc_number", _("ACC number")),
        ("status", _("Member or guest")),
        ("games_played", _("Games played")),
        ("games_won", _("Games won")),
        ("game_points", _("Game points")),
        ("spread", pgettext("standings column", "Spread")),
    ]
    if report.kind == "grass_roots":
        columns.append(("grp", _("Grass Roots points")))
    else:
        columns += [("mrp", _("Master Rating Points")), ("provisional", _("Provisional"))]
    columns.append(("payback", _("Payback")))
    rows = []
    for line in report.lines:
        values = {
            "place": line.place,
            "name": line.name,
            "acc_number": line.acc_number,
            "status": _("member") if line.member else _("guest"),
            "games_played": line.games_played,
            "games_won": line.games_won,
            "game_points": line.game_points,
            "spread": line.spread,
            "grp": line.grp,
            "mrp": line.mrp,
            "provisional": _("yes") if line.mrp_provisional else "",
            "payback": line.payback,
        }
        rows.append([values[key] for key, _label in columns])
    event = report.event
    meta = {
        "export": "acc_event_report",
        "event": {"id": event.pk, "name": event.name, "date": event.date, "club": event.club.name},
        "kind": report.kind,
        "provisional": report.provisional,
        # The results log's final digest (tournaments.audit_chain): the verify page recomputes it.
        "audit_digest": event.audit_digest,
    }
    return Export(f"{event.name} {event.date:%Y-%m-%d} ACC report", columns, rows, meta)


def report_pdf(report: EventReport, base_url: str = "/") -> bytes:
    """The report as a PDF (WeasyPrint, DejaVu Sans: accented names print as typed)."""
    import weasyprint

    html = render_to_string("scoring/acc_event_report_pdf.html", {"report": report})
    return bytes(weasyprint.HTML(string=html, base_url=base_url).write_pdf())
