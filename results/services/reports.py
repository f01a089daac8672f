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

from django.core.exceptions import ObjectDoesNotExist
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _

from core.engine_messages.cribbage import describe_error, problem_text
from core.errors import ServiceError
from games.cribbage import CribbageError, check_claim, verify_game
from tournaments.audit_chain import append_audit
from tournaments.models import Entry, Event, GameResult, Table
from tournaments.services.results import Agreed, HeldTable, Version

from ..error_codes import ResultsError
from ..lifecycle import OPEN, UNSETTLED, ReportState, check_move
from ..models import Dispute, PlayerKey, Submission
from ._common import _actor, _audit_row, _settle
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


# "me" / "opponent": the winner named from the reporting player's seat (the API, the page).
Side = str


@transaction.atomic
def submit(
    key: str,
    *,
    table: Table | int,
    winner: Entry | int | Side,
    game: int | None = None,
    loser_score: int | None = None,
    forfeit: bool = False,
    record: dict | None = None,
    entry: Entry | None = None,
    reason: str = "",
    strict_record: bool = False,
) -> SubmitOutcome:
    """A player reports the result of their own game through their private key (``entry``:
    the key's entry, when the caller has looked it up already).

    ``table`` is the table's id, or its number in ``game`` when that is given; ``winner``
    an entry, or ``"me"`` / ``"opponent"`` seen from the player's seat.

    ``strict_record``: refuse a ``record`` with any error the engine finds (see
    ``_check_record``), not only an unreadable one; it raises ``RecordError``.

    ``reason`` is what the player says is wrong when this version disagrees with the
    opponent's: the TD reads it beside both versions at the desk.
    """
    throttle(key)
    held = _Report(key, table, game=game, entry=entry)

    def reported(locked: Table) -> Version:
        me = held.entry
        mine = Version(
            winner_id=_winner_id(winner, me, locked), loser_score=loser_score, forfeit=forfeit
        )
        return _seated(me, locked, mine)

    return held.report(reported, record=record, reason=reason, strict_record=strict_record)


class _Report:
    """One report at a table, under its locks: what it reads, it reads once.

    The report names its key and table in SQL; tournaments takes both locks in the
    statement that finds them (``settle_table``'s ``locks``) and reads the table with its
    event, players, result and dispute; the table's versions are read once after it. An
    unknown key is told from an unknown table only when nothing matched.
    """

    def __init__(
        self, key: str, table: Table | int, *, game: int | None, entry: Entry | None
    ) -> None:
        number = table.pk if isinstance(table, Table) else table
        if game is None:
            where, params = "t.id = %s", [number]
        else:
            where, params = "r.number = %s AND t.number = %s", [game, number]
        subquery = f"SELECT entry_id FROM {PlayerKey._meta.db_table} WHERE key = %s"
        self.key = key
        self.locks = (f"en.id = ({subquery}) AND {where}", [key, *params])
        self.given = entry
        self._entry: Entry | None = None
        self._versions: list[Submission] | None = None

    @property
    def entry(self) -> Entry:
        assert self._entry is not None, "read under the locks first"
        return self._entry

    def _unknown(self) -> ServiceError:
        entry_for_key(self.key)  # an unknown key says so
        return ServiceError(
            ResultsError.UNKNOWN_GAME, _("There is no such game in this event."), field="table"
        )

    def hold(self, held: HeldTable) -> None:
        """The reporting entry, as read under the locks (a seat of the table, or the
        caller's entry with the event read under them)."""
        event, table = held.event, held.table
        if self.given is not None and self.given.pk == held.entry_id:
            me = self.given
        else:
            seats = {seat.pk: seat for seat in table.seats()}
            # not seated: refused by the callers (not your game); its id is all they need
            me = seats.get(held.entry_id or 0) or Entry(pk=held.entry_id, event_id=event.pk)
        me.event = event
        self._entry = me

    def versions(self, table: Table) -> list[Submission]:
        """Every version of the table's result, oldest first, read once under the locks
        (none to read at a table nobody reported: the table's read said so)."""
        if self._versions is None and not getattr(table, "reported", True):
            self._versions = []
        if self._versions is None:
            self._versions = list(
                Submission.objects.filter(table=table).order_by("created_at", "pk")
            )
        return self._versions

    def settle(self, settle, *, report=None) -> GameResult | None:
        """Cross to tournaments once (:func:`_settle`), the locks taken as it finds the
        table."""

        def reported(held: HeldTable):
            self.hold(held)
            return report(held.table) if report is not None else None

        return _settle(
            None,
            None,
            settle,
            report=reported,
            player=True,
            locks=self.locks,
            held_with=("dispute",),
            # whether anyone reported here: a table's first report reads no versions
            annotate={"reported": Exists(Submission.objects.filter(table=OuterRef("pk")))},
            unknown=self._unknown,
        )

    def report(
        self, reported, *, record=None, reason: str = "", strict_record: bool = False
    ) -> SubmitOutcome:
        """Store the entry's report at the table (``reported(table)``, under the locks,
        names it); two agreeing versions come back as the result to record, which
        tournaments writes and audits in the same call."""
        stored: list[SubmitOutcome] = []

        def settle(held: HeldTable) -> Agreed | None:
            versions = self.versions(held.table)
            outcome, agreed = _store(held, self.entry, versions, record, reason, strict_record)
            stored.append(outcome)
            return agreed

        result = self.settle(settle, report=reported)
        return stored[0] if result is None else replace(stored[0], result=result)


def _one_to_one(instance, name: str):
    """A reverse one-to-one read with ``select_related`` (``table.dispute``), or None."""
    try:
        return getattr(instance, name)
    except ObjectDoesNotExist:
        return None


def _winner_id(winner: Entry | int | Side | None, me: Entry, table: Table) -> int:
    """The winner's entry id: given, or ``"me"`` / ``"opponent"`` from ``me``'s seat (0, no
    entry, for an opponent who is not there: the table's checks refuse it)."""
    if isinstance(winner, Entry):
        return winner.pk
    if winner == "me":
        return me.pk
    if winner == "opponent":
        return (table.seat_b_id if table.seat_a_id == me.pk else table.seat_a_id) or 0
    return winner  # type: ignore[return-value]


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


def _store(
    held: HeldTable,
    entry: Entry,
    versions: list[Submission],
    record,
    reason: str,
    strict_record: bool,
) -> tuple[SubmitOutcome, Agreed | None]:
    """Keep a checked version (``held``) and say where the table stands, with the version
    to record when the two players agree. ``versions`` are the table's, read under the
    locks; the table's result and dispute came with the table."""
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
    latest_mine = next((v for v in reversed(versions) if v.by_entry_id == entry.pk), None)
    recorded = held.result
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
    dispute = _one_to_one(table, "dispute")
    if dispute is not None and dispute.ruled_at is None:
        raise ServiceError(ResultsError.IN_DISPUTE, _("This game is with the tournament director."))

    if latest_mine is not None and latest_mine.status != Submission.Status.SUPERSEDED:
        latest_mine.status = Submission.Status.SUPERSEDED
        latest_mine.save(update_fields=["status"])
    submitted = _audit_row(event, table, action="submitted", entry=entry, new=held.values)
    opponent_id = next(iter({table.seat_a_id, table.seat_b_id} - {entry.pk}))
    theirs = next(
        (v for v in reversed(versions) if v.by_entry_id == opponent_id and v.status in OPEN),
        None,
    )
    if theirs is None:
        _save(mine)
        append_audit(event, [submitted])
        return SubmitOutcome(mine, ReportState.PENDING), None
    if theirs.same_outcome(mine) and event.confirmation == Event.Confirmation.DESK_CHECK:
        # Both keys may have come from one table card: the desk checks before it counts.
        _save(mine, Submission.Status.TO_CHECK)
        _move([theirs], Submission.Status.TO_CHECK)
        checking = _audit_row(event, table, action="to_check", entry=entry, new=held.values)
        append_audit(event, [submitted, checking])
        return SubmitOutcome(mine, ReportState.TO_CHECK), None
    if theirs.same_outcome(mine):
        agreed = _confirm_mine(table, mine, versions, entry=entry, audits=(submitted,))
        return SubmitOutcome(mine, ReportState.CONFIRMED), agreed
    why = reason.strip()[:300] or _("The two players reported different results.")
    _save(mine, Submission.Status.DISPUTED)
    _open_dispute(
        event, table, [theirs], reason=why, entry=entry, known=dispute, before=[submitted]
    )
    return SubmitOutcome(mine, ReportState.DISPUTED), None


def _save(mine: Submission, status: str = Submission.Status.PENDING) -> None:
    """Insert the player's new version, already in the state the table reaches."""
    if status != Submission.Status.PENDING:
        check_move(Submission.Status.PENDING, status)
    mine.status = status
    mine.save()
    if is_game_record(mine.record):
        queue_review(mine.pk)  # the discard review, by Celery after the commit


def _move(versions: list[Submission], status: str) -> None:
    """Move ``versions`` to ``status`` (each move checked), in one UPDATE; those already
    there stay as they are."""
    versions = [v for v in versions if v.status != status]
    for version in versions:
        check_move(version.status, status)
        version.status = status
    if versions:
        Submission.objects.filter(pk__in=[v.pk for v in versions]).update(status=status)


def _confirm_mine(
    table: Table, mine: Submission, versions: list[Submission], *, entry: Entry, audits: tuple
) -> Agreed:
    """The player's new version agrees with the opponent's: it is inserted confirmed, the
    other unsettled versions agreed (as :func:`._common._confirm` does for a stored one),
    and the audit row of the report is written with the result's."""
    _move(
        [v for v in versions if v.status == Submission.Status.CONFIRMED],
        Submission.Status.SUPERSEDED,
    )
    _move([v for v in versions if v.status in UNSETTLED], Submission.Status.AGREED)
    try:
        _save(mine, Submission.Status.CONFIRMED)
    except IntegrityError:
        # Not under these locks (they serialize the table's writers); kept as the last word
        # of the one-confirmed-version constraint. The transaction is rolled back with it.
        raise ServiceError(
            ResultsError.ALREADY_CONFIRMED, _("This game was confirmed meanwhile.")
        ) from None
    return Agreed(
        winner_id=mine.winner_id,
        loser_score=mine.loser_score,
        forfeit=mine.forfeit,
        action="confirmed",
        actor=_actor(entry, None),
        audits=audits,
    )


def _stands(result: GameResult, version: Submission) -> bool:
    """Whether the recorded result of a table is what ``version`` reports."""
    forfeit = result.kind == GameResult.Kind.FORFEIT
    return (
        result.winner_id == version.winner_id
        and forfeit == version.forfeit
        and (forfeit or result.loser_score == version.loser_score)
    )


def _open_dispute(
    event, table, versions, *, reason: str, entry: Entry, known: Dispute | None, before=()
) -> Dispute:
    """Put the table's versions in dispute, for the TD; the audit names ``entry``, the player
    whose link raised it (a disagreeing report or the dispute button). ``known``: the
    table's dispute as read under the locks (None: none yet); ``before``: audit rows of the
    steps before, written with the dispute's."""
    _move(list(versions), Submission.Status.DISPUTED)
    dispute = known
    if dispute is None:
        dispute = Dispute.objects.create(table=table, event=event, reason=reason)
    elif dispute.ruled_at is not None:
        dispute.ruled_at = None
        dispute.ruling = None
        dispute.reason = reason
        dispute.save(update_fields=["ruled_at", "ruling", "reason"])
    disputed = _audit_row(event, table, action="disputed", entry=entry, reason=reason)
    append_audit(event, [*before, disputed])
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
    game: int | None = None,
    version: Submission | int | None = None,
    winner: Entry | int | Side | None = None,
    loser_score: int | None = None,
    forfeit: bool = False,
) -> SubmitOutcome:
    """A player confirms the version the opponent submitted, naming what they confirm.

    A confirmation names the version the player saw (``version``: its id, as the player's
    page carries it) or its values (``winner``, ``loser_score``, ``forfeit``, as an API
    client shows them; ``winner`` may be ``"me"`` / ``"opponent"``). When the opponent's
    report is no longer that (they changed it between the player's look and the tap),
    nothing is written and ``report_changed`` says so: a stale tap must never confirm a
    result the player has not seen. ``table`` and ``game`` as for :func:`submit`.
    """
    if version is None and winner is None:
        raise ServiceError(
            ConfirmRefusal.UNNAMED,
            _("Say which report you confirm: its version or its result."),
        )
    held = _Report(key, table, game=game, entry=None)
    version_id = version.pk if isinstance(version, Submission) else version

    def reported(locked: Table) -> Version:
        entry = held.entry
        theirs = next(
            (
                v
                for v in reversed(held.versions(locked))
                if v.status == Submission.Status.PENDING and v.by_entry_id != entry.pk
            ),
            None,
        )
        if theirs is None:
            raise ServiceError(
                ConfirmRefusal.NOTHING, _("Your opponent has not reported this game yet.")
            )
        winner_id = _winner_id(winner, entry, locked) if winner is not None else None
        if (version_id is not None and version_id != theirs.pk) or (
            winner_id is not None
            and not theirs.same_outcome(
                Submission(winner_id=winner_id, loser_score=loser_score, forfeit=forfeit)
            )
        ):
            raise ServiceError(
                ConfirmRefusal.CHANGED,
                _("%(name)s changed the report: check it again.") % {"name": _by(theirs, locked)},
            )
        throttle(key)  # a confirmation is a report of the same result
        agreed = Version(
            winner_id=theirs.winner_id, loser_score=theirs.loser_score, forfeit=theirs.forfeit
        )
        return _seated(entry, locked, agreed)

    return held.report(reported)


def _by(version: Submission, table: Table) -> str:
    """Who reported ``version``: a player of the table, by name."""
    if version.by_entry_id is None:
        return _("Your opponent")
    seats = {seat.pk: seat for seat in table.seats()}
    found = seats.get(version.by_entry_id) or version.by_entry
    return found.name if found is not None else _("Your opponent")


@transaction.atomic
def dispute(key: str, *, table: Table | int, game: int | None = None, reason: str = "") -> Dispute:
    """A player disputes the opponent's version: the game goes to the TD (``table`` and
    ``game`` as for :func:`submit`)."""
    held = _Report(key, table, game=game, entry=None)
    opened: list[Dispute] = []

    def settle(found: HeldTable) -> None:
        opened.append(_dispute(held.entry, found.table, reason, held.versions(found.table)))

    held.settle(settle)
    return opened[0]


def _dispute(entry: Entry, locked: Table, reason: str, versions: list[Submission]) -> Dispute:
    if entry.pk not in {locked.seat_a_id, locked.seat_b_id}:
        raise ServiceError(
            ResultsError.NOT_YOUR_GAME, _("You did not play at this table."), field="table"
        )
    if any(v.status == Submission.Status.CONFIRMED for v in versions):
        raise ServiceError(
            ResultsError.ALREADY_CONFIRMED,
            _("This game is already confirmed; ask the tournament director to correct it."),
        )
    pending = [v for v in versions if v.status == Submission.Status.PENDING]
    reason = reason.strip()[:300] or _("%(name)s disputes the reported result.") % {
        "name": entry.name
    }
    known = _one_to_one(locked, "dispute")
    return _open_dispute(entry.event, locked, pending, reason=reason, entry=entry, known=known)


def on_result_removed(sender, *, event_id: int, table_id: int, **kwargs) -> None:
    """A table's result was taken back (an undo): every version reported for it is
    superseded, so the players report the game afresh (a report of the same result again is
    a new report, not a double tap) and a dispute can be raised again. Versions are never
    deleted; the audit log keeps the undo."""
    Submission.objects.filter(table_id=table_id).exclude(
        status=Submission.Status.SUPERSEDED
    ).update(status=Submission.Status.SUPERSEDED)
