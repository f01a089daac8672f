"""No template spells a state: every comparison names the declared member (``S.Table.CONFIRMED``,
config/context_processors.py), so the lifecycle's words live in one place (issue #25)."""

from __future__ import annotations

import re
from pathlib import Path

from results.lifecycle import SeatState, SubmissionStatus, TableState
from results.models import JobStatus
from tournaments.hooks import DeskMark
from tournaments.models import Event, Round

ROOT = Path(__file__).resolve().parents[1]
STATE_VALUES = {
    str(v)
    for enum in (
        Event.Status,
        Round.Clock,
        SeatState,
        SubmissionStatus,
        TableState,
        JobStatus,
        DeskMark,
    )
    for v in enum
}
COMPARISON = re.compile(r"""(state|status|desk_mark)\s*==\s*["']([a-z_]+)["']""")


def test_no_template_compares_with_a_spelled_state():
    spelled = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in ROOT.glob("*/templates/**/*.html")
        for match in COMPARISON.finditer(path.read_text())
        if match.group(2) in STATE_VALUES
    ]
    assert not spelled, spelled


def test_the_states_reach_every_template(client):
    from config.context_processors import STATES, states

    assert states(None)["S"] is STATES
    assert STATES.Table.CONFIRMED == "confirmed" and STATES.Desk.TO_CHECK == "to_check"
