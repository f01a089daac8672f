"""What the results chapters share: the audit of steps before a result, and handing a table
down to tournaments in one call (:func:`_settle`, which is ``settle_table``): tournaments
locks, checks, writes and audits; results decides, under those locks, which version was
reported and what was agreed."""

from __future__ import annotations

from collections.abc import Callable

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments.audit_chain import append_audit
from tournaments.models import AuditEntry, Entry, Event, GameResult, Table
from tournaments.services.results import Agreed, HeldTable, Version, settle_table

from ..error_codes import ResultsError
from ..lifecycle import UNSETTLED, check_move
from ..models import Submission


def _actor(entry: Entry | None, user) -> str:
    if entry is not None:
        return str(entry.player)
    if user is not None and getattr(user, "is_authenticated", False):
        return user.get_username()
    return "?"


def _audit(event, table, *, action, entry=None, user=None, old=None, new=None, reason=""):
    row = _audit_row(
        event, table, action=action, entry=entry, user=user, old=old, new=new, reason=reason
    )
    append_audit(event, [row])


def _audit_row(
    event, table, *, action, entry=None, user=None, old=None, new=None, reason=""
) -> AuditEntry:
    """An audit row not yet written: a report writes its rows together, in one INSERT."""
    return AuditEntry(
        event=event,
        table=table,
        user=user if getattr(user, "is_authenticated", False) else None,
        actor=_actor(entry, user),
        action=action,
        old=old,
        new=new,
        reason=reason,
    )


def _settle(
    event: Event | None,
    table_id: int | None,
    settle: Callable[[HeldTable], Agreed | None],
    *,
    report: Callable[[HeldTable], Version | None] | None = None,
    player: bool = False,
    locks: tuple[str, list] | None = None,
    held_with: tuple[str, ...] = (),
    annotate: dict | None = None,
    unknown: Callable[[], ServiceError] | None = None,
) -> GameResult | None:
    """Hand a table down to tournaments, once: ``settle_table`` locks the event and then
    the table (the one lock order of every writer of a result, so two writers never
    deadlock; in share mode for a ``player``'s report, exclusively for the desk), checks the
    version ``report`` names, lets ``settle`` decide under the locks and writes and audits
    what it agreed. Nothing here calls tournaments between these steps. A player's report
    names its key and table in ``locks`` (SQL: both locks and the table in one statement)
    and the relations to read with the table in ``held_with`` (``annotate``: expressions);
    ``unknown`` says why nothing matched."""
    return settle_table(
        event,
        table_id,
        unknown=unknown or _unknown_game,
        settle=settle,
        report=report,
        player=player,
        locks=locks,
        held_with=held_with,
        annotate=annotate,
    )


def _unknown_game() -> ServiceError:
    return ServiceError(
        ResultsError.UNKNOWN_GAME, _("There is no such game in this event."), field="table"
    )


def _confirm(
    table: Table,
    chosen: Submission,
    *,
    action: str,
    user=None,
    entry=None,
    reason: str = "",
) -> Agreed:
    """Make ``chosen`` the table's confirmed version; what :func:`_settle` then records
    through the one result service (audited as ``action``; changing a recorded result needs
    ``reason``)."""
    Submission.objects.filter(table=table, status=Submission.Status.CONFIRMED).update(
        status=Submission.Status.SUPERSEDED
    )
    Submission.objects.filter(table=table, status__in=UNSETTLED).exclude(pk=chosen.pk).update(
        status=Submission.Status.AGREED
    )
    check_move(chosen.status, Submission.Status.CONFIRMED)
    chosen.status = Submission.Status.CONFIRMED
    try:
        with transaction.atomic():
            chosen.save(update_fields=["status"])
    except IntegrityError:
        raise ServiceError(
            ResultsError.ALREADY_CONFIRMED, _("This game was confirmed meanwhile.")
        ) from None
    return Agreed(
        winner_id=chosen.winner_id,
        loser_score=chosen.loser_score,
        forfeit=chosen.forfeit,
        action=action,
        actor=_actor(entry, user),
        user=user,
        reason=reason,
    )


def _td_submission(event, table, *, winner, loser_score, forfeit, user, source) -> Submission:
    seats = {table.seat_a_id, table.seat_b_id}
    winner_id = winner.pk if isinstance(winner, Entry) else winner
    if winner_id not in seats:
        raise ServiceError(
            ResultsError.WINNER_NOT_AT_TABLE,
            _("The winner must be one of the two players."),
            field="winner",
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
