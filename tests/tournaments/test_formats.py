"""Match-point formats are data: built in, per club, locked once a finished event used them."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tests.factories import EventFactory, event_with_field
from tournaments import services
from tournaments.models import Event, MatchPointFormat
from tournaments.services import copy_format

pytestmark = pytest.mark.django_db


def test_the_four_builtin_formats():
    rows = {
        f.code: (f.win, f.skunk, f.double_skunk, f.triple_skunk, f.triple_skunk_wins_match)
        for f in MatchPointFormat.objects.filter(builtin=True)
    }
    assert rows == {
        "acc": (2, 3, 3, 3, False),
        "long-match": (3, 4, 4, 4, False),
        "free-play": (1, 2, 3, 3, False),
        "free-play-triple": (1, 2, 4, 4, True),
    }


def test_a_format_used_by_a_finished_event_is_locked_and_can_be_copied():
    fmt = copy_format(MatchPointFormat.objects.get(code="long-match"))
    assert (fmt.code, fmt.win, fmt.skunk, fmt.builtin) == ("long-match-copy", 3, 4, False)
    fmt.win, fmt.skunk, fmt.double_skunk, fmt.triple_skunk = 4, 5, 5, 5
    fmt.save()  # not used yet: a club may still edit it
    EventFactory(match_point_format=fmt, status=Event.Status.FINISHED)
    fmt.refresh_from_db()
    assert fmt.locked
    fmt.win = 1
    with pytest.raises(ValidationError, match="copy it"):
        fmt.save()
    assert copy_format(fmt).code == "long-match-copy-copy"


def test_a_short_game_to_61_uses_its_own_skunk_line():
    fmt = copy_format(MatchPointFormat.objects.get(code="free-play"))
    event = event_with_field(2, target=61, match_point_format=fmt)
    table = services.draw_next_game(event).tables.get()
    result = services.record_result(event, table=table, winner=table.seat_a, loser_score=30)
    assert (result.winner_points, result.margin, result.skunk_level) == (2, 31, 1)
    result = services.record_result(
        event, table=table, winner=table.seat_a, loser_score=31, reason="Miscounted crib"
    )
    assert (result.winner_points, result.margin, result.skunk_level) == (1, 30, 0)
