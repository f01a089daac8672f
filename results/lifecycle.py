"""The report lifecycle in one place: every state a reported version, a submission's outcome
and a player's current game can be in, and the moves a version may make.

A version (:class:`SubmissionStatus`) moves only along :data:`MOVES`::

    pending    -> to_check, confirmed, agreed, disputed, superseded
    to_check   -> confirmed, agreed, disputed, superseded
    disputed   -> confirmed, agreed, disputed, superseded
    confirmed  -> superseded             (a correction, a ruling, an undo)
    agreed     -> confirmed, superseded  (a TD's ruling picks it; an undo)
    superseded -> confirmed              (a TD's ruling may pick any version of the table)

A service checks a move with :func:`check_move`; a bulk update filters on the named groups
(:data:`OPEN`, :data:`UNSETTLED`), each of whose moves the table allows (a test holds them to
it). The values are the strings the database, the templates and the API's JSON have always
used.
"""

from __future__ import annotations

from enum import StrEnum

from django.db import models
from django.utils.translation import gettext_lazy as _


class SubmissionStatus(models.TextChoices):
    """Where one reported version of a table's result stands (``Submission.status``)."""

    PENDING = "pending", _("Waiting for the opponent")
    CONFIRMED = "confirmed", _("Confirmed")
    AGREED = "agreed", _("Agreed (the other version was confirmed)")
    DISPUTED = "disputed", _("Disputed")
    SUPERSEDED = "superseded", _("Superseded")
    TO_CHECK = "to_check", _("Agreed; waiting for the TD's check")


S = SubmissionStatus

# The allowed moves of a version: from -> the states it may go to.
MOVES: dict[SubmissionStatus, frozenset[SubmissionStatus]] = {
    S.PENDING: frozenset({S.TO_CHECK, S.CONFIRMED, S.AGREED, S.DISPUTED, S.SUPERSEDED}),
    S.TO_CHECK: frozenset({S.CONFIRMED, S.AGREED, S.DISPUTED, S.SUPERSEDED}),
    S.DISPUTED: frozenset({S.CONFIRMED, S.AGREED, S.DISPUTED, S.SUPERSEDED}),
    S.CONFIRMED: frozenset({S.SUPERSEDED}),
    S.AGREED: frozenset({S.CONFIRMED, S.SUPERSEDED}),
    S.SUPERSEDED: frozenset({S.CONFIRMED}),
}

# The versions still waiting for the other player (or the desk's check).
OPEN = (S.PENDING, S.TO_CHECK)
# The versions nobody has settled yet: open or with the TD.
UNSETTLED = (S.PENDING, S.DISPUTED, S.TO_CHECK)


class IllegalMove(ValueError):
    """A service tried to move a version along a move the lifecycle does not have (a bug)."""


def check_move(old: str, new: str) -> None:
    """Refuse a move of a version from ``old`` to ``new`` that :data:`MOVES` does not allow."""
    if SubmissionStatus(new) not in MOVES[SubmissionStatus(old)]:
        raise IllegalMove(f"a {old} version cannot become {new}")


class ReportState(StrEnum):
    """Where a table stands after a player's report (``SubmitOutcome.state``, the API's
    ``state``)."""

    PENDING = "pending"  # waiting for the opponent
    TO_CHECK = "to_check"  # both agree; the desk checks first
    CONFIRMED = "confirmed"  # both agree; the result is recorded
    DISPUTED = "disputed"  # the two disagree: with the TD
    DUPLICATE = "duplicate"  # the same report again: the stored version stands


class TableState(StrEnum):
    """Where the player's current game stands on their private page (``PlayerTable.state``)."""

    NONE = "none"  # no game released
    BYE = "bye"
    REPORT = "report"  # nobody reported
    WAITING = "waiting"  # the player reported; the opponent has to confirm
    CONFIRM = "confirm"  # the opponent reported; the player confirms or disputes
    TO_CHECK = "to_check"  # both agree; the desk checks
    DISPUTED = "disputed"  # with the TD
    CONFIRMED = "confirmed"  # a result is recorded, perhaps by a ruling


# Only the open states are polled: a confirmed or disputed game changes only by the TD's hand.
POLLED_TABLE_STATES = frozenset(
    {TableState.REPORT, TableState.WAITING, TableState.CONFIRM, TableState.TO_CHECK}
)


class SeatState(StrEnum):
    """Where a player's Stoppa table stands on their private page (``PlayerSeat.state``)."""

    NONE = "none"
    SITTING_OUT = "sitting_out"
    RECORDED = "recorded"
    REPORT = "report"  # nobody sent the nets
    WAITING = "waiting"  # the player confirmed; the others have yet to
    CONFIRM = "confirm"  # someone sent nets the player has not confirmed


POLLED_SEAT_STATES = frozenset({SeatState.REPORT, SeatState.WAITING, SeatState.CONFIRM})
