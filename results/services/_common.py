"""What the results chapters share: the lock order, the audit of steps before a result, and
confirming a version through the one result service of tournaments."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from pegboard.errors import ServiceError
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, Entry, Event, GameResult, Table
from tournaments.services.results import CheckedResult, write_result

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


def _locked_table(event: Event, table_id: int, *, player: bool = False) -> Table:
    """Lock the event's row, then the table's: the one lock order every writer of a result
    follows (``tournaments.services.record_result`` too), so two writers never deadlock.

    A ``player``'s report holds the event in share mode (reports at other tables go on at
    once); the TD's and the desk's writes hold it exclusively."""
    locked = (
        tournament_services.shared_event_lock(event)
        if player
        else tournament_services.locked_event(event)
    )
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round", "seat_a__player", "seat_b__player")
        .filter(pk=table_id, round__event=event)
        .first()
    )
    if table is None:
        raise ServiceError(
            ResultsError.UNKNOWN_GAME, _("There is no such game in this event."), field="table"
        )
    # The event as read under its lock (status, format), for the checks that follow.
    table.round.event = locked
    return table


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
