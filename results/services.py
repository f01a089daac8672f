"""Writes of results from the table: player submissions, confirmation, disputes, TD rulings,
corrections with a reason, paper-card imports. Each function is one transaction.

A table's submissions are serialized by a row lock on the table, so a double tap or two
players reporting at the same moment store exactly one outcome; that a game has at most one
confirmed version is a database constraint, not a convention.
"""

from __future__ import annotations

import csv
import io
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.cribbage import check_claim, verify_game
from pegboard.errors import ServiceError
from scoring import crosscheck
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, Entry, Event, GameResult, Table
from tournaments.pairing_bridge import entry_id
from tournaments.services.playoffs import correct_playoff_game, dependent_matches
from tournaments.services.results import (
    CheckedResult,
    audit_values,
    check_result,
    write_result,
    write_results,
)

from .models import Dispute, ImportJob, PlayerKey, PrintJob, Submission

__all__ = [
    "check_agreed",
    "confirm_opponent",
    "correct",
    "correct_playoff_game",
    "dependent_matches",
    "dispute",
    "entry_for_key",
    "import_paper_cards",
    "key_for",
    "keys_for",
    "request_import",
    "request_printables",
    "rule",
    "run_import_job",
    "submit",
]

log = logging.getLogger(__name__)

SUBMISSIONS_PER_MINUTE = 12  # per key: a flood from one phone cannot take the event down


def key_for(entry: Entry) -> PlayerKey:
    """The entry's private key, created on first use."""
    key, _created = PlayerKey.objects.get_or_create(entry=entry)
    return key


def keys_for(entries) -> dict[int, str]:
    """Every entry's private key in two queries (missing ones are created), for pages and
    printables that list a whole field."""
    ids = [e.pk for e in entries]
    missing = set(ids) - set(
        PlayerKey.objects.filter(entry_id__in=ids).values_list("entry_id", flat=True)
    )
    PlayerKey.objects.bulk_create([PlayerKey(entry_id=pk) for pk in missing], ignore_conflicts=True)
    return dict(PlayerKey.objects.filter(entry_id__in=ids).values_list("entry_id", "key"))


def entry_for_key(key: str) -> Entry:
    """The entry a private key belongs to; a clear error for an unknown key."""
    found = (
        PlayerKey.objects.select_related("entry__event__club", "entry__player")
        .filter(key=key)
        .first()
    )
    if found is None:
        raise ServiceError("unknown_key", _("This link is not valid. Ask the tournament director."))
    return found.entry


def throttle(key: str) -> None:
    """Refuse a key that submits more than SUBMISSIONS_PER_MINUTE times in a minute.

    The window opens with the key's first submission and closes 60 s later (a fixed window
    per key: cheap, and a burst cannot straddle two windows to double its allowance).
    """
    bucket = f"results:throttle:{key}"
    try:
        cache.add(bucket, 0, timeout=60)
        try:
            count = cache.incr(bucket)
        except ValueError:  # the window closed between add and incr
            cache.set(bucket, 1, timeout=60)
            count = 1
    except Exception as exc:
        # The cache (Redis) is down: fail open. The report is saved in PostgreSQL, which is
        # what matters at the table; the per-key limit is back with the cache.
        log.warning("results: throttle unavailable (%s); letting the report through", exc)
        return
    if count > SUBMISSIONS_PER_MINUTE:
        raise ServiceError(
            "throttled", _("Too many submissions from this link; wait a minute and try again.")
        )


def _actor(entry: Entry | None, user) -> str:
    if entry is not None:
        return str(entry.player)
    if user is not None and getattr(user, "is_authenticated", False):
        return user.get_username()
    return "?"


def _audit(event, table, *, action, entry=None, user=None, old=None, new=None, reason=""):
    AuditEntry.objects.create(
        event=event,
        table=table,
        user=user if getattr(user, "is_authenticated", False) else None,
        actor=_actor(entry, user),
        action=action,
        old=old,
        new=new,
        reason=reason,
    )


def _locked_table(event: Event, table_id: int) -> Table:
    """Lock the event's row, then the table's: the one lock order every writer of a result
    follows (``tournaments.services.record_result`` too), so two writers never deadlock."""
    tournament_services.locked_event(event)
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round", "seat_a__player", "seat_b__player")
        .filter(pk=table_id, round__event=event)
        .first()
    )
    if table is None:
        raise ServiceError("unknown_game", _("There is no such game in this event."), field="table")
    return table


def _check_record(record) -> dict | None:
    """Check what a player attached with the cribbage engine; the report is stored with it.

    Either a whole-game record (``{"players": ..., "deals": ...}``, checked by
    ``verify_game``) or single counts (``{"claims": [{"kind": "hand", "cards": "5H 5C 5S JD",
    "starter": "5D", "claimed": 29, "crib": false}, ...]}``, each checked by ``check_claim``).
    """
    if record in (None, "", {}):
        return None
    if not isinstance(record, dict):
        raise ServiceError(
            "bad_record", _("The game record must be a JSON object."), field="record"
        )
    if "claims" in record and "deals" not in record:
        claims = record["claims"]
        if not isinstance(claims, list) or not claims:
            raise ServiceError("bad_record", _("Claims must be a list of counts."), field="record")
        checks = []
        for i, claim in enumerate(claims, start=1):
            try:
                check = check_claim(
                    claim["kind"],
                    claim["cards"],
                    claim.get("starter"),
                    int(claim["claimed"]),
                    crib=bool(claim.get("crib", False)),
                    last=bool(claim.get("last", False)),
                )
            except (KeyError, TypeError, ValueError) as exc:
                raise ServiceError(
                    "bad_record",
                    _("Count %(n)s: %(error)s") % {"n": i, "error": exc},
                    field="record",
                ) from None
            checks.append(check.to_dict())
        return {"claims": checks, "claims_correct": all(c["correct"] for c in checks)}
    report = verify_game(record).to_dict()
    bad_cards = [p for p in report["problems"] if p["code"] in {"bad_card", "malformed"}]
    if bad_cards:
        raise ServiceError("bad_record", bad_cards[0]["message"], field="record")
    return report


def _confirm(
    event: Event,
    table: Table,
    chosen: Submission,
    *,
    action: str,
    user=None,
    entry=None,
    reason: str = "",
    checked: CheckedResult | None = None,
) -> GameResult:
    """Make ``chosen`` the table's confirmed version and record the result through the one
    result service (which audits it as ``action``; changing a recorded result needs
    ``reason``)."""
    Submission.objects.filter(table=table, status=Submission.Status.CONFIRMED).update(
        status=Submission.Status.SUPERSEDED
    )
    Submission.objects.filter(table=table, status__in=["pending", "disputed", "to_check"]).exclude(
        pk=chosen.pk
    ).update(status=Submission.Status.AGREED)
    chosen.status = Submission.Status.CONFIRMED
    try:
        with transaction.atomic():
            chosen.save(update_fields=["status"])
    except IntegrityError:
        raise ServiceError("already_confirmed", _("This game was confirmed meanwhile.")) from None
    if checked is not None:  # checked in this transaction already, under the same locks
        return write_result(
            event, table, checked, user=user, action=action, actor=_actor(entry, user)
        )
    return tournament_services.record_result(
        event,
        table=table,
        winner=chosen.winner_id,
        loser_score=chosen.loser_score,
        forfeit=chosen.forfeit,
        user=user,
        action=action,
        actor=_actor(entry, user),
        reason=reason,
    )


@dataclass(frozen=True, slots=True)
class SubmitOutcome:
    """What a submission did: the stored version and the table's state after it."""

    submission: Submission
    state: str  # "pending", "to_check", "confirmed", "disputed", "duplicate"
    result: GameResult | None = None


@transaction.atomic
def submit(
    key: str,
    *,
    table: Table | int,
    winner: Entry | int,
    loser_score: int | None = None,
    forfeit: bool = False,
    record: dict | None = None,
) -> SubmitOutcome:
    """A player reports the result of their own game through their private key."""
    throttle(key)
    entry = entry_for_key(key)
    event = entry.event
    table_id = table.pk if isinstance(table, Table) else table
    winner_id = winner.pk if isinstance(winner, Entry) else winner
    table = _locked_table(event, table_id)
    seats = {table.seat_a_id, table.seat_b_id} - {None}
    if entry.pk not in seats:
        raise ServiceError("not_your_game", _("You did not play at this table."), field="table")
    if table.seat_b_id is None:
        raise ServiceError("bye_table", _("A bye has no result to report."), field="table")
    # The one check every result takes; the confirmation below writes what it checked.
    checked = check_result(
        event, table, winner_id=winner_id, loser_score=loser_score, forfeit=forfeit
    )
    report = _check_record(record)
    # A recorded result (confirmed by both players, or entered or ruled by the TD) is only
    # changed by the TD with a reason; a player can still flag a dispute.
    if GameResult.objects.filter(table=table).exists():
        raise ServiceError(
            "already_confirmed",
            _("This game is already confirmed; ask the tournament director to correct it."),
        )
    if Dispute.objects.filter(table=table, ruled_at__isnull=True).exists():
        raise ServiceError("in_dispute", _("This game is with the tournament director."))

    mine = Submission(
        table=table,
        event=event,
        source=Submission.Source.PLAYER,
        by_entry=entry,
        winner_id=winner_id,
        loser_score=None if forfeit else loser_score,
        forfeit=forfeit,
        record=record or None,
        report=report,
    )
    latest_mine = (
        Submission.objects.filter(table=table, by_entry=entry)
        .order_by("-created_at", "-pk")
        .first()
    )
    if latest_mine is not None and latest_mine.same_outcome(mine):
        # A double tap or a retry after a timeout: the stored version stands.
        return SubmitOutcome(latest_mine, "duplicate")
    if latest_mine is not None:
        latest_mine.status = Submission.Status.SUPERSEDED
        latest_mine.save(update_fields=["status"])
    mine.save()
    _audit(event, table, action="submitted", entry=entry, new=audit_values(mine, table))

    opponent_id = next(iter(seats - {entry.pk}))
    theirs = (
        Submission.objects.filter(
            table=table, by_entry_id=opponent_id, status__in=["pending", "to_check"]
        )
        .order_by("-created_at", "-pk")
        .first()
    )
    if theirs is None:
        return SubmitOutcome(mine, "pending")
    if theirs.same_outcome(mine) and event.confirmation == Event.Confirmation.DESK_CHECK:
        # Both keys may have come from one table card: the desk checks before it counts.
        Submission.objects.filter(pk__in=[mine.pk, theirs.pk]).update(
            status=Submission.Status.TO_CHECK
        )
        _audit(event, table, action="to_check", entry=entry, new=audit_values(mine, table))
        return SubmitOutcome(mine, "to_check")
    if theirs.same_outcome(mine):
        return SubmitOutcome(
            mine,
            "confirmed",
            _confirm(event, table, mine, action="confirmed", entry=entry, checked=checked),
        )
    _open_dispute(
        event, table, [mine, theirs], reason=_("The two players reported different results.")
    )
    return SubmitOutcome(mine, "disputed")


def _open_dispute(event, table, versions, *, reason: str) -> Dispute:
    for version in versions:
        version.status = Submission.Status.DISPUTED
        version.save(update_fields=["status"])
    dispute, created = Dispute.objects.get_or_create(
        table=table, defaults={"event": event, "reason": reason}
    )
    if not created and dispute.ruled_at is not None:
        dispute.ruled_at = None
        dispute.ruling = None
        dispute.reason = reason
        dispute.save(update_fields=["ruled_at", "ruling", "reason"])
    _audit(event, table, action="disputed", reason=reason)
    return dispute


@transaction.atomic
def confirm_opponent(key: str, *, table: Table | int) -> SubmitOutcome:
    """A player confirms the version the opponent submitted."""
    entry = entry_for_key(key)
    table_id = table.pk if isinstance(table, Table) else table
    locked = _locked_table(entry.event, table_id)
    theirs = (
        Submission.objects.filter(table=locked, status="pending")
        .exclude(by_entry=entry)
        .order_by("-created_at", "-pk")
        .first()
    )
    if theirs is None:
        raise ServiceError("nothing_to_confirm", _("Your opponent has not reported this game yet."))
    return submit(
        key,
        table=locked,
        winner=theirs.winner_id,
        loser_score=theirs.loser_score,
        forfeit=theirs.forfeit,
    )


@transaction.atomic
def check_agreed(event: Event, *, table: Table | int, user) -> GameResult:
    """The TD or a scorekeeper checks two agreeing reports (events that check at the desk)."""
    table_id = table.pk if isinstance(table, Table) else table
    locked = _locked_table(event, table_id)
    agreed = (
        Submission.objects.filter(table=locked, status=Submission.Status.TO_CHECK)
        .order_by("-created_at", "-pk")
        .first()
    )
    if agreed is None:
        raise ServiceError("nothing_to_check", _("This game has no agreeing reports to check."))
    return _confirm(event, locked, agreed, action="checked", user=user)


@transaction.atomic
def dispute(key: str, *, table: Table | int, reason: str = "") -> Dispute:
    """A player disputes the opponent's version: the game goes to the TD."""
    entry = entry_for_key(key)
    table_id = table.pk if isinstance(table, Table) else table
    locked = _locked_table(entry.event, table_id)
    if entry.pk not in {locked.seat_a_id, locked.seat_b_id}:
        raise ServiceError("not_your_game", _("You did not play at this table."), field="table")
    if Submission.objects.filter(table=locked, status="confirmed").exists():
        raise ServiceError(
            "already_confirmed",
            _("This game is already confirmed; ask the tournament director to correct it."),
        )
    versions = list(Submission.objects.filter(table=locked, status="pending"))
    reason = reason.strip()[:300] or _("%(name)s disputes the reported result.") % {
        "name": entry.player.name
    }
    return _open_dispute(entry.event, locked, versions, reason=reason)


def _td_submission(event, table, *, winner, loser_score, forfeit, user, source) -> Submission:
    seats = {table.seat_a_id, table.seat_b_id}
    winner_id = winner.pk if isinstance(winner, Entry) else winner
    if winner_id not in seats:
        raise ServiceError(
            "winner_not_at_table", _("The winner must be one of the two players."), field="winner"
        )
    return Submission.objects.create(
        table=table,
        event=event,
        source=source,
        by_user=user,
        winner_id=winner_id,
        loser_score=None if forfeit else loser_score,
        forfeit=forfeit,
    )


@transaction.atomic
def rule(
    event: Event,
    *,
    table: Table | int,
    user,
    submission: Submission | int | None = None,
    winner: Entry | int | None = None,
    loser_score: int | None = None,
    forfeit: bool = False,
    note: str = "",
) -> GameResult:
    """The TD's final ruling on a table: one of the versions, or a result of their own."""
    table_id = table.pk if isinstance(table, Table) else table
    table = _locked_table(event, table_id)
    # A ruling settles a dispute; changing a result nobody disputes is a correction (TD only,
    # with a reason), so a scorekeeper at the desk cannot overturn a confirmed game.
    if not Dispute.objects.filter(table=table, ruled_at__isnull=True).exists():
        raise ServiceError(
            "not_disputed",
            _("This game is not in dispute: a TD corrects a recorded result, with a reason."),
        )
    if submission is not None:
        sub_id = submission.pk if isinstance(submission, Submission) else submission
        chosen = Submission.objects.filter(pk=sub_id, table=table).first()
        if chosen is None:
            raise ServiceError("unknown_submission", _("That version is not one of this table's."))
    else:
        if winner is None:
            raise ServiceError("winner_required", _("Choose the winner."), field="winner")
        chosen = _td_submission(
            event,
            table,
            winner=winner,
            loser_score=loser_score,
            forfeit=forfeit,
            user=user,
            source=Submission.Source.TD,
        )
    result = _confirm(event, table, chosen, action="ruled", user=user, reason=note)
    Dispute.objects.filter(table=table).update(
        ruling=chosen, ruled_by=user, ruled_at=timezone.now(), note=note[:300]
    )
    return result


@transaction.atomic
def correct(
    event: Event,
    *,
    table: Table | int,
    user,
    winner: Entry | int,
    loser_score: int | None = None,
    forfeit: bool = False,
    reason: str,
) -> GameResult:
    """A TD's correction of a confirmed result, with its reason (old and new are logged)."""
    if not reason or not reason.strip():
        raise ServiceError("reason_required", _("A correction needs a reason."), field="reason")
    table_id = table.pk if isinstance(table, Table) else table
    table = _locked_table(event, table_id)
    if not GameResult.objects.filter(table=table).exists():
        raise ServiceError("nothing_to_correct", _("This game has no result yet."))
    chosen = _td_submission(
        event,
        table,
        winner=winner,
        loser_score=loser_score,
        forfeit=forfeit,
        user=user,
        source=Submission.Source.TD,
    )
    return _confirm(event, table, chosen, action="corrected", user=user, reason=reason)


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


def _read_paper_lines(
    event: Event, text: str, progress: Callable[[int], None] | None = None
) -> dict[tuple[int, int], list]:
    """The CSV's lines by (game, table), each a checked Rule 12.2 written line.

    Raises ``bad_csv`` naming the first line that is not right; nothing is written.
    ``progress`` is told the number of lines read every 500 lines.
    """
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    needed = {"game", "table", "player", "result", "spread"}
    if reader.fieldnames is None or not needed.issubset(reader.fieldnames):
        raise ServiceError(
            "bad_csv",
            _("The CSV needs the columns: game, table, player, result, spread."),
            field="file",
        )
    field = list(event.entries.select_related("player"))
    entries = {e.player.acc_number: e for e in field if e.player.acc_number}
    entries.update({e.player.name.casefold(): e for e in field})
    lines: dict[tuple[int, int], list] = {}
    number = 1
    try:
        for number, row in enumerate(reader, start=2):
            if number > MAX_IMPORT_LINES:
                raise ServiceError(
                    "bad_csv",
                    _("The CSV has more than %(n)s lines.") % {"n": MAX_IMPORT_LINES},
                    field="file",
                )
            cells = [row.get(key) or "" for key in needed]
            if any(len(cell) > MAX_IMPORT_FIELD for cell in cells):
                raise ServiceError(
                    "bad_csv", _("Line %(n)s: a cell is far too long.") % {"n": number}
                )
            try:
                game, table_no = int(row["game"]), int(row["table"])
            except (TypeError, ValueError):
                raise ServiceError(
                    "bad_csv", _("Line %(n)s: game and table must be numbers.") % {"n": number}
                ) from None
            who = (row["player"] or "").strip()
            entry = entries.get(who) or entries.get(who.casefold())
            if entry is None:
                raise ServiceError(
                    "bad_csv",
                    _("Line %(n)s: no player %(who)s in this event.") % {"n": number, "who": who},
                )
            claim = (row["result"] or "").strip().upper()[:1]
            try:
                plus, minus = _spread_columns(row["spread"])
                line = crosscheck.WrittenLine.from_columns(
                    entry.pk,
                    crosscheck.Result.WIN if claim == "W" else crosscheck.Result.LOSS,
                    plus=plus,
                    minus=minus,
                )
            except (ValueError, crosscheck.CrosscheckError) as exc:
                raise ServiceError(
                    "bad_csv", _("Line %(n)s: %(error)s") % {"n": number, "error": exc}
                ) from None
            lines.setdefault((game, table_no), []).append(line)
            if progress is not None and number % 500 == 0:
                progress(number - 1)
    except csv.Error as exc:  # a field over csv's limit, a NUL byte, a broken quote
        raise ServiceError(
            "bad_csv", _("Line %(n)s: %(error)s") % {"n": number + 1, "error": exc}
        ) from None
    if not lines:
        raise ServiceError("bad_csv", _("The CSV has no lines to import."), field="file")
    return lines


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
            "round", "seat_a__player", "seat_b__player"
        )
    }
    ranking = [row.entry_id for row in standings_for_event(event.pk)]
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
                winner_id=entry_id(winners[0].player),
                loser_score=max(0, event.target - abs(winners[0].spread)),
                forfeit=False,
            )
        except ServiceError as exc:
            report.flagged.append(where | {"clause": clause, "reason": exc.message})
            continue
        items.append((table, checked, f"Rule 12.2 {clause}: {outcome.explanation}"))
        report.recorded.append(where | {"clause": clause, "explanation": outcome.explanation})
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
    Submission.objects.filter(
        table_id__in=table_ids, status__in=["pending", "disputed", "to_check"]
    ).update(status=Submission.Status.AGREED)
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
    from .tasks import run_import

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


@transaction.atomic
def request_printables(event: Event, *, base_url: str) -> PrintJob:
    """A print job for the event's PDF set, built by Celery once this transaction commits."""
    from .tasks import build_printables

    job = PrintJob.objects.create(event=event, base_url=base_url)
    transaction.on_commit(lambda: build_printables.delay(job.pk), robust=True)
    return job
