"""The round clock (issue 28): the TD starts a game's clock, pauses, resumes, adds minutes
or stops it, and records a game not finished in time as "called at time".

Each action is one transaction under the event's lock, audited in the event's chain
(``append_audit``). ``now`` is passed in by tests; the pages use the server's time.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments.audit_chain import append_audit
from tournaments.clock import Clock, ClockReading, at_time_applies, clock_of
from tournaments.models import AuditEntry, Club, Entry, Event, GameResult, Round, Table

from ..error_codes import TournamentsError
from ._common import UserLike, acting_user, actor_name, locked_event
from .results import record_result

MAX_MINUTES = 180  # a game's clock; more is a typing slip
MAX_ADDED = 60  # minutes added at once
CLOCK_FIELDS = ["clock_state", "clock_minutes", "clock_started_at", "clock_ends_at", "clock_left"]


def _minutes(value: object, highest: int) -> int:
    try:
        minutes = int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        minutes = 0
    if not 1 <= minutes <= highest:
        raise ServiceError(
            TournamentsError.BAD_MINUTES,
            _("Give between 1 and %(n)s minutes.") % {"n": highest},
            field="minutes",
        )
    return minutes


def _locked_game(round_: Round) -> tuple[Event, Round]:
    """The event and the game under their locks (event first, the one lock order)."""
    event = locked_event(round_.event)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    round_.event = event
    return event, round_


def _audit(event: Event, round_: Round, action: str, old: ClockReading, user: UserLike, **new):
    append_audit(
        event,
        [
            AuditEntry(
                event=event,
                user=acting_user(user),
                actor=actor_name(user),
                action=action,
                old={"game": round_.number, "clock": old.state, "left": old.left},
                new={"game": round_.number, **new},
            )
        ],
    )


@transaction.atomic
def start_clock(
    round_: Round,
    *,
    minutes: int | str | None = None,
    user: UserLike = None,
    now: datetime | None = None,
) -> Round:
    """Start the game's clock: ``minutes`` (the club's minutes per game by default) from
    ``now``. A released game of a running event; a clock already on is refused."""
    now = now or timezone.now()
    event, round_ = _locked_game(round_)
    if event.status != Event.Status.RUNNING:
        raise ServiceError(
            TournamentsError.EVENT_NOT_RUNNING,
            _("The clock runs only while the event is running."),
            field="clock",
        )
    if round_.is_draft:
        raise ServiceError(
            TournamentsError.ROUND_NOT_RELEASED,
            _("Release the game before starting its clock."),
            field="clock",
        )
    old = clock_of(round_, now)
    if old.is_on:
        raise ServiceError(
            TournamentsError.CLOCK_RUNNING,
            _("The clock of this game is on already."),
            field="clock",
        )
    minutes = _minutes(event.club.game_minutes if minutes is None else minutes, MAX_MINUTES)
    round_.clock_state = Clock.RUNNING
    round_.clock_minutes = minutes
    round_.clock_started_at = now
    round_.clock_ends_at = now + timedelta(minutes=minutes)
    round_.clock_left = None
    _audit(event, round_, "clock_started", old, user, minutes=minutes)
    round_.save(update_fields=CLOCK_FIELDS)
    return round_


@transaction.atomic
def pause_clock(round_: Round, *, user: UserLike = None, now: datetime | None = None) -> Round:
    """Stop the clock where it is; :func:`resume_clock` goes on with the time left."""
    now = now or timezone.now()
    event, round_ = _locked_game(round_)
    old = clock_of(round_, now)
    if old.state != Clock.RUNNING:
        raise ServiceError(
            TournamentsError.CLOCK_NOT_RUNNING, _("The clock is not running."), field="clock"
        )
    round_.clock_state = Clock.PAUSED
    round_.clock_left = old.seconds_left
    round_.clock_ends_at = None
    _audit(event, round_, "clock_paused", old, user, left=old.left)
    round_.save(update_fields=CLOCK_FIELDS)
    return round_


@transaction.atomic
def resume_clock(round_: Round, *, user: UserLike = None, now: datetime | None = None) -> Round:
    """Run a paused clock again with the time it had left."""
    now = now or timezone.now()
    event, round_ = _locked_game(round_)
    old = clock_of(round_, now)
    if old.state != Clock.PAUSED:
        raise ServiceError(
            TournamentsError.CLOCK_NOT_PAUSED, _("The clock is not paused."), field="clock"
        )
    round_.clock_state = Clock.RUNNING
    round_.clock_ends_at = now + timedelta(seconds=round_.clock_left or 0)
    round_.clock_left = None
    _audit(event, round_, "clock_resumed", old, user, left=old.left)
    round_.save(update_fields=CLOCK_FIELDS)
    return round_


@transaction.atomic
def extend_clock(
    round_: Round, minutes: int | str | None, *, user: UserLike = None, now: datetime | None = None
) -> Round:
    """Add ``minutes`` to a running or paused clock; at time, the clock runs again for them."""
    now = now or timezone.now()
    event, round_ = _locked_game(round_)
    old = clock_of(round_, now)
    if not old.is_on:
        raise ServiceError(
            TournamentsError.CLOCK_NOT_RUNNING, _("The clock is not running."), field="clock"
        )
    added = _minutes(minutes, MAX_ADDED)
    if old.state == Clock.PAUSED:
        round_.clock_left = (round_.clock_left or 0) + added * 60
    else:
        running = old.state == Clock.RUNNING and round_.clock_ends_at is not None
        base: datetime = round_.clock_ends_at if running else now  # type: ignore[assignment]
        round_.clock_ends_at = base + timedelta(minutes=added)
    round_.clock_minutes = (round_.clock_minutes or 0) + added
    _audit(event, round_, "clock_extended", old, user, minutes=added)
    round_.save(update_fields=CLOCK_FIELDS)
    return round_


@transaction.atomic
def stop_clock(round_: Round, *, user: UserLike = None, now: datetime | None = None) -> Round:
    """Turn the clock off (the game needs no more time, or it was started by mistake)."""
    now = now or timezone.now()
    event, round_ = _locked_game(round_)
    old = clock_of(round_, now)
    if not old.is_on:
        raise ServiceError(
            TournamentsError.CLOCK_NOT_RUNNING, _("The clock is not running."), field="clock"
        )
    round_.clock_state = Clock.STOPPED
    round_.clock_ends_at = None
    round_.clock_left = None
    _audit(event, round_, "clock_stopped", old, user)
    round_.save(update_fields=CLOCK_FIELDS)
    return round_


@transaction.atomic
def call_at_time(
    event: Event,
    *,
    table: Table | int,
    winner: Entry | int,
    loser_score: int | None,
    user: UserLike = None,
    now: datetime | None = None,
) -> GameResult:
    """Record a game not finished when its clock ran out, by the club's rule: the winner it
    names and the loser's score, through the one audited result path (``record_result``),
    as action ``called_at_time`` with the rule as its reason.

    Refused while the game's clock has time left, for a table that has a result already,
    and when the club's rule gives no single winner (a loss for both is noted by hand).
    """
    now = now or timezone.now()
    event = locked_event(event)  # before the checks: a second call waits, then sees the result
    table_id = table.pk if isinstance(table, Table) else table
    found = (
        Table.objects.select_related("round", "round__event__club")
        .filter(pk=table_id, round__event=event)
        .first()
    )
    if found is None:
        raise ServiceError(
            TournamentsError.UNKNOWN_TABLE,
            _("There is no such table in this event."),
            field="table",
        )
    club = found.round.event.club
    if not at_time_applies(club):
        raise ServiceError(
            TournamentsError.AT_TIME_BY_HAND,
            _("By the club's rule (%(rule)s) there is no winner to record: note it by hand.")
            % {"rule": Club.AtTime(club.at_time).label},
        )
    if clock_of(found.round, now).state != Clock.TIME:
        raise ServiceError(
            TournamentsError.CLOCK_NOT_UP,
            _("Game %(game)s's clock has not run out.") % {"game": found.round.number},
        )
    if GameResult.objects.filter(table_id=found.pk).exists():
        raise ServiceError(
            TournamentsError.TABLE_FINISHED,
            _("Table %(table)s has a result already.") % {"table": found.number},
            field="table",
        )
    reason = _("Called at time: %(rule)s") % {"rule": Club.AtTime(club.at_time).label}
    return record_result(
        event,
        table=found.pk,
        winner=winner,
        loser_score=loser_score,
        game_number=found.round.number,
        user=user,
        reason=reason,
        action="called_at_time",
    )


@transaction.atomic
def set_clock_rule(club: Club, *, minutes: int, at_time: str) -> Club:
    """The club's minutes per game (what a clock starts with) and what it does with a game
    not finished in time."""
    minutes = _minutes(minutes, MAX_MINUTES)
    if at_time not in Club.AtTime.values:
        raise ServiceError(
            TournamentsError.BAD_AT_TIME,
            _("Choose what happens to a game not finished in time."),
            field="at_time",
        )
    club.game_minutes, club.at_time = minutes, at_time
    club.save(update_fields=["game_minutes", "at_time"])
    return club
