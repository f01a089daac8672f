"""The treasurer: a club's money staff who opens the money desk, the payout sheet, the
ledger, the club money page and the treasury API of their club, and nothing else: not
another club's books, not the TD's pairing and results pages. The TDs keep everything."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import Season
from tests.factories import ClubMoneyFactory, UserFactory, event_with_field
from tournaments import services as tournament_services
from tournaments.models import AuditEntry
from treasury import access, services
from treasury.models import ClubRole, ClubStaff, Payment

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(td_user):
    money = ClubMoneyFactory(entry_fee=Decimal(10))
    event = event_with_field(4, club=money.club, name="Soirée")
    event.club.directors.add(td_user)
    tournament_services.draw_next_game(event)
    return event


@pytest.fixture
def treasurer(night):
    user = UserFactory(username="tesorière")
    services.set_club_role(night.club, "tesorière", ClubRole.TREASURER)
    return user


@pytest.fixture
def elsewhere():
    """Another club's night, with its own money."""
    money = ClubMoneyFactory()
    return event_with_field(4, club=money.club, name="Elsewhere")


def _money_pages(event) -> list[str]:
    season = Season.objects.create(
        club=event.club,
        name="2026",
        start=event.date.replace(month=1, day=1),
        end=event.date.replace(month=12, day=31),
    )
    return [
        reverse("money-desk", args=[event.pk]),
        reverse("money-sheet", args=[event.pk]),
        reverse("club-money", args=[event.club_id]),
        reverse("money-season", args=[event.club_id]),
        reverse("money-season-csv", args=[event.club_id, season.pk]),
        reverse("money-home"),
    ]


def _money_api(event) -> list[str]:
    return [
        f"/api/v1/events/{event.pk}/fees/",
        f"/api/v1/events/{event.pk}/payouts/",
        f"/api/v1/events/{event.pk}/ledger/",
    ]


def test_the_treasurer_opens_the_money_pages_and_api_of_their_club(client, night, treasurer):
    client.force_login(treasurer)
    for url in _money_pages(night):
        assert client.get(url).status_code == 200, url
    desk = client.get(reverse("money-desk", args=[night.pk])).content.decode()
    # No link to the TD's event page, which they cannot open.
    assert f'href="{reverse("td-event", args=[night.pk])}"' not in desk
    entry = night.entries.first()
    marked = client.post(reverse("money-pay", args=[night.pk, entry.pk]), {"status": "paid"})
    assert marked.status_code == 302
    assert Payment.objects.get(entry=entry).amount == Decimal("10.00")
    api = APIClient()
    api.force_authenticate(treasurer)
    for url in _money_api(night):
        assert api.get(url).status_code == 200, url
    paid = api.patch(
        f"/api/v1/events/{night.pk}/entries/{entry.pk}/payment/",
        {"status": "waived"},
        format="json",
    )
    assert paid.status_code == 200 and paid.json()["status"] == "waived"


def test_the_treasurer_is_refused_another_clubs_books(client, night, treasurer, elsewhere):
    client.force_login(treasurer)
    for url in _money_pages(elsewhere)[:-1]:  # money-home is theirs, listing their clubs only
        assert client.get(url).status_code == 404, url
    home = client.get(reverse("money-home")).content.decode()
    assert night.club.name in home and elsewhere.club.name not in home
    entry = elsewhere.entries.first()
    refused = client.post(reverse("money-pay", args=[elsewhere.pk, entry.pk]), {"status": "paid"})
    assert refused.status_code == 404 and not Payment.objects.filter(entry=entry).exists()
    api = APIClient()
    api.force_authenticate(treasurer)
    for url in _money_api(elsewhere):
        assert api.get(url).status_code == 404, url


def test_the_treasurer_is_refused_the_td_pages_and_api(client, night, treasurer):
    client.force_login(treasurer)
    td_pages = [
        reverse("td-event", args=[night.pk]),
        reverse("td-club", args=[night.club_id]),
        reverse("td-game", args=[night.pk, 1]),
    ]
    for url in td_pages:
        assert client.get(url).status_code in (403, 404), url
    assert client.post(reverse("td-draw", args=[night.pk])).status_code in (403, 404)
    assert client.post(reverse("td-finish", args=[night.pk])).status_code in (403, 404)
    # A treasurer does not appoint treasurers: that is the TDs' page.
    appoint = client.post(
        reverse("club-treasurer", args=[night.club_id]), {"username": "tesorière"}
    )
    assert appoint.status_code == 404
    api = APIClient()
    api.force_authenticate(treasurer)
    assert api.get(f"/api/v1/events/{night.pk}/games/1/").status_code == 404
    assert api.post(f"/api/v1/events/{night.pk}/finish/").status_code == 404


def test_the_td_keeps_everything_and_names_a_treasurer(td_client, night):
    for url in _money_pages(night):
        assert td_client.get(url).status_code == 200, url
    assert td_client.get(reverse("td-event", args=[night.pk])).status_code == 200
    UserFactory(username="ioana")
    url = reverse("club-treasurer", args=[night.club_id])
    assert td_client.post(url, {"username": "ioana", "action": "add"}).status_code == 302
    staff = ClubStaff.objects.get(club=night.club)
    assert (staff.user.username, staff.role) == ("ioana", "treasurer")
    page = td_client.get(reverse("club-money", args=[night.club_id])).content.decode()
    assert "ioana" in page and "Name a treasurer" in page
    assert td_client.post(url, {"username": "ioana", "action": "remove"}).status_code == 302
    assert not ClubStaff.objects.exists()
    unknown = td_client.post(url, {"username": "nobody", "action": "add"}, follow=True)
    assert "No such user." in unknown.content.decode()


def test_money_clubs_are_the_directed_and_the_treasured(night, treasurer, elsewhere, td_user):
    assert list(access.money_clubs(treasurer)) == [night.club]
    elsewhere.club.directors.add(treasurer)
    assert set(access.money_clubs(treasurer)) == {night.club, elsewhere.club}
    assert access.directs(treasurer, elsewhere.club) and not access.directs(treasurer, night.club)
    assert list(access.money_clubs(td_user)) == [night.club]


def test_a_treasurer_checks_players_in_only_before_the_first_draw(client, td_user, treasurer):
    """Issue 34, item 5: a treasurer checked players out of a running event, unaudited."""
    money = ClubMoneyFactory(entry_fee=Decimal(10))
    event = event_with_field(4, club=money.club, name="Mardi")
    event.club.directors.add(td_user)
    services.set_club_role(event.club, "tesorière", ClubRole.TREASURER)
    first, second = list(event.entries.order_by("pk")[:2])
    event.entries.update(checked_in=False)
    client.force_login(treasurer)
    url = f"/td/events/{event.pk}/money/entries/{first.pk}/check-in/"
    client.post(url, {"here": "1"})
    first.refresh_from_db()
    assert first.checked_in
    logged = AuditEntry.objects.get(event=event, action="checked_in")
    assert logged.actor == "tesorière" and logged.new == {"player": first.name, "checked_in": True}
    for entry in event.entries.all():
        tournament_services.set_checked_in(entry, True, user=td_user)
    tournament_services.draw_next_game(event)
    client.post(url, {"here": "0"})
    first.refresh_from_db()
    assert first.checked_in  # refused: after the draw, who plays is the TD's
    assert not AuditEntry.objects.filter(event=event, action="checked_out").exists()
    client.force_login(td_user)
    client.post(f"/td/events/{event.pk}/money/entries/{second.pk}/check-in/", {"here": "0"})
    second.refresh_from_db()
    assert not second.checked_in
    assert AuditEntry.objects.get(event=event, action="checked_out").actor == "director"
