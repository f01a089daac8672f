"""A first Swiss game is a seeded draw, not the field by name; "Draw again" draws from a new
seed recorded on the game, or says why the seating cannot change (issue 22)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from core.errors import ServiceError
from tests.factories import EntryFactory, EventFactory, event_with_field, stoppa_event_with_field
from tournaments import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db

NAMES = ["Ada", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo"]


def _swiss(seed: int) -> Event:
    event = EventFactory(pairing=Event.Pairing.SWISS, seed=seed)
    for name in NAMES:
        EntryFactory(event=event, player__name=name)
    return event


def _pairs_by_name(round_) -> set[frozenset[str]]:
    return {
        frozenset({t.seat_a.player.name, t.seat_b.player.name})
        for t in round_.tables.select_related("seat_a__player", "seat_b__player")
    }


def _pairs(round_) -> set[frozenset[int]]:
    return {frozenset({a, b}) for a, b in round_.tables.values_list("seat_a_id", "seat_b_id")}


ALPHABETICAL = {frozenset(NAMES[i : i + 2]) for i in range(0, len(NAMES), 2)}


def test_the_first_swiss_game_is_a_seeded_draw_not_the_field_by_name():
    first = _pairs_by_name(services.draw_next_game(_swiss(seed=7)))
    assert first != ALPHABETICAL
    assert len(first & ALPHABETICAL) <= 1  # not the alphabetical order with a swap or two
    # The same seed draws the same first game; another seed another one.
    assert _pairs_by_name(services.draw_next_game(_swiss(seed=7))) == first
    assert _pairs_by_name(services.draw_next_game(_swiss(seed=8))) != first


def test_the_first_swiss_game_drawn_again_takes_a_new_seed():
    event = _swiss(seed=7)
    first = services.draw_next_game(event, draft=True)
    before = _pairs(first)
    again = services.redraw_game(first)
    assert again.seed != first.seed and _pairs(again) != before
    again.refresh_from_db()
    assert again.is_draft


def _play(event, round_) -> None:
    for table in round_.tables.filter(seat_b__isnull=False):
        services.record_result(event, table=table, winner=table.seat_a, loser_score=90)


def test_a_later_swiss_game_drawn_again_says_why_it_is_the_same():
    event = _swiss(seed=7)
    _play(event, services.draw_next_game(event))
    second = services.draw_next_game(event, draft=True)
    seed, pairs = second.seed, _pairs(second)
    with pytest.raises(ServiceError) as caught:
        services.redraw_game(second)
    assert caught.value.code == "same_draw"
    assert "paired by the standings (Swiss)" in caught.value.message
    assert "Swap seats by hand" in caught.value.message
    kept = event.rounds.get(number=2)
    assert (kept.pk, kept.seed, _pairs(kept)) == (second.pk, seed, pairs)  # left as it was


def test_a_later_qualifying_game_keeps_the_movement_and_says_so():
    event = event_with_field(10, seed=99)
    _play(event, services.draw_next_game(event))
    second = services.draw_next_game(event, draft=True)
    with pytest.raises(ServiceError) as caught:
        services.redraw_game(second)
    assert caught.value.code == "same_draw"
    assert "table movement begun in game 1" in caught.value.message
    assert event.rounds.get(number=2).seed == second.seed


def test_qualifying_game_1_drawn_again_starts_a_new_movement_that_game_2_continues():
    event = event_with_field(10, seed=99)
    first = services.draw_next_game(event)
    again = services.redraw_game(first)
    assert again.seed != first.seed and _pairs(again) != _pairs(first)
    _play(event, again)
    second = services.draw_next_game(event)
    # Game 2 continues the movement of the game 1 that was played: its seed, no repeat.
    assert (second.seed, second.method) == (again.seed, "movement")
    assert not _pairs(second) & _pairs(again)


def test_a_stoppa_session_drawn_again_takes_a_new_seed():
    event = stoppa_event_with_field(8)
    draft = services.draw_next_game(event, draft=True)
    again = services.redraw_game(draft)
    assert again.seed != draft.seed


def test_draw_again_on_the_game_page_names_the_new_seed_or_the_reason(client, td_user):
    client.force_login(td_user)
    event = _swiss(seed=7)
    event.club.directors.add(td_user)
    services.draw_next_game(event, draft=True)
    url = reverse("td-redraw", args=[event.pk, 1])
    body = client.post(url, follow=True).content.decode()
    seed = event.rounds.get(number=1).seed
    assert f"Game 1 drawn again from a new seed ({seed})." in body
    services.release_game(event.rounds.get(number=1))
    _play(event, event.rounds.get(number=1))
    services.draw_next_game(event, draft=True)
    body = client.post(reverse("td-redraw", args=[event.pk, 2]), follow=True).content.decode()
    assert "paired by the standings (Swiss)" in body


@pytest.mark.parametrize("pairing", [Event.Pairing.SWISS, Event.Pairing.QUALIFYING])
def test_a_small_field_drawn_again_always_gets_a_new_seating(pairing):
    # Four players have three seatings: one seed in three draws the same by chance, so
    # "Draw again" tries further seeds before it says no other seating exists (five were too
    # few: this test failed about one run in twenty).
    event = event_with_field(4, pairing=pairing)
    round_ = services.draw_next_game(event, draft=True)
    for _ in range(12):
        again = services.redraw_game(round_)
        assert _pairs(again) != _pairs(round_)
        round_ = again


def test_two_players_drawn_again_are_told_no_other_seating_exists():
    event = event_with_field(2, pairing=Event.Pairing.SWISS)
    first = services.draw_next_game(event, draft=True)
    with pytest.raises(ServiceError) as caught:
        services.redraw_game(first)
    assert caught.value.code == "same_draw"
    assert "no other keeps the rules" in caught.value.message
    assert event.rounds.get(number=1).seed == first.seed
