"""Reading the round clock (issue 28): what a game's clock shows at a given moment.

The clock is stored on the game (``Round.clock_*``) and written only by
``tournaments.services.clock``. A running clock past its end reads as ``Clock.TIME``: nothing
needs to be written when time runs out. Every function takes ``now`` so that tests (and the
pages, which send the server's time to the browser) read one moment.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from .models import Club, Event, Round, StoppaSeat, StoppaTable, Table

Clock = Round.Clock


@dataclass(frozen=True, slots=True)
class ClockReading:
    """A game's clock at ``now``: its state, when it ends (running) and the seconds left
    (running or paused; 0 at time)."""

    game: int
    state: str
    now: datetime
    minutes: int | None = None
    ends_at: datetime | None = None
    seconds_left: int | None = None

    @property
    def is_on(self) -> bool:
        """Running, paused or at time: something to show."""
        return self.state in (Clock.RUNNING, Clock.PAUSED, Clock.TIME)

    @property
    def ends_iso(self) -> str:
        """The end as ISO 8601 UTC to the millisecond, for the browser's countdown."""
        return _iso(self.ends_at) if self.ends_at is not None else ""

    @property
    def now_iso(self) -> str:
        """The server's time of the reading, so that the browser's own clock does not count."""
        return _iso(self.now)

    @property
    def left(self) -> str:
        """The time left as the clock writes it: ``12:05`` (minutes:seconds)."""
        seconds = self.seconds_left or 0
        return f"{seconds // 60}:{seconds % 60:02d}"


def _iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def clock_of(round_: Round, now: datetime | None = None) -> ClockReading:
    """What ``round_``'s clock shows at ``now`` (the server's time by default)."""
    now = now or timezone.now()
    reading = ClockReading(
        game=round_.number, state=str(round_.clock_state), now=now, minutes=round_.clock_minutes
    )
    if round_.clock_state == Clock.RUNNING and round_.clock_ends_at is not None:
        left = max(0, int((round_.clock_ends_at - now).total_seconds() + 0.999))
        return replace(
            reading,
            state=Clock.RUNNING if left > 0 else Clock.TIME,
            ends_at=round_.clock_ends_at,
            seconds_left=left,
        )
    if round_.clock_state == Clock.PAUSED:
        return replace(reading, seconds_left=round_.clock_left or 0)
    return reading


def unfinished_tables(round_: Round) -> QuerySet[Table]:
    """The game's tables still without a result (byes have nothing to finish)."""
    return (
        round_.tables.filter(seat_b__isnull=False, result__isnull=True)
        .select_related("seat_a__player", "seat_b__player")
        .order_by("number")
    )


def unfinished_group_tables(round_: Round) -> QuerySet[StoppaTable]:
    """A game of tables of several players (three-handed): its tables without scores yet,
    with their seats in order (a player sitting out has nothing to finish)."""
    return (
        StoppaTable.objects.filter(round=round_, number__isnull=False, entered_at__isnull=True)
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=StoppaSeat.objects.select_related(
                    "entry__player", "entry__partner"
                ).order_by("position"),
            )
        )
        .order_by("number")
    )


def at_time_applies(club: Club) -> bool:
    """Whether the club's rule for a game not finished in time ends in a result the TD can
    record as "called at time" (one winner); a loss for both is noted by hand."""
    return club.at_time != Club.AtTime.LOSS_FOR_BOTH


def public_clock(event: Event, now: datetime | None = None) -> ClockReading | None:
    """The clock of the event's latest released game (the hall's clock), or None."""
    round_ = (
        event.rounds.filter(status=Round.Status.RELEASED).order_by("-number").first()
        if event.pk
        else None
    )
    return clock_of(round_, now) if round_ is not None else None
