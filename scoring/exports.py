"""Data out: an event's standings, results, seating and bracket, and a season's ACC report, as
rows (pure reads over the selectors) and two renderers of those rows, CSV and JSON.

The CSV is UTF-8 with a byte-order mark (Excel then opens "Zoë" and "Ștefan" right) and
formula-safe: a *text* cell that a spreadsheet would read as a formula (starting with
``= + - @``, a tab or a carriage return) is written with a leading ``'``. Numbers are written
as numbers, so a spread of -12 stays a number and is never quoted.

The game kind decides what a seating or a result row is (two-player tables for cribbage, chip
nets at tables of 3 to 6 for Stoppa): each has its row builders registered here by the kind's
key, and a kind without them answers :class:`ExportUnavailable` (a 404), never a crash.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any
from urllib.parse import quote

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import F, Value
from django.db.models.functions import Coalesce
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.limits import MAX_NUMBER
from tournaments.models import (
    Bracket,
    Event,
    GameResult,
    PlayoffMatch,
    Round,
    StoppaSeat,
    Table,
)
from tournaments.threehanded.kind import place_points, places

from .models import Season
from .seasons import split_members
from .selectors import placed_standings, standings_public

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
WHATS = ("standings", "results", "seating", "bracket")
FORMATS = ("csv", "json")


class ExportUnavailable(Exception):
    """The export asked for does not exist for this event (no playoff, a kind without
    tables of two...); the views answer 404 with the message."""


@dataclass
class Export:
    """A table of data: ``columns`` as (key, label) pairs and ``rows`` of values in that order.

    ``meta`` (what was exported, of which event) heads the JSON; ``name`` is the file name
    without its extension.
    """

    name: str
    columns: list[tuple[str, str]]
    rows: list[list[Any]]
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def keys(self) -> list[str]:
        return [key for key, _label in self.columns]

    def records(self) -> list[dict[str, Any]]:
        """The rows as dicts by column key (the JSON's rows)."""
        keys = self.keys
        return [dict(zip(keys, row, strict=True)) for row in self.rows]


# --- Renderers -------------------------------------------------------------------------------


def safe_cell(value: Any) -> Any:
    """A cell as the CSV writes it: numbers as they are, ``None`` empty, booleans as 0/1, and
    text that a spreadsheet would run as a formula neutralised with a leading ``'``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float | Decimal):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def render_csv(export: Export) -> bytes:
    """The export as CSV bytes: UTF-8 with a BOM, a header row of labels, CRLF line ends."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([safe_cell(label) for _key, label in export.columns])
    for row in export.rows:
        writer.writerow([safe_cell(value) for value in row])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def render_json(export: Export) -> bytes:
    """The export as JSON bytes (UTF-8, accents unescaped): ``meta``, ``columns``, ``rows``."""
    body = {
        **export.meta,
        "columns": [{"key": key, "label": label} for key, label in export.columns],
        "rows": export.records(),
    }
    return json.dumps(body, cls=DjangoJSONEncoder, ensure_ascii=False, indent=1).encode("utf-8")


CONTENT_TYPES = {"csv": "text/csv; charset=utf-8", "json": "application/json; charset=utf-8"}


def render(export: Export, fmt: str) -> bytes:
    """``render_csv`` or ``render_json`` by ``fmt`` ("csv" or "json")."""
    return render_csv(export) if fmt == "csv" else render_json(export)


def content_disposition(filename: str) -> str:
    """An attachment header any browser reads: an ASCII fallback name and the UTF-8 one
    (RFC 6266), so "Soirée d'hiver.csv" keeps its accents where the browser can."""
    stem, dot, ext = filename.rpartition(".")
    fallback = (slugify(stem) or "export") + dot + ext
    header = f'attachment; filename="{fallback}"'
    if fallback != filename:
        header += f"; filename*=UTF-8''{quote(filename, safe='')}"
    return header


# --- Events ----------------------------------------------------------------------------------


def _event_meta(event: Event, what: str) -> dict[str, Any]:
    return {
        "export": what,
        "event": {
            "id": event.pk,
            "name": event.name,
            "date": event.date,
            "club": event.club.name,
            "game": event.game,
            "status": event.status,
        },
    }


def _file_name(event: Event, what: str) -> str:
    return f"{event.name} {event.date:%Y-%m-%d} {what}"


def standings_export(event: Event, after_game: int | None = None) -> Export:
    """The standings after game ``after_game`` (the latest by default), best first: once the
    playoff is decided, in final places (its places first, then the qualifying order), with
    the final ``place`` beside the qualifying ``rank`` (the same as the rank until then).

    Stoppa events have chips columns instead of game points and spread (the row builder asks
    the rows, not the game's name: a kind that scores in chips fills ``chips``).
    """
    placed, places = placed_standings(event.pk, after_game)
    rows = list(placed)
    chips = bool(rows) and rows[0].chips is not None
    columns = [
        ("place", pgettext("standings column", "Place")),
        ("rank", pgettext("standings column", "Rank")),
        ("tied", _("Tied")),
        ("name", _("Name")),
        ("acc_number", _("ACC number")),
        ("games_played", _("Games played")),
        ("games_won", _("Won")),
        ("games_lost", _("Lost")),
    ]
    if chips:
        columns += [
            ("chips", _("Chips")),
            ("sessions_won", _("Sessions won")),
            ("best_session", _("Best session")),
        ]
    else:
        columns += [
            ("game_points", _("Game points")),
            ("spread", _("Spread")),
            ("skunks_won", _("Skunks for")),
            ("skunks_suffered", _("Skunks against")),
            ("byes", _("Byes")),
        ]
    columns.append(("withdrawn", _("Withdrawn")))
    keys = [key for key, _label in columns]
    out = []
    for row in rows:
        values = {
            "name": row.entry.name,
            "acc_number": row.entry.player.acc_number,
            "withdrawn": row.entry.withdrawn,
        }
        out.append([values[k] if k in values else getattr(row, k) for k in keys])
    snapshot = rows[0].snapshot if rows else None
    meta = _event_meta(event, "standings") | {
        "after_game": snapshot.after_game if snapshot else None,
        "complete": snapshot.complete if snapshot else None,
        "computed_at": snapshot.computed_at if snapshot else None,
        "places_from_playoff": places.decided,
    }
    name = _file_name(event, "standings")
    if after_game is not None:
        name += f" after {after_game}"
    return Export(name, columns, out, meta)


def _rounds(event: Event, released_only: bool):
    rounds = Round.objects.filter(event=event)
    if released_only:
        rounds = rounds.filter(status=Round.Status.RELEASED)
    return rounds


def _two_player_seating(event: Event, game: int | None, released_only: bool) -> Export:
    tables = (
        Table.objects.filter(round__in=_rounds(event, released_only))
        .select_related(
            "round", "seat_a__player", "seat_a__partner", "seat_b__player", "seat_b__partner"
        )
        .annotate(place=Coalesce("number", Value(MAX_NUMBER + 1)))
        .order_by("round__number", "place", "pk")
    )
    if game is not None:
        tables = tables.filter(round__number=game)
    columns = [
        ("game", _("Game")),
        ("table", _("Table")),
        ("player_a", _("Player")),
        ("acc_a", _("ACC number")),
        ("player_b", _("Opponent")),
        ("acc_b", _("Opponent's ACC number")),
    ]
    rows = [
        [
            t.round.number,
            t.number if t.number is not None else _("bye"),
            t.seat_a.name,
            t.seat_a.player.acc_number,
            t.seat_b.name if t.seat_b else "",
            t.seat_b.player.acc_number if t.seat_b else "",
        ]
        for t in tables
    ]
    return Export("", columns, rows)


def _stoppa_seating(event: Event, game: int | None, released_only: bool) -> Export:
    seats = (
        StoppaSeat.objects.filter(round__in=_rounds(event, released_only))
        .select_related("round", "table", "entry__player", "entry__partner")
        .order_by("round__number", F("table__number").asc(nulls_last=True), "position")
    )
    if game is not None:
        seats = seats.filter(round__number=game)
    columns = [
        ("session", _("Session")),
        ("table", _("Table")),
        ("seat", _("Seat")),
        ("name", _("Name")),
        ("acc_number", _("ACC number")),
    ]
    rows = [
        [
            s.round.number,
            s.table.number if s.table.number is not None else _("sitting out"),
            s.position,
            s.entry.name,
            s.entry.player.acc_number,
        ]
        for s in seats
    ]
    return Export("", columns, rows)


def _two_player_results(event: Event, released_only: bool) -> Export:
    results = (
        GameResult.objects.filter(table__round__in=_rounds(event, released_only))
        .select_related(
            "table__round", "winner__player", "winner__partner", "loser__player", "loser__partner"
        )
        .order_by("table__round__number", F("table__number").asc(nulls_last=True), "pk")
    )
    columns = [
        ("game", _("Game")),
        ("table", _("Table")),
        ("kind", _("Kind")),
        ("winner", _("Winner")),
        ("loser", _("Loser")),
        ("loser_score", _("Loser's score")),
        ("winner_points", _("Winner's game points")),
        ("loser_points", _("Loser's game points")),
        ("spread", _("Spread")),
        ("skunk_level", _("Skunk level")),
        ("entered_at", _("Entered at")),
    ]
    rows = [
        [
            r.table.round.number,
            r.table.number if r.table.number is not None else _("bye"),
            r.kind,
            r.winner.name,
            r.loser.name if r.loser else "",
            r.loser_score,
            r.winner_points,
            r.loser_points,
            r.margin,
            r.skunk_level,
            r.entered_at.isoformat(),
        ]
        for r in results
    ]
    return Export("", columns, rows)


def _stoppa_results(event: Event, released_only: bool) -> Export:
    seats = (
        StoppaSeat.objects.filter(
            round__in=_rounds(event, released_only), table__entered_at__isnull=False
        )
        .select_related("round", "table", "entry__player", "entry__partner")
        .order_by("round__number", "table__number", "position")
    )
    columns = [
        ("session", _("Session")),
        ("table", _("Table")),
        ("seat", _("Seat")),
        ("name", _("Name")),
        ("net", _("Chip net")),
    ]
    rows = [[s.round.number, s.table.number, s.position, s.entry.name, s.net] for s in seats]
    return Export("", columns, rows)


def _three_handed_seating(event: Event, game: int | None, released_only: bool) -> Export:
    export = _stoppa_seating(event, game, released_only)
    # The same rows as Stoppa's tables of several, in the game's own words.
    columns = [("game", _("Game")), *export.columns[1:]]
    return Export(export.name, columns, export.rows)


def _three_handed_results(event: Event, released_only: bool) -> Export:
    """Every player of every table with a result: the final score, the place (a tie shares
    the better place) and the game points of that place (the event's place points)."""
    seats = list(
        StoppaSeat.objects.filter(
            round__in=_rounds(event, released_only), table__entered_at__isnull=False
        )
        .select_related("round", "table", "entry__player")
        .order_by("round__number", "table__number", "position")
    )
    by_table: dict[int, list[StoppaSeat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    columns = [
        ("game", _("Game")),
        ("table", _("Table")),
        ("seat", _("Seat")),
        ("name", _("Name")),
        ("score", _("Score")),
        ("place", _("Place")),
        ("game_points", _("Game points")),
    ]
    rows = []
    for members in by_table.values():
        scores = [s.net or 0 for s in members]
        for seat, place in zip(members, places(scores), strict=True):
            points = place_points(event, place, len(members))
            rows.append(
                [
                    seat.round.number,
                    seat.table.number,
                    seat.position,
                    seat.entry.player.name,
                    seat.net,
                    place,
                    points,
                ]
            )
    return Export("", columns, rows)


# What a seating and a result row are, per game kind (the registry's key); a kind added later
# registers its own or its exports answer 404.
SEATING_ROWS: dict[str, Callable[[Event, int | None, bool], Export]] = {
    "cribbage": _two_player_seating,
    "stoppa": _stoppa_seating,
    "cribbage3": _three_handed_seating,
    "partners": _two_player_seating,  # two teams a table: each seat names both partners
}
RESULT_ROWS: dict[str, Callable[[Event, bool], Export]] = {
    "cribbage": _two_player_results,
    "stoppa": _stoppa_results,
    "cribbage3": _three_handed_results,
    "partners": _two_player_results,
}


def seating_export(event: Event, game: int | None = None, *, released_only: bool = True) -> Export:
    """Every table of every game (or of game ``game``); the public sees released games only."""
    builder = SEATING_ROWS.get(event.game_kind.key)
    if builder is None:
        raise ExportUnavailable(_("This event's seating cannot be exported."))
    export = builder(event, game, released_only)
    export.meta = _event_meta(event, "seating") | {"game": game}
    export.name = _file_name(event, "seating") + (f" game {game}" if game is not None else "")
    return export


def results_export(event: Event, *, released_only: bool = True) -> Export:
    """Every recorded result, game by game."""
    builder = RESULT_ROWS.get(event.game_kind.key)
    if builder is None:
        raise ExportUnavailable(_("This event's results cannot be exported."))
    export = builder(event, released_only)
    export.meta = _event_meta(event, "results")
    export.name = _file_name(event, "results")
    return export


def bracket_export(event: Event) -> Export:
    """The playoff's matches in playing order, with the final places in the JSON's meta."""
    bracket = Bracket.objects.filter(event=event).first()
    if bracket is None:
        raise ExportUnavailable(_("This event has no playoff."))
    matches = (
        PlayoffMatch.objects.filter(bracket=bracket)
        .select_related(
            "seat_a__player",
            "seat_a__partner",
            "seat_b__player",
            "seat_b__partner",
            "winner__player",
            "winner__partner",
        )
        .order_by("position")
    )
    columns = [
        ("match", _("Match")),
        ("section", _("Section")),
        ("round", _("Round")),
        ("best_of", _("Best of")),
        ("seed_a", pgettext("playoff seed", "Seed")),
        ("player_a", _("Player")),
        ("seed_b", _("Opponent's seed")),
        ("player_b", _("Opponent")),
        ("wins_a", _("Games won")),
        ("wins_b", _("Opponent's games won")),
        ("winner", _("Winner")),
        ("walkover", _("Walkover")),
    ]

    def name(entry) -> str:
        return entry.name if entry is not None else ""

    rows = [
        [
            m.code,
            m.section,
            m.round,
            m.best_of,
            m.seed_a,
            name(m.seat_a),
            m.seed_b,
            name(m.seat_b),
            m.wins_a,
            m.wins_b,
            name(m.winner),
            m.walkover,
        ]
        for m in matches
    ]
    from tournaments.models import Entry, entry_names

    places = {int(pk): place for pk, place in (bracket.places or {}).items()}
    names = entry_names(Entry.objects.filter(pk__in=places))
    meta = _event_meta(event, "bracket") | {
        "places": sorted(
            ({"place": place, "name": names.get(pk, "")} for pk, place in places.items()),
            key=lambda p: (p["place"], p["name"]),
        )
    }
    return Export(_file_name(event, "bracket"), columns, rows, meta)


def event_export(
    event: Event,
    what: str,
    *,
    after_game: int | None = None,
    game: int | None = None,
    director: bool = False,
) -> Export:
    """One of the exports of ``WHATS`` for ``event``. The public (``director=False``) sees
    released games only and no standings the TD has not published."""
    if what == "standings":
        if not director and not standings_public(event):
            raise ExportUnavailable(_("The standings of this event are not published."))
        return standings_export(event, after_game)
    if what == "results":
        return results_export(event, released_only=not director)
    if what == "seating":
        return seating_export(event, game, released_only=not director)
    if what == "bracket":
        return bracket_export(event)
    raise ExportUnavailable(_("Unknown export."))


# --- Seasons ---------------------------------------------------------------------------------


def acc_report(season: Season) -> Export:
    """The season's ledger in the shape a club sends its ACC regional director: one line per
    player, the members best first and then the guests, with ACC number, member or guest,
    nights, games, Grass Roots and master points, 28 and 29 hands and skunks."""
    ledgers = list(season.ledgers.select_related("player").order_by("rank", "player__name"))
    members, guests = split_members(season, ledgers)
    columns = [
        ("rank", pgettext("standings column", "Rank")),
        ("name", _("Name")),
        ("acc_number", _("ACC number")),
        ("status", _("Member or guest")),
        ("nights", _("Nights")),
        ("qualifying_nights", _("Nights at 12+")),
        ("games_played", _("Games played")),
        ("games_won", _("Games won")),
        ("win_percentage", _("Win %")),
        ("game_points", _("Game points")),
        ("spread", _("Spread")),
        ("grass_roots_points", _("Grass Roots points")),
        ("master_points", _("Master points")),
        ("hands_28", _("28 hands")),
        ("hands_29", _("29 hands")),
        ("skunks_won", _("Skunks for")),
        ("skunks_suffered", _("Skunks against")),
        ("grand_slams", _("Grand slams")),
    ]
    keys = [key for key, _label in columns]
    rows = []
    # The members first, then the guests apart (issue 27: the report says who was a guest).
    for status, lines in ((_("member"), members), (_("guest"), guests)):
        for line in lines:
            values = {
                "name": line.player.name,
                "acc_number": line.player.acc_number,
                "status": status,
            }
            rows.append([values[k] if k in values else getattr(line, k) for k in keys])
    meta = {
        "export": "acc_report",
        "club": season.club.name,
        "season": {"id": season.pk, "name": season.name, "start": season.start, "end": season.end},
        "computed_at": season.computed_at,
    }
    return Export(f"{season.club.name} {season.name} ACC report", columns, rows, meta)
