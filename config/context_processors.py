"""Template context every page gets: the declared states, so a template compares with
``S.Table.CONFIRMED`` instead of spelling ``"confirmed"`` (one vocabulary, declared once)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django.http import HttpRequest

from results.lifecycle import SeatState, SubmissionStatus, TableState
from results.models import JobStatus
from tournaments.hooks import DeskMark
from tournaments.models import Entry, Event, Registration, Round

# A plain Enum class is callable, and a template calls what it can: these are looked up only.
for _enum in (SeatState, TableState, DeskMark):
    _enum.do_not_call_in_templates = True  # type: ignore[attr-defined]

STATES = SimpleNamespace(
    Event=Event.Status,
    Clock=Round.Clock,
    Submission=SubmissionStatus,
    Table=TableState,
    Seat=SeatState,
    Desk=DeskMark,
    Job=JobStatus,
    Registration=Registration.State,
    CheckIn=Entry.CheckIn,
)


def states(request: HttpRequest) -> dict[str, Any]:
    """``S``: the states of events, reports, a player's table and seat, the desk's marks and
    background jobs."""
    return {"S": STATES}
