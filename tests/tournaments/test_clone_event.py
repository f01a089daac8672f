"""Clone an event for another night (issue 28): the weekly night set up in one step, from the
TD's page and the TD API; its settings come along, never its state or results."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from core.errors import ServiceError
from tests.factories import ClubMoneyFactory, SidePoolFactory, UserFactory, event_with_field
from tournaments import services
from tournaments.models import Event
from treasury import services as money
from treasury.models import EventFees, EventPool, Payment

pytestmark = pytest.mark.django_db
NEXT = datetime.date(2026, 12, 3)


@pytest.fixture
def played(td_user):
    """A finished Thursday night of 6 (one withdrawn) with its own settings and fees."""
    club = ClubMoneyFactory(entry_fee=Decimal(5)).club
    club.directors.add(td_user)
    event = event_with_field(6, club=club, name="Thursday Night Ösel", games_planned=3)
    services.set_ranking_chain(event, ["game_points", "games_won", "spread", "head_to_head"])
    event.refresh_from_db()
    pool = SidePoolFactory(club=club, name="29 hand", fee=Decimal(1))
    money.set_event_fees(event, "7.50", {pool.pk: "1"}, user=td_user)
    services.withdraw_entry(event.entries.order_by("pk").last())
    table = services.draw_next_game(event).tables.filter(seat_b__isnull=False).first()
    services.record_result(event, table=table, winner=table.seat_a, loser_score=80)
    return event, pool


def test_a_clone_keeps_the_settings_and_nothing_of_the_night(played):
    event, pool = played
    copy = services.clone_event(event, name="  Thursday  Night Ösel ", date=NEXT)
    assert (copy.name, copy.date, copy.status) == ("Thursday Night Ösel", NEXT, Event.Status.DRAFT)
    for field in services.events.CLONED_SETTINGS:
        assert getattr(copy, field) == getattr(event, field), field
    assert copy.tiebreakers == event.tiebreakers and "head_to_head" in str(copy.tiebreakers)
    assert copy.seed != event.seed and copy.audit_digest == "" and copy.results_version == 0
    assert not copy.rounds.exists() and not copy.entries.exists()
    # The money desk's fees and the pools it ran come along; nobody has paid yet.
    assert EventFees.objects.get(event=copy).entry_fee == Decimal("7.50")
    assert list(EventPool.objects.filter(event=copy).values_list("pool_id", "fee")) == [
        (pool.pk, Decimal("1.00"))
    ]
    assert not Payment.objects.filter(event=copy).exists()


def test_the_same_players_come_along_when_asked(played):
    event, _pool = played
    copy = services.clone_event(event, name="Next", date=NEXT, with_players=True)
    kept = set(event.entries.filter(withdrawn=False).values_list("player_id", flat=True))
    assert set(copy.entries.values_list("player_id", flat=True)) == kept and len(kept) == 5
    assert not copy.entries.filter(checked_in=True).exists()
    with pytest.raises(ServiceError) as exc:
        services.clone_event(event, name="   ", date=NEXT)
    assert exc.value.code == "name_required"


def test_the_td_clones_from_the_event_page(played, td_client, client):
    event, _pool = played
    page = td_client.get(reverse("td-event", args=[event.pk])).content.decode()
    assert 'id="clone-event"' in page and 'value="2026-' in page
    url = reverse("td-clone-event", args=[event.pk])
    response = td_client.post(url, {"name": "Thursday Night Ösel", "date": "2026-12-03"})
    copy = Event.objects.exclude(pk=event.pk).get(club=event.club)
    assert response.status_code == 302 and response.url == reverse("td-event", args=[copy.pk])
    assert copy.date == NEXT and copy.games_planned == 3
    # A missing date is said on the page, and nothing is made.
    td_client.post(url, {"name": "x", "date": ""})
    assert Event.objects.filter(club=event.club).count() == 2
    # Another club's TD: a 404.
    client.force_login(UserFactory())
    assert client.post(url, {"name": "x", "date": "2026-12-03"}).status_code == 404
    assert Event.objects.filter(club=event.club).count() == 2


def test_the_td_api_clones(played, api, td_user):
    event, _pool = played
    api.force_authenticate(td_user)
    url = f"/api/v1/events/{event.pk}/clone/"
    made = api.post(
        url, {"name": "API night", "date": "2026-12-03", "with_players": True}, format="json"
    )
    assert made.status_code == 201
    body = made.json()
    copy = Event.objects.get(pk=body["id"])
    assert (copy.name, copy.entries.count()) == ("API night", 5)
    bad = api.post(url, {"name": "API night", "date": "someday"}, format="json")
    assert bad.status_code == 400
    api.force_authenticate(UserFactory())
    assert api.post(url, {"name": "x", "date": "2026-12-03"}, format="json").status_code == 404


def test_a_retired_pool_does_not_come_along_to_the_next_night(played):
    """A pool the club retired runs no new night: neither a clone nor a template brings it."""
    event, pool = played
    pool.active = False
    pool.save(update_fields=["active"])
    copy = services.clone_event(event, name="After the pool's retirement", date=NEXT)
    assert EventFees.objects.get(event=copy).entry_fee == Decimal("7.50")
    assert not EventPool.objects.filter(event=copy).exists()
