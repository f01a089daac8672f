"""The report lifecycle's table of moves (results.lifecycle)."""

import pytest

from results.lifecycle import (
    MOVES,
    OPEN,
    UNSETTLED,
    IllegalMove,
    ReportState,
    SubmissionStatus,
    TableState,
    check_move,
)
from results.models import Submission

S = SubmissionStatus


def test_the_model_uses_the_declared_states():
    assert Submission.Status is SubmissionStatus
    assert set(MOVES) == set(SubmissionStatus)


def test_the_bulk_moves_of_the_services_are_in_the_table():
    # _confirm: the other unsettled versions become agreed; a dispute takes the open ones
    for old in UNSETTLED:
        check_move(old, S.AGREED)
        check_move(old, S.CONFIRMED)
    for old in OPEN:
        check_move(old, S.DISPUTED)
        check_move(old, S.SUPERSEDED)
    check_move(S.CONFIRMED, S.SUPERSEDED)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (S.CONFIRMED, S.PENDING),
        (S.SUPERSEDED, S.PENDING),
        (S.AGREED, S.DISPUTED),
        (S.CONFIRMED, S.DISPUTED),
    ],
)
def test_a_move_outside_the_table_is_refused(old, new):
    with pytest.raises(IllegalMove):
        check_move(old, new)


def test_the_states_keep_their_json_strings():
    assert [s.value for s in ReportState] == [
        "pending",
        "to_check",
        "confirmed",
        "disputed",
        "duplicate",
    ]
    assert TableState.WAITING == "waiting"
    assert f"{ReportState.TO_CHECK}" == "to_check"


def test_every_code_the_results_app_raises_is_declared():
    import re
    from pathlib import Path

    from results.error_codes import ResultsError

    root = Path(__file__).resolve().parents[2] / "results"
    bare = [
        (str(path), code)
        for path in root.rglob("*.py")
        if "migrations" not in path.parts
        for code in re.findall(r"ServiceError\(\s*\"([a-z_]+)\"", path.read_text())
    ]
    assert bare == []
    assert ResultsError.REPORT_CHANGED == "report_changed"
