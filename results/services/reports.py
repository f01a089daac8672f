"""A player's reports from the table: submit, confirm the opponent's version, dispute.

A table's submissions are serialized by a row lock (event, then table), so a double tap or two
players reporting at the same moment store exactly one outcome; that a game has at most one
confirmed version is a database constraint, not a convention.

A report crosses to tournaments once: ``_settle`` (``tournaments.services.results.
settle_table``) locks the event and the table, checks the reported version, lets
:func:`_store` keep it under those locks and, when the two players agree, writes and audits
the result in the same call. A confirmation and a dispute cross the same way, once each.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.db import transaction
from django.utils.translation import gettext as _

from core.engine_messages.cribbage import describe_error, problem_text
from core.errors import ServiceError
from games.cribbage import CribbageError, check_claim, verify_game
from tournaments.models import Entry, Event, GameResult, Table
from tournaments.services.results import Agreed, HeldTable, Version

from ..error_codes import ResultsError
from ..lifecycle import OPEN, ReportState, check_move
from ..models import Dispute, Submission
from ._common import _audit, _confirm, _settle
from .keys import entry_for_key, throttle
from .review import is_game_record, queue_review


class RecordError(ServiceError):
    """A record the engine refuses; ``problems`` are the engine's own (``code``, ``deal``,
    ``phase``, ``event``, ...), so a form can show each beside the deal and card it concerns."""

    def __init__(self, message: str, problems: list[dict]) -> None:
        super().__init__(ResultsError.BAD_RECORD, message, field="record")
        self.problems = problems


def _check_record(record, *, strict: bool = False) -> dict | None:
    """Check what a player attached with the cribbage engine; the report is stored with it.

    A record that cannot be read (a bad card, a wrong shape) is refused. ``strict`` (the
    record entered deal by deal on the player's page) refuses every error the engine finds
    (a card twice, a hand of 3, a card played out of turn...): the player is there to fix it.

    Either a whole-game record (``{"players": ..., "deals": ...}``, checked by
    ``verify_game``) or single counts (``{"claims": [{"kind": "hand", "cards": "5H 5C 5S JD",
    "starter": "5D", "claimed": 29, "crib": false}, ...]}``, each checked by ``check_claim``).
    """
    if record in (None, "", {}):
        return None
    if not isinstance(record, dict):
        raise ServiceError(
            ResultsError.BAD_RECORD, _("The game record must be a JSON object."), field="record"
        )
    if "claims" in record and "deals" not in record:
        claims = record["claims"]
        if not isinstance(claims, list) or not claims:
            raise ServiceError(
                ResultsError.BAD_RECORD, _("Claims must be a list of counts."), field="record"
            )
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
                # the engine's errors in the user's language; a missing key or a claim that is
                # no number is named by Python (the field or the value)
                error = describe_error(exc) if isinstance(exc, CribbageError) else exc
                raise ServiceError(
                    ResultsError.BAD_RECORD,
                    _("Count %(n)s: %(error)s") % {"n": i, "error": error},
                    field="record",
                ) from None
            checks.append(check.to_dict())
        return {"claims": checks, "claims_correct": all(c["correct"] for c in checks)}
    report = verify_game(record).to_dict()
    bad_cards = [p for p in report["problems"] if p["code"] in {"bad_card", "malformed"}]
    if bad_cards and not strict:
        raise RecordError(problem_text(bad_cards[0]), bad_cards)
    errors = [p for p in report["problems"] if p["severity"] == "error"]
    if errors and strict:
        raise RecordError(_("The record has mistakes: see the deals below."), errors)
    return report


@dataclass(frozen=True, slots=True)
class SubmitOutcome:
    """What a submission did: the stored version and the table's state after it."""

    submission: Submission
    state: ReportState
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
    entry: Entry | None = None,
    reason: str = "",
    strict_record: bool = False,
) -> SubmitOutcome:
    """A player reports the result of their own game through their private key (``entry``:
    the key's entry, when the caller has looked it up already).

    ``strict_record``: refuse a ``record`` with any error the engine finds (see
    ``_check_record``), not only an unreadable one; it raises ``RecordError``.

    ``reason`` is what the player says is wrong when this version disagrees with the
    opponent's: the TD reads it beside both versions at the desk.
    """
    throttle(key)
    if entry is None or entry.key.key != key:
        entry = entry_for_key(key)
    table_id = table.pk if isinstance(table, Table) else table
    winner_id = winner.pk if isinstance(winner, Entry) else winner
    mine = Version(winner_id=winner_id, loser_score=loser_score, forfeit=forfeit)
    return _report(
        entry,
        table_id,
        lambda table: _seated(entry, table, mine),
        record=record,
        reason=reason,
        strict_record=strict_record,
    )


def _seated(entry: Entry, table: Table, version: Version) -> Version:
    """``version``, reported by ``entry``: refused unless they played at ``table``."""
    if entry.pk not in {table.seat_a_id, table.seat_b_id} - {None}:
        raise ServiceError(
            ResultsError.NOT_YOUR_GAME, _("You did not play at this table."), field="table"
        )
    if table.seat_b_id is None:
        raise ServiceError(
            ResultsError.BYE_TABLE, _("A bye has no result to report."), field="table"
        )
    return version


def _report(
    entry: Entry,
    table_id: int,
    reported,
    *,
    record: dict | None = None,
    reason: str = "",
    strict_record: bool = False,
) -> SubmitOutcome:
    """Store ``entry``'s report at a table (``reported(table)``, under the locks, names
    it), crossing to tournaments once (:func:`_settle`): the table is locked and the version
    checked there before :func:`_store` keeps it; two agreeing versions come back as the
    result to record, which tournaments writes and audits in the same call."""
    stored: list[SubmitOutcome] = []

    def settle(held: HeldTable) -> Agreed | None:
        outcome, agreed = _store(held, entry, record, reason, strict_record)
        stored.append(outcome)
        return agreed

    result = _settle(entry.event, table_id, settle, report=reported, player=True)
    return stored[0] if result is None else replace(stored[0], result=result)


def _store(
    held: HeldTable, entry: Entry, record, reason: str, strict_record: bool
) -> tuple[SubmitOutcome, Agreed | None]:
    """Keep a checked version (``held``) and say where the table stands, with the version
    to record when the two players agree."""
    event, table, checked = held.event, held.table, held.checked
    assert checked is not None and held.values is not None  # _report names the version
    report = _check_record(record, strict=strict_record)
    mine = Submission(
        table=table,
        event=event,
        source=Submission.Source.PLAYER,
        by_entry=entry,
        winner_id=checked.winner_id,
        loser_score=checked.loser_score,
        forfeit=checked.kind == GameResult.Kind.FORFEIT,
        record=record or None,
        report=report,
    )
    latest_mine = (
        Submission.objects.filter(table=table, by_entry=entry)
        .order_by("-created_at", "-pk")
        .first()
    )
    recorded = GameResult.objects.filter(table=table).first()
    if (
        latest_mine is not None
        and latest_mine.status != Submission.Status.SUPERSEDED
        and latest_mine.same_outcome(mine)
        and (recorded is None or _stands(recorded, mine))
    ):
        # A double tap, a retry after a timeout, or a report kept on the phone offline and
        # sent again when the connection returned (static/js/offline.js), possibly after the
        # opponent confirmed it: the stored version stands. (Once the TD has recorded another
        # result, the old report is refused below, as any report would be.)
        return SubmitOutcome(latest_mine, ReportState.DUPLICATE), None
    # A recorded result (confirmed by both players, or entered or ruled by the TD) is only
    # changed by the TD with a reason; a player can still flag a dispute.
    if recorded is not None:
        raise ServiceError(
            ResultsError.ALREADY_CONFIRMED,
            _("This game is already confirmed; ask the tournament director to correct it."),
        )
    if Dispute.objects.filter(table=table, ruled_at__isnull=True).exists():
        raise ServiceError(ResultsError.IN_DISPUTE, _("This game is with the tournament director."))

    if latest_mine is not None:
        latest_mine.status = Submission.Status.SUPERSEDED
        latest_mine.save(update_fields=["status"])
    mine.save()
    if is_game_record(mine.record):
        queue_review(mine.pk)  # the discard review, by Celery after the commit
    _audit(event, table, action="submitted", entry=entry, new=held.values)

    opponent_id = next(iter({table.seat_a_id, table.seat_b_id} - {entry.pk}))
    theirs = (
        Submission.objects.filter(table=table, by_entry_id=opponent_id, status__in=OPEN)
        .order_by("-created_at", "-pk")
        .first()
    )
    if theirs is None:
        return SubmitOutcome(mine, ReportState.PENDING), None
    if theirs.same_outcome(mine) and event.confirmation == Event.Confirmation.DESK_CHECK:
        # Both keys may have come from one table card: the desk checks before it counts.
        Submission.objects.filter(pk__in=[mine.pk, theirs.pk]).update(
            status=Submission.Status.TO_CHECK
        )
        _audit(event, table, action="to_check", entry=entry, new=held.values)
        return SubmitOutcome(mine, ReportState.TO_CHECK), None
    if theirs.same_outcome(mine):
        agreed = _confirm(table, mine, action="confirmed", entry=entry)
        return SubmitOutcome(mine, ReportState.CONFIRMED), agreed
    why = reason.strip()[:300] or _("The two players reported different results.")
    _open_dispute(event, table, [mine, theirs], reason=why, entry=entry)
    return SubmitOutcome(mine, ReportState.DISPUTED), None


def _stands(result: GameResult, version: Submission) -> bool:
    """Whether the recorded result of a table is what ``version`` reports."""
    forfeit = result.kind == GameResult.Kind.FORFEIT
    return (
        result.winner_id == version.winner_id
        and forfeit == version.forfeit
        and (forfeit or result.loser_score == version.loser_score)
    )


def _open_dispute(event, table, versions, *, reason: str, entry: Entry) -> Dispute:
    """Put the table's versions in dispute, for the TD; the audit names ``entry``, the player
    whose link raised it (a disagreeing report or the dispute button)."""
    for version in versions:
        check_move(version.status, Submission.Status.DISPUTED)
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
    _audit(event, table, action="disputed", entry=entry, reason=reason)
    return dispute


class ConfirmRefusal:
    """Why a confirmation is refused: the codes (of :class:`ResultsError`) the page and the
    API answer with."""

    UNNAMED = ResultsError.CONFIRMATION_UNNAMED  # neither the version nor the values were named
    NOTHING = ResultsError.NOTHING_TO_CONFIRM  # the opponent has no report waiting
    CHANGED = ResultsError.REPORT_CHANGED  # the opponent changed the report since it was seen


@transaction.atomic
def confirm_opponent(
    key: str,
    *,
    table: Table | int,
    version: Submission | int | None = None,
    winner: Entry | int | None = None,
    loser_score: int | None = None,
    forfeit: bool = False,
) -> SubmitOutcome:
    """A player confirms the version the opponent submitted, naming what they confirm.

    A confirmation names the version the player saw (``version``: its id, as the player's
    page carries it) or its values (``winner``, ``loser_score``, ``forfeit``, as an API
    client shows them). When the opponent's report is no longer that (they changed it between
    the player's look and the tap), nothing is written and ``report_changed`` says so: a
    stale tap must never confirm a result the player has not seen.
    """
    if version is None and winner is None:
        raise ServiceError(
            ConfirmRefusal.UNNAMED,
            _("Say which report you confirm: its version or its result."),
        )
    entry = entry_for_key(key)
    table_id = table.pk if isinstance(table, Table) else table
    version_id = version.pk if isinstance(version, Submission) else version
    winner_id = winner.pk if isinstance(winner, Entry) else winner

    def reported(locked: Table) -> Version:
        theirs = (
            Submission.objects.filter(table=locked, status=Submission.Status.PENDING)
            .exclude(by_entry=entry)
            .select_related("by_entry__player")
            .order_by("-created_at", "-pk")
            .first()
        )
        if theirs is None:
            raise ServiceError(
                ConfirmRefusal.NOTHING, _("Your opponent has not reported this game yet.")
            )
        if (version_id is not None and version_id != theirs.pk) or (
            winner_id is not None
            and not theirs.same_outcome(
                Submission(winner_id=winner_id, loser_score=loser_score, forfeit=forfeit)
            )
        ):
            name = theirs.by_entry.player.name if theirs.by_entry else _("Your opponent")
            raise ServiceError(
                ConfirmRefusal.CHANGED,
                _("%(name)s changed the report: check it again.") % {"name": name},
            )
        throttle(key)  # a confirmation is a report of the same result
        agreed = Version(
            winner_id=theirs.winner_id, loser_score=theirs.loser_score, forfeit=theirs.forfeit
        )
        return _seated(entry, locked, agreed)

    return _report(entry, table_id, reported)


@transaction.atomic
def dispute(key: str, *, table: Table | int, reason: str = "") -> Dispute:
    """A player disputes the opponent's version: the game goes to the TD."""
    entry = entry_for_key(key)
    table_id = table.pk if isinstance(table, Table) else table
    opened: list[Dispute] = []

    def settle(held: HeldTable) -> None:
        opened.append(_dispute(entry, held.table, reason))

    _settle(entry.event, table_id, settle, player=True)
    return opened[0]


def _dispute(entry: Entry, locked: Table, reason: str) -> Dispute:
    if entry.pk not in {locked.seat_a_id, locked.seat_b_id}:
        raise ServiceError(
            ResultsError.NOT_YOUR_GAME, _("You did not play at this table."), field="table"
        )
    if Submission.objects.filter(table=locked, status=Submission.Status.CONFIRMED).exists():
        raise ServiceError(
            ResultsError.ALREADY_CONFIRMED,
            _("This game is already confirmed; ask the tournament director to correct it."),
        )
    versions = list(Submission.objects.filter(table=locked, status=Submission.Status.PENDING))
    reason = reason.strip()[:300] or _("%(name)s disputes the reported result.") % {
        "name": entry.player.name
    }
    return _open_dispute(entry.event, locked, versions, reason=reason, entry=entry)


def on_result_removed(sender, *, event_id: int, table_id: int, **kwargs) -> None:
    """A table's result was taken back (an undo): every version reported for it is
    superseded, so the players report the game afresh (a report of the same result again is
    a new report, not a double tap) and a dispute can be raised again. Versions are never
    deleted; the audit log keeps the undo."""
    Submission.objects.filter(table_id=table_id).exclude(
        status=Submission.Status.SUPERSEDED
    ).update(status=Submission.Status.SUPERSEDED)
