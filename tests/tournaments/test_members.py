"""Members and guests (issue 27): a membership per club and season with a checked ACC number,
and the ACC guest rule at the door: 4 nights or a 12-point card, then the guest must join."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from core.errors import ServiceError
from tests.factories import ClubFactory, PlayerFactory
from tests.scoring.test_seasons import night
from tournaments.models import Player
from tournaments.selectors_members import guest_status, season_dates
from tournaments.services.members import save_membership, set_guest_rule

pytestmark = pytest.mark.django_db
OCT = datetime.date(2026, 10, 6)
WEEK = datetime.timedelta(days=7)


@pytest.fixture
def club():
    club = ClubFactory(name="Peg City")
    # The club keeps a roll: whoever has no membership for the season is a guest.
    save_membership(
        club,
        PlayerFactory(name="Ann Whitfield", home_club=club),
        acc_number="A-10234",
        dues_paid="25.00",
        paid_on=datetime.date(2026, 9, 2),
        member_since=datetime.date(2019, 9, 1),
        season_start=datetime.date(2026, 9, 1),
        season_end=datetime.date(2027, 5, 31),
    )
    return club


def test_a_membership_keeps_its_number_dues_and_dates(club):
    ann = Player.objects.get(name="Ann Whitfield")
    row = ann.memberships.get()
    assert (row.acc_number, row.dues_paid, row.paid_on) == (
        "A-10234",
        Decimal("25.00"),
        datetime.date(2026, 9, 2),
    )
    assert ann.acc_number == "A-10234"  # a player without a number is given the member's
    status = guest_status(club, ann, OCT)
    assert (status.is_member, status.must_join, status.label) == (True, False, "Member")
    assert not guest_status(club, ann, datetime.date(2027, 10, 6)).is_member  # next season


@pytest.mark.parametrize("bad", ["12 345", "ABCD-1", "-", "x", "12345678901234567890123"])
def test_a_badly_formed_acc_number_is_refused_with_its_code(club, bad):
    zoe = PlayerFactory(name="Zoë Lindqvist", home_club=club)
    with pytest.raises(ServiceError) as refused:
        save_membership(club, zoe, acc_number=bad)
    assert (refused.value.code, refused.value.field) == ("bad_acc_number", "acc_number")
    assert not zoe.memberships.exists()


def test_a_number_held_by_another_player_is_refused(club):
    zoe = PlayerFactory(name="Zoë Lindqvist", home_club=club)
    with pytest.raises(ServiceError) as refused:
        save_membership(club, zoe, acc_number="A-10234")
    assert refused.value.code == "acc_number_taken"


def test_a_guest_plays_four_nights_then_must_join(club):
    bob = PlayerFactory(name="Bob Ørsted", home_club=club)
    status = guest_status(club, bob, OCT)
    assert (status.is_member, status.nights_played, status.label) == (False, 0, "Guest 0/4")
    for week in range(3):
        night(club, OCT + week * WEEK, bob, 5, 4)  # 10 game points: no qualifying card
    status = guest_status(club, bob, OCT + 3 * WEEK)
    assert (status.nights_played, status.best_game_points) == (3, 10)
    assert (status.must_join, status.label) == (False, "Guest 3/4")
    night(club, OCT + 3 * WEEK, bob, 5, 4)
    status = guest_status(club, bob, OCT + 4 * WEEK)
    assert (status.nights_played, status.must_join, status.label) == (4, True, "Must join")
    assert status.reason == "played 4 nights of the 4 a guest may play"
    # Nights of the season before count no more in the next one.
    assert guest_status(club, bob, datetime.date(2027, 10, 1)).nights_played == 0


def test_a_qualifying_card_of_twelve_points_makes_a_guest_join_at_once(club):
    cy = PlayerFactory(name="Cy Ng", home_club=club)
    night(club, OCT, cy, 6, 3)  # 12 game points in one night: a qualifying card
    status = guest_status(club, cy, OCT + WEEK)
    assert (status.nights_played, status.best_game_points) == (1, 12)
    assert (status.qualifying_card, status.must_join, status.label) == (True, True, "Must join")
    assert status.reason == "a qualifying card: 12 game points in one night"


def test_the_club_sets_its_own_guest_rule(club):
    cy = PlayerFactory(name="Cy Ng", home_club=club)
    night(club, OCT, cy, 6, 3)
    set_guest_rule(club, nights=2, card_points=14)
    status = guest_status(club, cy, OCT + WEEK)
    assert (status.must_join, status.label) == (False, "Guest 1/2")
    with pytest.raises(ServiceError) as refused:
        set_guest_rule(club, nights=0, card_points=12)
    assert refused.value.code == "bad_guest_rule"


def test_a_club_without_a_roll_reads_the_players_status():
    club = ClubFactory()
    ann = PlayerFactory(home_club=club)
    guest = PlayerFactory(home_club=club, status=Player.Status.GUEST)
    assert guest_status(club, ann, OCT).is_member
    assert not guest_status(club, guest, OCT).is_member


def test_seasons_run_september_to_may():
    assert season_dates(OCT) == (datetime.date(2026, 9, 1), datetime.date(2027, 5, 31))
    assert season_dates(datetime.date(2027, 3, 1))[0] == datetime.date(2026, 9, 1)


def test_the_door_shows_the_guests_badges(td_client, td_user, club):
    from django.urls import reverse

    from tests.factories import EntryFactory, EventFactory

    club.directors.add(td_user)
    bob = PlayerFactory(name="Bob Ørsted", home_club=club)
    cy = PlayerFactory(name="Cy Ng", home_club=club)
    for week in range(3):
        night(club, OCT + week * WEEK, bob, 5, 4)
    night(club, OCT, cy, 6, 3)
    tonight = EventFactory(club=club, date=OCT + 3 * WEEK)
    for player in (Player.objects.get(name="Ann Whitfield"), bob, cy):
        EntryFactory(event=tonight, player=player)
    body = td_client.get(reverse("td-event", args=[tonight.pk])).content.decode()
    assert 'text-bg-info">Guest 3/4</span>' in body
    assert 'title="a qualifying card: 12 game points in one night">Must join</span>' in body
    ann_row = body.split("Ann Whitfield")[1].split("</td>")[0]
    assert "badge" not in ann_row  # a member has no badge


def test_the_members_page_adds_a_member_and_refuses_a_bad_number(td_client, td_user, club):
    from django.urls import reverse

    club.directors.add(td_user)
    zoe = PlayerFactory(name="Zoë Ștefănescu", home_club=club)
    url = reverse("td-members", args=[club.pk])
    page = td_client.get(url).content.decode()
    assert "Ann Whitfield" in page and "A-10234" in page
    refused = td_client.post(url, {"player": zoe.pk, "acc_number": "12 34", "dues_paid": "20"})
    assert refused.status_code == 400
    assert "12 34 is not an ACC member number" in refused.content.decode()
    assert not zoe.memberships.exists()
    made = td_client.post(
        url,
        {
            "player": zoe.pk,
            "acc_number": "RO-7781",
            "dues_paid": "20.00",
            "season_start": "2026-09-01",
            "season_end": "2027-05-31",
        },
    )
    assert made.status_code == 302
    assert zoe.memberships.get().acc_number == "RO-7781"
    assert "Zoë Ștefănescu" in td_client.get(url).content.decode()
    rule = td_client.post(
        reverse("td-guest-rule", args=[club.pk]),
        {"guest_nights_allowed": "3", "qualifying_card_points": "14"},
    )
    assert rule.status_code == 302
    club.refresh_from_db()
    assert (club.guest_nights_allowed, club.qualifying_card_points) == (3, 14)


def test_the_door_refuses_a_badly_formed_acc_number(td_client, td_user, club):
    from django.urls import reverse

    from tests.factories import EventFactory

    club.directors.add(td_user)
    event = EventFactory(club=club, date=OCT)
    page = td_client.post(
        reverse("td-register", args=[event.pk]),
        {"name": "Zoë Lindqvist", "acc_number": "12 34", "status": "member"},
    )
    assert page.status_code == 400
    assert "12 34 is not an ACC member number" in page.content.decode()
    assert not event.entries.exists()
