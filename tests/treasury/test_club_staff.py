"""Appointing a treasurer from the club money page (issue 33, item 14): a TD names them by
name and e-mail, an account is made with a set-password link that works (follow it, choose a
password, log in, open the club's books); a club with no season makes one on its season
books page."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from scoring.models import Season
from tests.factories import ClubMoneyFactory, UserFactory
from treasury.models import ClubAudit, ClubRole, ClubStaff

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(td_user):
    found = ClubMoneyFactory(entry_fee=Decimal(10)).club
    found.directors.add(td_user)
    return found


def test_a_td_appoints_a_treasurer_who_sets_a_password_and_opens_the_books(td_client, club, client):
    url = reverse("club-treasurer-new", args=[club.pk])
    page = td_client.post(url, {"name": "Ștefan Pop", "email": "stefan@example.org"})
    assert page.status_code == 200
    body = page.content.decode()
    assert 'id="set-password-link"' in body
    link = re.search(r'href="(http://testserver/accounts/reset/[^"]+)"', body).group(1)
    account = get_user_model().objects.get(email="stefan@example.org")
    assert (account.username, account.first_name, account.last_name) == ("stefan", "Ștefan", "Pop")
    assert not account.has_usable_password()
    assert ClubStaff.objects.filter(club=club, user=account, role=ClubRole.TREASURER).exists()
    assert len(mail.outbox) == 1 and link in mail.outbox[0].body
    assert mail.outbox[0].to == ["stefan@example.org"]
    log = ClubAudit.objects.get(club=club, action="staff_added")
    assert (log.actor, log.new["email"], log.new["new_account"]) == (
        "director",
        "stefan@example.org",
        True,
    )

    td_client.logout()
    form = client.get(link, follow=True)
    assert form.status_code == 200 and "Choose your password" in form.content.decode()
    set_url = form.redirect_chain[-1][0]
    done = client.post(
        set_url, {"new_password1": "a long Tuesday 29!", "new_password2": "a long Tuesday 29!"}
    )
    assert done.status_code == 302
    assert client.get(done.url).status_code == 200
    login = client.post(reverse("login"), {"username": "stefan", "password": "a long Tuesday 29!"})
    assert login.status_code == 302
    books = client.get(reverse("club-money", args=[club.pk]))
    assert books.status_code == 200 and club.name in books.content.decode()
    assert client.get(link, follow=True).context["validlink"] is False  # used once


def test_only_a_td_appoints_and_bad_input_is_said_beside_the_field(client, td_client, club):
    url = reverse("club-treasurer-new", args=[club.pk])
    refused = td_client.post(url, {"name": "", "email": "nope"})
    assert refused.status_code == 400
    assert 'id="appoint-treasurer"' in refused.content.decode()
    treasurer = UserFactory(username="tess")
    ClubStaff.objects.create(club=club, user=treasurer, role=ClubRole.TREASURER)
    client.force_login(treasurer)
    assert client.post(url, {"name": "X", "email": "x@example.org"}).status_code == 404
    assert (
        'id="appoint-treasurer"'
        not in client.get(reverse("club-money", args=[club.pk])).content.decode()
    )


def test_an_existing_account_is_named_without_a_link_for_the_td(td_client, club):
    UserFactory(username="ann", email="ann@example.org")
    page = td_client.post(
        reverse("club-treasurer-new", args=[club.pk]), {"name": "Ann", "email": "ann@example.org"}
    )
    assert page.status_code == 302
    assert ClubStaff.objects.filter(club=club, user__username="ann").exists()
    assert mail.outbox == []  # she has a password already


def test_a_treasurer_makes_the_clubs_first_season_on_the_season_books_page(client, club):
    treasurer = UserFactory(username="tess")
    ClubStaff.objects.create(club=club, user=treasurer, role=ClubRole.TREASURER)
    client.force_login(treasurer)
    page = client.get(reverse("money-season", args=[club.pk])).content.decode()
    assert 'id="no-season"' in page and 'id="new-season"' in page
    url = reverse("money-season-new", args=[club.pk])
    backwards = client.post(url, {"name": "2026-27", "start": "2027-05-31", "end": "2026-09-01"})
    assert (
        backwards.status_code == 400 and "cannot end before it starts" in backwards.content.decode()
    )
    made = client.post(url, {"name": "2026-27", "start": "2026-09-01", "end": "2027-05-31"})
    assert made.status_code == 302
    season = Season.objects.get(club=club)
    assert (season.name, season.start, season.end) == (
        "2026-27",
        datetime.date(2026, 9, 1),
        datetime.date(2027, 5, 31),
    )
    shown = client.get(made.url).content.decode()
    assert 'id="season-books"' in shown and "2026-27" in shown
