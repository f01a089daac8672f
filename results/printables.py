"""Printables of an event: score cards and table cards with QR codes of the private links,
and the seating list, as one PDF (WeasyPrint). Built in Celery; progress in a PrintJob."""

from __future__ import annotations

import segno
from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from tournaments import selectors as tournament_selectors
from tournaments.kinds import ResultShape
from tournaments.models import Round, StoppaSeat, Table
from tournaments.templatetags.pegboard import chips

from . import services
from .models import PrintJob

CARDS_PER_CHUNK = 8  # pages are rendered in chunks so the job can report progress


def qr_svg(url: str) -> str:
    """An inline SVG QR code of ``url`` (no network, no image files)."""
    return segno.make(url, error="m").svg_inline(scale=3, border=2)


def _link(base_url: str, key: str) -> str:
    return base_url.rstrip("/") + reverse("player-page", args=[key])


def score_cards(event, base_url: str) -> list[dict]:
    """One card per entry: name, ACC number, a row per round in the shape of the kind's
    results (:data:`CARD_ROWS`), and the QR of the private link."""
    entries = tournament_selectors.by_name(event.entries.select_related("player"))
    rows_of = CARD_ROWS[event.game_kind.result_shape](event, entries)
    keys = services.keys_for(entries)
    cards = []
    for entry in entries:
        link = _link(base_url, keys[entry.pk])
        cards.append({"entry": entry, "link": link, "qr": qr_svg(link), "rows": rows_of(entry)})
    return cards


def _game_rows(event, entries):
    """Two-player games: per game the opponent, table, game points, plus or minus."""
    tables = list(
        Table.objects.filter(round__event=event, round__status=Round.Status.RELEASED)
        .select_related(
            "round",
            "seat_a__player",
            "seat_a__partner",
            "seat_b__player",
            "seat_b__partner",
            "result",
        )
        .order_by("round__number")
    )
    games = max(event.games_planned, max((t.round.number for t in tables), default=0))
    by_entry: dict[int, dict[int, Table]] = {}
    for table in tables:
        for seat in (table.seat_a_id, table.seat_b_id):
            if seat is not None:
                by_entry.setdefault(seat, {})[table.round.number] = table

    def rows_of(entry) -> list[dict]:
        rows = []
        for number in range(1, games + 1):
            game_table = by_entry.get(entry.pk, {}).get(number)
            row = {
                "game": number,
                "opponent": "",
                "table": "",
                "points": "",
                "plus": "",
                "minus": "",
            }
            if game_table is not None:
                other = game_table.seat_b if game_table.seat_a_id == entry.pk else game_table.seat_a
                row["opponent"] = other.name if other else "bye"
                row["table"] = game_table.number or "-"
                result = getattr(game_table, "result", None)
                if result is not None:
                    won = result.winner_id == entry.pk
                    row["points"] = result.winner_points if won else result.loser_points
                    row["plus" if won else "minus"] = str(result.margin)  # as written: 6, not 06
            rows.append(row)
        return rows

    return rows_of


def _session_rows(event, entries):
    """Tables of several with nets (Stoppa): per session the table, the seat, the net and
    the running chips; blank where the session is still to come or its nets are not in."""
    seats = StoppaSeat.objects.filter(
        round__event=event, round__status=Round.Status.RELEASED
    ).values_list("entry_id", "round__number", "table__number", "position", "net")
    by_entry: dict[int, dict[int, tuple]] = {}
    for entry_id, number, table, position, net in seats:
        by_entry.setdefault(entry_id, {})[number] = (table, position, net)
    sessions = max([event.games_planned, *(n for s in by_entry.values() for n in s)])

    def rows_of(entry) -> list[dict]:
        rows, running = [], 0
        for number in range(1, sessions + 1):
            row = {"session": number, "table": "", "seat": "", "net": "", "chips": ""}
            found = by_entry.get(entry.pk, {}).get(number)
            if found is not None:
                table, position, net = found
                row["table"] = table or "-"
                row["seat"] = position if table else ""
                if net is not None:
                    running += net
                    row["net"] = chips(net)
                    row["chips"] = chips(running)
            rows.append(row)
        return rows

    return rows_of


def _score_rows(event, entries):
    """Tables of several with final scores (three-handed): per game the table, the seat and
    the score; blank where the game is still to come or its scores are not in."""
    seats = StoppaSeat.objects.filter(
        round__event=event, round__status=Round.Status.RELEASED
    ).values_list("entry_id", "round__number", "table__number", "position", "net")
    by_entry: dict[int, dict[int, tuple]] = {}
    for entry_id, number, table, position, score in seats:
        by_entry.setdefault(entry_id, {})[number] = (table, position, score)
    games = max([event.games_planned, *(n for s in by_entry.values() for n in s)])

    def rows_of(entry) -> list[dict]:
        rows = []
        for number in range(1, games + 1):
            table, position, score = by_entry.get(entry.pk, {}).get(number, ("", "", None))
            rows.append(
                {
                    "game": number,
                    "table": table or "",
                    "seat": position,
                    "score": "" if score is None else score,
                }
            )
        return rows

    return rows_of


# How a score card's rows are built, and the page that prints them, per result shape.
CARD_ROWS = {
    ResultShape.WINNER_SCORE: _game_rows,
    ResultShape.TABLE_NETS: _session_rows,
    ResultShape.TABLE_SCORES: _score_rows,
}
CARD_PAGES = {
    ResultShape.WINNER_SCORE: "results/print_score_cards.html",
    ResultShape.TABLE_NETS: "results/print_session_cards.html",
    ResultShape.TABLE_SCORES: "results/print_three_cards.html",
}


def table_cards(event, base_url: str) -> list[dict]:
    """One card per table of the latest released round (its players in seat order), in the
    shape of the kind's results (:data:`TABLE_CARDS`)."""
    latest = event.rounds.filter(status=Round.Status.RELEASED).order_by("-number").first()
    if latest is None:
        return []
    return TABLE_CARDS[event.game_kind.result_shape](event, latest, base_url)


def _two_seat_cards(event, latest: Round, base_url: str) -> list[dict]:
    """With both players' QR codes only where the event checks agreeing reports at the desk
    (otherwise one person holding the card could report for both players)."""
    tables = list(
        latest.tables.filter(seat_b__isnull=False).select_related(
            "seat_a__player", "seat_a__partner", "seat_b__player", "seat_b__partner"
        )
    )
    with_keys = event.confirmation == event.Confirmation.DESK_CHECK
    keys = services.keys_for([e for t in tables for e in (t.seat_a, t.seat_b)]) if with_keys else {}
    cards = []
    for table in tables:
        seats = []
        for entry in (table.seat_a, table.seat_b):
            if entry is None:  # never: a bye has no table card (seat_b filtered above)
                continue
            qr = qr_svg(_link(base_url, keys[entry.pk])) if with_keys else ""
            seats.append({"entry": entry, "qr": qr})
        cards.append({"table": table, "game": latest.number, "seats": seats})
    return cards


def _session_table_cards(event, latest: Round, base_url: str) -> list[dict]:
    """No QR codes: every player confirms the table's nets with their own card's link, so
    one card holding everyone's link would let one person confirm for the table."""
    tables = latest.stoppa_tables.filter(number__isnull=False).prefetch_related(
        "seats__entry__player"
    )
    return [
        {
            "table": table,
            "game": latest.number,
            "seats": [{"entry": seat.entry, "qr": ""} for seat in table.seats.all()],
        }
        for table in tables
    ]


TABLE_CARDS = {
    ResultShape.WINNER_SCORE: _two_seat_cards,
    ResultShape.TABLE_NETS: _session_table_cards,
    ResultShape.TABLE_SCORES: _session_table_cards,
}


def build(job_id: int) -> PrintJob:
    """Render the event's printables into the job's PDF, reporting progress as it goes, in
    the job's language (the event's, else the asking TD's)."""
    job = PrintJob.objects.select_related("event__club").get(pk=job_id)
    with translation.override(job.language or job.event.language or settings.LANGUAGE_CODE):
        return _build(job)


def _build(job: PrintJob) -> PrintJob:
    import weasyprint

    event = job.event
    try:
        cards = score_cards(event, job.base_url)
        tables = table_cards(event, job.base_url)
        chunks = [cards[i : i + CARDS_PER_CHUNK] for i in range(0, len(cards), CARDS_PER_CHUNK)]
        PrintJob.objects.filter(pk=job.pk).update(
            status=PrintJob.Status.RUNNING, total=len(cards) + len(tables), done=0
        )
        documents = []
        done = 0
        for chunk in chunks:
            html = render_to_string(
                CARD_PAGES[event.game_kind.result_shape], {"event": event, "cards": chunk}
            )
            documents.append(weasyprint.HTML(string=html, base_url=job.base_url).render())
            done += len(chunk)
            PrintJob.objects.filter(pk=job.pk).update(done=done)
        html = render_to_string(
            "results/print_tables.html",
            {
                "event": event,
                "tables": tables,
                "rounds": _rounds(event),
                "seat_lines": _seat_lines(event),
            },
        )
        documents.append(weasyprint.HTML(string=html, base_url=job.base_url).render())
        pages = [page for document in documents for page in document.pages]
        pdf = documents[0].copy(pages).write_pdf()
        with transaction.atomic():
            PrintJob.objects.filter(pk=job.pk).update(
                status=PrintJob.Status.DONE,
                done=len(cards) + len(tables),
                pdf=pdf,
                finished_at=timezone.now(),
            )
    except Exception as exc:  # the TD sees the failure on the page instead of a spinner
        PrintJob.objects.filter(pk=job.pk).update(
            status=PrintJob.Status.FAILED, error=str(exc)[:300], finished_at=timezone.now()
        )
        raise
    job.refresh_from_db()
    return job


def _rounds(event):
    """The two-seat seating list of the latest round (a kind with tables of several lists
    its players alphabetically instead: :func:`_seat_lines`)."""
    latest = event.rounds.filter(status=Round.Status.RELEASED).order_by("-number").first()
    if latest is None or event.game_kind.result_shape != ResultShape.WINNER_SCORE:
        return []
    return [
        (
            latest,
            list(
                latest.tables.select_related(
                    "seat_a__player", "seat_a__partner", "seat_b__player", "seat_b__partner"
                )
            ),
        )
    ]


def _seat_lines(event):
    """Tables of several: every player of the latest round and their table, by name."""
    latest = event.rounds.filter(status=Round.Status.RELEASED).order_by("-number").first()
    if latest is None or event.game_kind.result_shape == ResultShape.WINNER_SCORE:
        return None
    return latest.number, event.game_kind.seat_lines(event, latest.number)
