"""Ties at the cut line: the ranking chain, then a recorded draw of lots the TD confirms."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from core.errors import ServiceError
from scoring.services import recompute_standings
from tests.factories import EntryFactory, EventFactory, RoundFactory
from tournaments import services
from tournaments.models import Bracket, Event, Table

pytestmark = pytest.mark.django_db

WINNERS = ["Sam", "Uma", "Ava", "Rex"]


@pytest.fixture
def tied_night():
    """8 entrants, 2 to qualify: four tie at 2 GP / 1 win / +20 after game 1."""
    event = EventFactory(
        kind=Event.Kind.SANCTIONED, games_planned=1, seed=4242, status=Event.Status.RUNNING
    )
    losers = ["Bo", "Cy", "Di", "Ed"]
    by_name = {n: EntryFactory(event=event, player__name=n) for n in [*WINNERS, *losers]}
    round_ = RoundFactory(event=event, number=1)
    for i, (winner, loser) in enumerate(zip(WINNERS, losers, strict=True), start=1):
        table = Table.objects.create(
            round=round_, number=i, seat_a=by_name[loser], seat_b=by_name[winner]
        )
        services.record_result(event, table=table, winner=by_name[winner], loser_score=101)
    recompute_standings(event.pk)
    return event, by_name


def lots_order(event, entries) -> list[int]:
    """The draw of lots of tournaments.tiebreakers.DrawOfLots, by hand: highest value first."""
    value = {e.pk: random.Random(f"{event.seed}:lots:{e.pk}").random() for e in entries}
    return sorted(value, key=value.__getitem__, reverse=True)


def test_fixture_really_ties_four_across_the_line(tied_night):
    event, by_name = tied_night
    from scoring.selectors import standings_for_event

    rows = list(standings_for_event(event.pk))
    top = [(r.entry.player.name, r.rank, r.game_points, r.games_won, r.spread) for r in rows[:4]]
    assert {name for name, *_ in top} == set(WINNERS)
    assert {tuple(t[1:]) for t in top} == {(1, 2, 1, 20)}


def test_a_tie_across_the_cut_line_waits_for_the_tds_confirmation(tied_night):
    event, by_name = tied_night
    with pytest.raises(ServiceError) as refused:
        services.create_playoff(event, qualifiers=2)
    assert refused.value.code == "cut_tie" and refused.value.field == "confirm_lots"
    order = lots_order(event, [by_name[n] for n in WINNERS])
    names = {e.pk: e.player.name for e in by_name.values()}
    through = ", ".join(names[pk] for pk in order[:2])
    assert f"The draw of lots puts through: {through}." in refused.value.message
    assert not Bracket.objects.filter(event=event).exists()


def test_the_confirmed_cut_follows_the_recorded_draw_of_lots(tied_night):
    event, by_name = tied_night
    bracket = services.create_playoff(event, qualifiers=2, confirm_lots=True)
    order = lots_order(event, [by_name[n] for n in WINNERS])
    assert bracket.seeds == order[:2]  # never alphabetical: the draw decides
    assert bracket.cut_lots == [
        {
            "rank": 1,
            "straddles": True,
            "entries": [
                {"entry": pk, "lot": i + 1, "qualified": i < 2} for i, pk in enumerate(order)
            ],
        }
    ]
    # Reproducible: the same seed draws the same lots.
    assert lots_order(event, [by_name[n] for n in reversed(WINNERS)]) == order


def test_the_td_confirms_on_the_page_and_everyone_sees_who_drew_what(tied_night, client, td_user):
    event, by_name = tied_night
    event.club.directors.add(td_user)
    client.force_login(td_user)
    url = reverse("td-playoff", args=[event.pk])
    form = {"source": "qualifying", "qualifiers": "2", "best_of": "3"}
    refused = client.post(url, form)
    body = refused.content.decode()
    assert refused.status_code == 400
    assert "tie for the last places across the cut line" in body
    assert 'name="confirm_lots"' in body  # the box to confirm, beside the explanation
    assert client.post(url, form | {"confirm_lots": "on"}).status_code == 302
    public = client.get(reverse("event-bracket", args=[event.pk])).content.decode()
    order = lots_order(event, [by_name[n] for n in WINNERS])
    first = next(e.player.name for e in by_name.values() if e.pk == order[0])
    assert "Ties at the cut settled by a draw of lots" in public
    assert f"{first} drew lot 1 (qualified)" in public


def test_ties_inside_the_qualifiers_are_seeded_by_lots_without_asking(tied_night):
    event, by_name = tied_night
    bracket = services.create_playoff(event, qualifiers=4)  # all four through: no question
    order = lots_order(event, [by_name[n] for n in WINNERS])
    assert bracket.seeds == order
    assert bracket.cut_lots[0]["straddles"] is False
