"""Paper cards (CSV), reconciled by ACC Rule 12.2 and written in bulk; a large file runs in
Celery as an :class:`ImportJob` with its progress."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import ServiceError
from scoring import crosscheck
from tournaments import names
from tournaments import services as tournament_services
from tournaments.models import Event, Table
from tournaments.services.results import (
    CheckedResult,
    audit_values,
    check_result,
    describe_result,
    write_results,
)

from ..error_codes import ResultsError
from ..lifecycle import UNSETTLED
from ..models import ImportJob, Submission


@dataclass
class ImportReport:
    """What a paper-card import did, game by game."""

    recorded: list[dict] = field(default_factory=list)
    flagged: list[dict] = field(default_factory=list)
    summary: dict[str, int] = field(default_factory=dict)


def _spread_columns(text: str | None) -> tuple[int | None, int | None]:
    """A written spread as (plus, minus) columns: "+12" or "12" is plus, "-12" minus."""
    text = (text or "").strip()
    if not text:
        return None, None
    if text.startswith("-"):
        return None, int(text[1:])
    return int(text.lstrip("+")), None


MAX_IMPORT_LINES = 50_000


MAX_IMPORT_FIELD = 200  # characters in one CSV cell (names, numbers, W/L, spreads)


class BadLines(ServiceError):
    """A paper-card file with lines that are not right: every one of them, with its line
    number and reason (``lines``), and nothing imported."""

    SHOWN = 50  # the lines named in the message; the rest are counted

    def __init__(self, lines: list[tuple[int, str]]) -> None:
        self.lines = lines
        head = ngettext(
            "%(n)s line is not right; nothing was imported. Correct it and import again:",
            "%(n)s lines are not right; nothing was imported. Correct them and import again:",
            len(lines),
        ) % {"n": len(lines)}
        said = [
            _("Line %(n)s: %(reason)s") % {"n": number, "reason": reason}
            for number, reason in lines[: self.SHOWN]
        ]
        if len(lines) > self.SHOWN:
            said.append(_("and %(n)s more.") % {"n": len(lines) - self.SHOWN})
        super().__init__(ResultsError.BAD_CSV, "\n".join([head, *said]), field="file")


@dataclass(frozen=True, slots=True)
class _Player:
    """A paper line's player: the entry, named by its player in Rule 12.2's explanations
    ("Ann won by 12", not "76 won by 12")."""

    entry_id: int
    name: str = field(compare=False)

    def __str__(self) -> str:
        return self.name


class _Field:
    """The event's players as a card names them: ACC number, or name with accents, case
    and spacing aside, also written surname first ("Lindqvist, Zoë")."""

    def __init__(self, event: Event) -> None:
        self.by_acc: dict[str, _Player] = {}
        self.by_name: dict[str, list[_Player]] = {}
        for entry_pk, name, acc in event.entries.values_list(
            "pk", "player__name", "player__acc_number"
        ):
            player = _Player(entry_pk, name)
            if acc:
                self.by_acc[acc] = player
            self.by_name.setdefault(names.fold(name), []).append(player)

    def find(self, who: str) -> _Player | str:
        """The player ``who`` names, or why there is none (for the line's report)."""
        if who in self.by_acc:
            return self.by_acc[who]
        found = self.by_name.get(names.fold(who), [])
        swapped = names.surname_first(who)
        if not found and swapped is not None:
            found = self.by_name.get(names.fold(swapped), [])
        if len(found) > 1:
            return _("two players of this event are called %(who)s: give the ACC number.") % {
                "who": who
            }
        if not found:
            return _("no player %(who)s in this event.") % {"who": who}
        return found[0]


def _read_paper_lines(
    event: Event, text: str, progress: Callable[[int], None] | None = None
) -> dict[tuple[int, int], list]:
    """The CSV's lines by (game, table), each a checked Rule 12.2 written line.

    Reads the whole file and raises :class:`BadLines` naming every line that is not right
    (a missing column or an empty file at once); nothing is written. ``progress`` is told
    the number of lines read every 500 lines.
    """
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    needed = {"game", "table", "player", "result", "spread"}
    if reader.fieldnames is None or not needed.issubset(reader.fieldnames):
        raise ServiceError(
            ResultsError.BAD_CSV,
            _("The CSV needs the columns: game, table, player, result, spread."),
            field="file",
        )
    players = _Field(event)
    lines: dict[tuple[int, int], list] = {}
    bad: list[tuple[int, str]] = []
    number = 1
    try:
        for number, row in enumerate(reader, start=2):
            if number > MAX_IMPORT_LINES:
                raise ServiceError(
                    ResultsError.BAD_CSV,
                    _("The CSV has more than %(n)s lines.") % {"n": MAX_IMPORT_LINES},
                    field="file",
                )
            line = _read_line(row, players)
            if isinstance(line, str):
                bad.append((number, line))
                continue
            lines.setdefault(line[0], []).append(line[1])
            if progress is not None and number % 500 == 0:
                progress(number - 1)
    except csv.Error as exc:  # a field over csv's limit, a NUL byte, a broken quote
        # csv cannot read on past a broken line: the lines before it are reported too.
        bad.append((number + 1, str(exc)))
    if bad:
        raise BadLines(bad)
    if not lines:
        raise ServiceError(ResultsError.BAD_CSV, _("The CSV has no lines to import."), field="file")
    return lines


def _read_line(row: dict, players: _Field) -> tuple[tuple[int, int], object] | str:
    """One CSV row as ((game, table), its Rule 12.2 written line), or why it is not right."""
    cells = [row.get(key) or "" for key in ("game", "table", "player", "result", "spread")]
    if any(len(cell) > MAX_IMPORT_FIELD for cell in cells):
        return _("a cell is far too long.")
    try:
        game, table_no = int(row["game"]), int(row["table"])
    except (TypeError, ValueError):
        return _("game and table must be numbers.")
    player = players.find(names.clean(row["player"] or ""))
    if isinstance(player, str):
        return player
    claim = (row["result"] or "").strip().upper()[:1]
    if claim not in ("W", "L"):
        return _("the result must be W or L.")
    try:
        plus, minus = _spread_columns(row["spread"])
    except ValueError:
        return _("the spread must be a number, such as +12 or -12.")
    try:
        line = crosscheck.WrittenLine.from_columns(
            player,
            crosscheck.Result.WIN if claim == "W" else crosscheck.Result.LOSS,
            plus=plus,
            minus=minus,
        )
    except crosscheck.CrosscheckError as exc:
        return str(exc)
    return (game, table_no), line


def import_paper_cards(
    event: Event, text: str, *, user, progress: Callable[[int], None] | None = None
) -> ImportReport:
    """Import both players' lines of each game (CSV) and reconcile them by Rule 12.2.

    Columns: game, table, player (ACC number or name), result (W/L), spread (e.g. +12, -12,
    or empty). Games the rule settles are recorded; the rest are flagged for the TD.
    Nothing is written if a line is malformed. A few queries whatever the size of the file:
    the tables are read at once and the results written in bulk through the one result
    service (checked by ``check_result``, audited, announced once).
    """
    lines = _read_paper_lines(event, text, progress)  # reads only: outside the transaction
    with transaction.atomic():
        return _import_lines(event, lines, user=user)


def _import_lines(event: Event, lines: dict, *, user) -> ImportReport:
    from scoring.selectors import standings_for_event

    event = tournament_services.locked_event(event)
    tables = {
        (t.round.number, t.number): t
        for t in Table.objects.filter(round__event=event, number__isnull=False).select_related(
            "round", "seat_a__player", "seat_a__partner", "seat_b__player", "seat_b__partner"
        )
    }
    ranking = [_Player(row.entry_id, "") for row in standings_for_event(event.pk)]
    qualifiers = crosscheck.apparent_qualifiers(ranking) if ranking else frozenset()
    report = ImportReport()
    items: list[tuple[Table, CheckedResult, str]] = []
    for (game, table_no), pair in sorted(lines.items()):
        table = tables.get((game, table_no))
        where = {"game": game, "table": table_no}
        if table is None or len(pair) != 2:
            report.flagged.append(
                where | {"reason": _("needs both lines of a table of this event")}
            )
            continue
        outcome = crosscheck.reconcile(pair[0], pair[1], apparent_qualifiers=qualifiers)
        clause = outcome.clause.value if hasattr(outcome.clause, "value") else str(outcome.clause)
        report.summary[clause] = report.summary.get(clause, 0) + 1
        winners = [line for line in (outcome.a, outcome.b) if line.result == crosscheck.Result.WIN]
        if outcome.flagged or len(winners) != 1 or winners[0].spread is None:
            report.flagged.append(
                where | {"clause": clause, "reason": outcome.flag_reason or outcome.explanation}
            )
            continue
        try:
            checked = check_result(
                event,
                table,
                winner_id=cast(_Player, winners[0].player).entry_id,
                loser_score=max(0, event.target - abs(winners[0].spread)),
                forfeit=False,
            )
        except ServiceError as exc:
            report.flagged.append(where | {"clause": clause, "reason": exc.message})
            continue
        items.append((table, checked, f"Rule 12.2 {clause}: {outcome.explanation}"))
        said = describe_result(audit_values(checked, table))  # "Ann won, Bob 95"
        report.recorded.append(
            where | {"clause": clause, "explanation": outcome.explanation, "result": said}
        )
    _confirm_paper(event, items, user=user)
    return report


def _confirm_paper(event: Event, items: list, *, user) -> None:
    """Store the paper versions as the confirmed ones and write the results, in bulk."""
    if not items:
        return
    table_ids = [table.pk for table, _checked, _reason in items]
    Submission.objects.filter(table_id__in=table_ids, status=Submission.Status.CONFIRMED).update(
        status=Submission.Status.SUPERSEDED
    )
    Submission.objects.filter(table_id__in=table_ids, status__in=UNSETTLED).update(
        status=Submission.Status.AGREED
    )
    Submission.objects.bulk_create(
        [
            Submission(
                table=table,
                event=event,
                source=Submission.Source.PAPER,
                by_user=tournament_services.acting_user(user),
                winner_id=checked.winner_id,
                loser_score=checked.loser_score,
                forfeit=False,
                status=Submission.Status.CONFIRMED,
            )
            for table, checked, _reason in items
        ],
        batch_size=1000,
    )
    write_results(event, items, user=user, action="paper_import")


IMPORT_INLINE_LINES = 400  # beyond this a file is imported by Celery, with its progress


@dataclass(frozen=True, slots=True)
class ImportRequest:
    """What asking for an import gave: the report at once, or a job to follow."""

    report: ImportReport | None = None
    job: ImportJob | None = None


def request_import(event: Event, text: str, *, user) -> ImportRequest:
    """Import paper cards now (a small file) or queue an :class:`ImportJob` (a large one)."""
    lines = max(0, len(text.splitlines()) - 1)  # the header is not a line to import
    if lines <= IMPORT_INLINE_LINES:
        return ImportRequest(report=import_paper_cards(event, text, user=user))
    with transaction.atomic():
        job = ImportJob.objects.create(
            event=event, user=tournament_services.acting_user(user), text=text, total=lines
        )
        transaction.on_commit(lambda: _queue_import(job.pk), robust=True)
    return ImportRequest(job=job)


def _queue_import(job_id: int) -> None:
    from ..tasks import run_import

    run_import.delay(job_id)


def run_import_job(job_id: int) -> ImportJob:
    """The Celery task's work: import the job's file, keeping its progress and report."""
    job = ImportJob.objects.select_related("event", "user").get(pk=job_id)
    if job.status == ImportJob.Status.DONE:
        return job  # a redelivered message: done already
    ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.Status.RUNNING, done=0)

    def progress(done: int) -> None:
        ImportJob.objects.filter(pk=job.pk).update(done=done)

    try:
        report = import_paper_cards(job.event, job.text, user=job.user, progress=progress)
    except BadLines as exc:
        job.status, job.error = ImportJob.Status.FAILED, exc.message.split("\n")[0][:300]
        job.report = {"bad_lines": [{"line": n, "reason": r} for n, r in exc.lines]}
    except ServiceError as exc:
        job.status, job.error = ImportJob.Status.FAILED, exc.message[:300]
    else:
        job.status, job.done = ImportJob.Status.DONE, job.total
        job.report = {
            "recorded": report.recorded,
            "flagged": report.flagged,
            "summary": report.summary,
        }
    job.finished_at = timezone.now()
    job.save(update_fields=["status", "error", "done", "report", "finished_at"])
    return job
