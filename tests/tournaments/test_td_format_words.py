"""What the TD's pages say about the event's format: no hint that cannot be followed, no two
settings worded alike, no qualifying asked of an event that has none (issue 22)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import event_with_field, stoppa_event_with_field
from tournaments import selectors, services
from tournaments.forms import EventForm
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def _directed(event: Event, td_user) -> Event:
    event.club.directors.add(td_user)
    return event


def test_a_draft_game_page_does_not_tell_the_td_to_press_enter(td_client, td_user):
    event = _directed(event_with_field(4), td_user)
    services.draw_next_game(event, draft=True)
    body = td_client.get(reverse("td-game", args=[event.pk, 1])).content.decode()
    assert "no result can be entered" in body
    assert "press Enter" not in body
    services.release_game(event.rounds.get(number=1))
    body = td_client.get(reverse("td-game", args=[event.pk, 1])).content.decode()
    assert "press Enter" in body  # released: entry is open and the hint is true


def test_a_draft_stoppa_session_does_not_tell_the_td_to_press_enter(td_client, td_user):
    event = _directed(stoppa_event_with_field(8), td_user)
    services.draw_next_game(event, draft=True)
    body = td_client.get(reverse("td-session", args=[event.pk, 1])).content.decode()
    assert "no result can be entered" in body
    assert "Enter saves the table" not in body


def test_kind_of_event_and_seating_method_are_worded_apart():
    kinds = dict(Event.Kind.choices)
    pairings = dict(Event.Pairing.choices)
    assert not set(map(str, kinds.values())) & set(map(str, pairings.values()))
    assert str(kinds[Event.Kind.ROUND_ROBIN]) == "Round-robin event (no playoff)"
    assert str(pairings[Event.Pairing.ROUND_ROBIN]) == "Round robin: everyone plays everyone"


def test_the_new_event_form_offers_no_label_twice(td_client, td_user):
    event = _directed(event_with_field(2), td_user)
    form = EventForm(club=event.club)
    labels = [str(label) for label in dict(form.fields["kind"].choices).values()]
    labels += [str(label) for label in dict(form.fields["pairing"].choices).values()]
    assert len(labels) == len(set(labels))


@pytest.mark.parametrize("kind", [Event.Kind.PLAYOFF_ONLY, Event.Kind.INTERNET])
def test_a_playoff_only_event_offers_the_playoff_not_game_1(td_client, td_user, kind):
    event = _directed(event_with_field(8, kind=kind, status=Event.Status.DRAFT), td_user)
    body = td_client.get(reverse("td-event", args=[event.pk])).content.decode()
    assert "Start: draw game 1" not in body
    assert "game 0 of 9" not in body
    assert "Cut to the playoff" in body
    assert "Qualifying draw (table movement)" not in body  # no games to seat
    actions = selectors.td_actions(event, None, has_bracket=False)
    assert (actions.draw, actions.cut) == (False, True)


def test_a_playoff_only_event_is_not_asked_for_a_number_of_games(td_client, td_user):
    event = _directed(event_with_field(8, kind=Event.Kind.PLAYOFF_ONLY), td_user)
    body = td_client.get(reverse("td-event-settings", args=[event.pk])).content.decode()
    assert 'type="hidden" name="games_planned"' in body
    assert "Number of games" not in body
    assert 'name="pairing" value=' in body and "How games are seated" not in body
    # A club night is asked both.
    night = _directed(event_with_field(8), td_user)
    body = td_client.get(reverse("td-event-settings", args=[night.pk])).content.decode()
    assert "Number of games" in body and "How games are seated" in body


def test_choosing_playoff_only_redraws_the_form_without_the_games(td_client, td_user):
    event = _directed(event_with_field(8), td_user)
    url = reverse("td-event-settings", args=[event.pk])
    body = td_client.get(url).content.decode()
    assert 'hx-vals="{&quot;chain_op&quot;: &quot;kind&quot;}"' in body  # a change re-renders
    data = {
        **{k: v for k, v in EventForm.initial_for(event.club, event).items() if v is not None},
        "kind": Event.Kind.PLAYOFF_ONLY,
        "chain_op": "kind",
        "date": event.date.isoformat(),
    }
    data.pop("tiebreakers")
    response = td_client.post(url, data, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert "Number of games" not in body
    event.refresh_from_db()
    assert event.kind == Event.Kind.CLUB_NIGHT  # shown, not saved


def test_drawing_a_game_of_a_playoff_only_event_is_refused_with_the_reason():
    from core.errors import ServiceError

    event = event_with_field(8, kind=Event.Kind.PLAYOFF_ONLY)
    with pytest.raises(ServiceError) as caught:
        services.draw_next_game(event)
    assert caught.value.code == "playoff_only"
    assert "draw the playoff instead" in caught.value.message
    assert not event.rounds.exists()


def test_the_public_page_of_a_playoff_only_event_plans_no_games(client):
    event = event_with_field(8, kind=Event.Kind.PLAYOFF_ONLY, status=Event.Status.RUNNING)
    body = client.get(reverse("event", args=[event.pk])).content.decode()
    assert "9 games to 121" not in body
    assert "Playoff only · to 121" in body
