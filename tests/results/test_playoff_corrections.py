"""Correcting a playoff game: a warning that lists the matches it resets, then the reset."""

from __future__ import annotations

import pytest

from pegboard.errors import ServiceError
from results import services
from tests.factories import UserFactory, event_with_field
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, Event, PlayoffGame

pytestmark = pytest.mark.django_db


def play_match(event, code, winner_seat="a"):
    match = event.bracket.matches.get(code=code)
    winner = match.seat_a if winner_seat == "a" else match.seat_b
    while not event.bracket.matches.get(code=code).decided:
        tournament_services.record_playoff_game(event, match=code, winner=winner, loser_score=99)
    return winner


def test_a_correction_resets_the_matches_it_fed_after_a_warning():
    event = event_with_field(8, kind=Event.Kind.PLAYOFF_ONLY)
    tournament_services.create_playoff(event)
    first = event.bracket.matches.get(code="M1-1")
    play_match(event, "M1-1", "a")
    play_match(event, "M1-2", "a")
    semifinal = event.bracket.matches.get(code=first.winner_to.split(":")[0])
    assert semifinal.ready
    tournament_services.record_playoff_game(
        event, match=semifinal.code, winner=semifinal.seat_a, loser_score=100
    )
    td = UserFactory()
    with pytest.raises(ServiceError) as caught:
        services.correct_playoff_game(
            event,
            match="M1-1",
            game_number=1,
            user=td,
            winner=first.seat_b,
            loser_score=98,
            reason="Wrong winner",
        )
    assert caught.value.code == "resets_later_matches" and semifinal.code in caught.value.message
    assert PlayoffGame.objects.filter(match__code=semifinal.code).count() == 1

    reset = services.correct_playoff_game(
        event,
        match="M1-1",
        game_number=1,
        user=td,
        winner=first.seat_b,
        loser_score=98,
        reason="Wrong winner",
        reset_later=True,
    )
    assert reset == [semifinal.code]
    assert not PlayoffGame.objects.filter(match__code=semifinal.code).exists()
    corrected = PlayoffGame.objects.get(match__code="M1-1", number=1)
    assert (corrected.winner_id, corrected.loser_score) == (first.seat_b_id, 98)
    entry = AuditEntry.objects.get(action="playoff_corrected")
    assert entry.new["reset"] == [semifinal.code] and entry.reason == "Wrong winner"


def test_a_playoff_correction_needs_a_reason():
    event = event_with_field(4, kind=Event.Kind.PLAYOFF_ONLY)
    tournament_services.create_playoff(event)
    match = event.bracket.matches.filter(seat_a__isnull=False, seat_b__isnull=False).first()
    tournament_services.record_playoff_game(
        event, match=match.code, winner=match.seat_a, loser_score=90
    )
    with pytest.raises(ServiceError) as caught:
        services.correct_playoff_game(
            event,
            match=match.code,
            game_number=1,
            user=None,
            winner=match.seat_b,
            loser_score=90,
            reason="",
        )
    assert caught.value.code == "reason_required"
