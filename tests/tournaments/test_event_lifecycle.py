"""The TD deletes a draft event nothing was played in and cancels one under way or not, each
after a confirmation, audited; a cancelled event leaves the public lists and the seasons. The
public event page leads to the club: its archive, ratings and seasons."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.admin.models import DELETION, LogEntry
from django.urls import reverse

from core.errors import ServiceError
from scoring.models import SeasonLedger
from scoring.seasons import create_season
from tests.factories import ClubFactory, EntryFactory, EventFactory, PlayerFactory
from tests.scoring.test_seasons import night
from tournaments import services
from tournaments.models import AuditEntry, Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(td_user):
    club = ClubFactory(name="Peg City")
    club.directors.add(td_user)
    return club


def test_a_draft_event_is_deleted_after_a_confirmation(td_client, club, td_user):
    event = EventFactory(club=club, name="Wrong night")
    EntryFactory(event=event)
    settings_page = td_client.get(reverse("td-event-settings", args=[event.pk])).content.decode()
    assert reverse("td-event-delete", args=[event.pk]) in settings_page
    confirm = td_client.get(reverse("td-event-delete", args=[event.pk]))
    assert confirm.status_code == 200 and "cannot be brought back" in confirm.content.decode()
    assert Event.objects.filter(pk=event.pk).exists(), "a GET only asks"
    done = td_client.post(reverse("td-event-delete", args=[event.pk]))
    assert done.status_code == 302 and done.url == reverse("td-club", args=[club.pk])
    assert not Event.objects.filter(pk=event.pk).exists()
    log = LogEntry.objects.get(object_id=str(event.pk), action_flag=DELETION)
    assert log.user == td_user and "Wrong night" in log.object_repr


def test_an_event_with_games_cannot_be_deleted_but_cancelled(td_client, club, client):
    event = EventFactory(club=club, name="Tuesday night")
    EntryFactory.create_batch(4, event=event)
    services.draw_next_game(event)
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    refused = td_client.post(reverse("td-event-delete", args=[event.pk]))
    assert refused.status_code == 400
    assert "Only a draft event can be deleted; cancel this one instead." in (
        refused.content.decode()
    )
    assert (
        reverse("td-event-cancel", args=[event.pk])
        in td_client.get(reverse("td-event-settings", args=[event.pk])).content.decode()
    )
    assert "Tuesday night" in client.get(reverse("home")).content.decode()

    confirm = td_client.get(reverse("td-event-cancel", args=[event.pk]))
    assert "leaves the public pages" in confirm.content.decode()
    done = td_client.post(reverse("td-event-cancel", args=[event.pk]), {"reason": "Hall flooded"})
    assert done.status_code == 302
    event.refresh_from_db()
    assert event.status == Event.Status.CANCELLED
    audit = AuditEntry.objects.get(event=event, action="event_cancelled")
    assert (audit.old, audit.new, audit.reason) == (
        {"status": "running"},
        {"status": "cancelled"},
        "Hall flooded",
    )
    td_client.logout()
    assert "Tuesday night" not in client.get(reverse("home")).content.decode()
    assert client.get(reverse("event", args=[event.pk])).status_code == 404
    assert client.get("/api/v1/events/").status_code == 200
    assert "Tuesday night" not in client.get("/api/v1/events/").content.decode()
    again = td_client.post(reverse("td-event-cancel", args=[event.pk]))
    assert again.status_code in (302, 400)  # logged out: the login page; a TD: refused


def test_a_cancelled_event_takes_no_changes(club, td_user):
    event = EventFactory(club=club)
    services.cancel_event(event, user=td_user)
    with pytest.raises(ServiceError) as caught:
        services.finish_event(event)
    assert caught.value.code == "event_cancelled"
    with pytest.raises(ServiceError) as caught:
        services.cancel_event(event, user=td_user)
    assert caught.value.code == "event_cancelled"


def test_a_cancelled_night_leaves_the_season(td_client, club, django_capture_on_commit_callbacks):
    season = create_season(club, start=datetime.date(2026, 9, 1), end=datetime.date(2027, 5, 31))
    ann = PlayerFactory(name="Ann Whitfield", home_club=club)
    event, _ = night(club, datetime.date(2026, 10, 6), ann, 8, 1, finish=False)
    with django_capture_on_commit_callbacks(execute=True):
        td_client.post(reverse("td-event-cancel", args=[event.pk]))
    assert not SeasonLedger.objects.filter(season=season).exists()
    td_client.get(reverse("td-club", args=[club.pk]))  # shows the "cancelled" message
    body = td_client.get(reverse("season", args=[season.pk])).content.decode()
    assert event.name not in body and 'id="not-counted"' not in body


def test_the_public_event_page_leads_to_the_club(client, club):
    season = create_season(club, start=datetime.date(2026, 9, 1), end=datetime.date(2027, 5, 31))
    event = EventFactory(club=club, date=datetime.date(2026, 10, 6), status=Event.Status.RUNNING)
    body = client.get(reverse("event", args=[event.pk])).content.decode()
    assert f'href="{reverse("club-archive", args=[club.pk])}"' in body
    assert f'href="{reverse("club-ratings", args=[club.pk])}"' in body
    assert f'href="{reverse("season", args=[season.pk])}"' in body
    assert f'href="{reverse("season-list")}"' in body
