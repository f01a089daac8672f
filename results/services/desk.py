"""The results desk: checks of agreeing reports, rulings on disputes, corrections with a
reason, and the printables of the event.

Each desk action crosses to tournaments once (``_settle``, which is
``tournaments.services.results.settle_table``): tournaments locks the event and the table,
the action picks the version to record under those locks, and tournaments checks, writes
and audits it in the same call."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments.models import Entry, Event, GameResult, Table
from tournaments.services.results import Agreed, HeldTable

from ..error_codes import ResultsError
from ..models import Dispute, PrintJob, Submission
from ._common import _confirm, _settle, _td_submission


@transaction.atomic
def check_agreed(event: Event, *, table: Table | int, user) -> GameResult:
    """The TD or a scorekeeper checks two agreeing reports (events that check at the desk)."""
    table_id = table.pk if isinstance(table, Table) else table

    def settle(held: HeldTable) -> Agreed:
        agreed = (
            Submission.objects.filter(table=held.table, status=Submission.Status.TO_CHECK)
            .order_by("-created_at", "-pk")
            .first()
        )
        if agreed is None:
            raise ServiceError(
                ResultsError.NOTHING_TO_CHECK, _("This game has no agreeing reports to check.")
            )
        return _confirm(held.table, agreed, action="checked", user=user)

    return _recorded(_settle(event, table_id, settle))


def _recorded(result: GameResult | None) -> GameResult:
    assert result is not None  # every desk action's settle returns what it agreed
    return result


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

    def settle(held: HeldTable) -> Agreed:
        table = held.table
        # A ruling settles a dispute; changing a result nobody disputes is a correction (TD
        # only, with a reason), so a scorekeeper at the desk cannot overturn a confirmed game.
        if not Dispute.objects.filter(table=table, ruled_at__isnull=True).exists():
            raise ServiceError(
                ResultsError.NOT_DISPUTED,
                _("This game is not in dispute: a TD corrects a recorded result, with a reason."),
            )
        if submission is not None:
            sub_id = submission.pk if isinstance(submission, Submission) else submission
            chosen = Submission.objects.filter(pk=sub_id, table=table).first()
            if chosen is None:
                raise ServiceError(
                    ResultsError.UNKNOWN_SUBMISSION, _("That version is not one of this table's.")
                )
        else:
            if winner is None:
                raise ServiceError(
                    ResultsError.WINNER_REQUIRED, _("Choose the winner."), field="winner"
                )
            chosen = _td_submission(
                event,
                table,
                winner=winner,
                loser_score=loser_score,
                forfeit=forfeit,
                user=user,
                source=Submission.Source.TD,
            )
        agreed = _confirm(table, chosen, action="ruled", user=user, reason=note)
        # in this transaction: a result the write refuses takes the ruling back with it
        Dispute.objects.filter(table=table).update(
            ruling=chosen, ruled_by=user, ruled_at=timezone.now(), note=note[:300]
        )
        return agreed

    return _recorded(_settle(event, table_id, settle))


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
        raise ServiceError(
            ResultsError.REASON_REQUIRED, _("A correction needs a reason."), field="reason"
        )
    table_id = table.pk if isinstance(table, Table) else table

    def settle(held: HeldTable) -> Agreed:
        if not GameResult.objects.filter(table=held.table).exists():
            raise ServiceError(ResultsError.NOTHING_TO_CORRECT, _("This game has no result yet."))
        chosen = _td_submission(
            event,
            held.table,
            winner=winner,
            loser_score=loser_score,
            forfeit=forfeit,
            user=user,
            source=Submission.Source.TD,
        )
        return _confirm(held.table, chosen, action="corrected", user=user, reason=reason)

    return _recorded(_settle(event, table_id, settle))


@transaction.atomic
def request_printables(event: Event, *, base_url: str, language: str = "") -> PrintJob:
    """A print job for the event's PDF set, built by Celery once this transaction commits,
    in the event's language (else ``language``, the asking TD's)."""
    from ..tasks import build_printables

    job = PrintJob.objects.create(
        event=event, base_url=base_url, language=event.language or language
    )
    transaction.on_commit(lambda: build_printables.delay(job.pk), robust=True)
    return job


@transaction.atomic
def accept_report(
    event: Event, *, table: Table | int, version: Submission | int, user
) -> GameResult:
    """The TD (or a scorekeeper) accepts one player's pending report from the game page,
    instead of retyping it: recorded through the one result service, audited as
    ``accepted``. ``version`` names the report the TD saw; one changed since is refused."""
    table_id = table.pk if isinstance(table, Table) else table
    version_id = version.pk if isinstance(version, Submission) else version

    def settle(held: HeldTable) -> Agreed:
        table = held.table
        if GameResult.objects.filter(table=table).exists():
            raise ServiceError(ResultsError.ALREADY_CONFIRMED, _("This game already has a result."))
        theirs = (
            Submission.objects.filter(table=table, status=Submission.Status.PENDING)
            .select_related("by_entry__player", "by_entry__partner")
            .order_by("-created_at", "-pk")
            .first()
        )
        if theirs is None:
            raise ServiceError(
                ResultsError.NOTHING_TO_CONFIRM, _("No player report waits at this table.")
            )
        if theirs.pk != version_id:
            name = theirs.by_entry.name if theirs.by_entry else "?"
            raise ServiceError(
                ResultsError.REPORT_CHANGED,
                _("%(name)s changed the report: check it again.") % {"name": name},
            )
        return _confirm(table, theirs, action="accepted", user=user)

    return _recorded(_settle(event, table_id, settle))
