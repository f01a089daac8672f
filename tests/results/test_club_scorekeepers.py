"""The club's scorekeepers, managed by its TDs from the club page (no admin)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from core.errors import ServiceError
from results import services
from results.models import Scorekeeper
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(td_user):
    club = ClubFactory(name="Brașov Pegs")
    club.directors.add(td_user)
    return club


def test_add_and_remove_a_scorekeeper(club):
    keeper = UserFactory(username="desk", email="desk@example.org")
    assert services.add_scorekeeper(club, "DESK@example.org") == keeper
    with pytest.raises(ServiceError) as error:
        services.add_scorekeeper(club, "desk")
    assert error.value.code == "already_scorekeeper"
    services.remove_scorekeeper(club, keeper.pk)
    assert not Scorekeeper.objects.exists()
    with pytest.raises(ServiceError) as error:
        services.remove_scorekeeper(club, keeper.pk)
    assert error.value.code == "not_scorekeeper"


def test_td_manages_scorekeepers_on_the_club_page(client, club, td_user):
    keeper = UserFactory(username="desk")
    client.force_login(td_user)
    url = reverse("td-club-scorekeepers", args=[club.pk])
    page = client.get(reverse("td-club", args=[club.pk])).content.decode()
    assert f'hx-get="{url}"' in page
    assert client.post(url, {"who": "desk"}).status_code == 302
    assert Scorekeeper.objects.get(club=club).user == keeper
    fragment = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in fragment and "desk" in fragment and "data-confirm=" in fragment
    response = client.post(url, {"who": "nobody"})
    assert response.status_code == 400 and "No account has" in response.content.decode()
    response = client.post(url, {"remove": keeper.pk}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Scorekeeper removed." in response.content.decode()
    assert not Scorekeeper.objects.exists()


def test_a_scorekeeper_cannot_manage_the_club(client, club):
    keeper = UserFactory(username="desk")
    Scorekeeper.objects.create(club=club, user=keeper)
    UserFactory(username="friend")
    client.force_login(keeper)
    url = reverse("td-club-scorekeepers", args=[club.pk])
    assert client.get(url).status_code == 404
    assert client.post(url, {"who": "friend"}).status_code == 404
    assert client.get(reverse("td-club", args=[club.pk])).status_code == 404
    assert Scorekeeper.objects.count() == 1
