"""``manage.py load_demo``: a living club night, and idempotent."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from scoring.selectors import standings_for_event
from tournaments.models import Club, Event, GameResult, Player

pytestmark = pytest.mark.django_db


def test_load_demo_creates_a_living_night_once(django_capture_on_commit_callbacks, capsys):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo")
    event = Event.objects.get(name="Thursday Club Night")
    assert Player.objects.filter(home_club__slug="demo").count() == 24
    assert event.status == Event.Status.RUNNING
    assert event.rounds.count() == 5
    played = GameResult.objects.filter(table__round__event=event, kind="played")
    assert played.count() == 4 * 12 + 6
    assert standings_for_event(event.pk).count() == 24
    assert Player.objects.filter(name="Ștefan Țurcanu").exists()

    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo")
    assert Club.objects.filter(slug="demo").count() == 1
    assert Event.objects.filter(name="Thursday Club Night").count() == 1
    assert GameResult.objects.filter(table__round__event=event, kind="played").count() == 54
    assert "td / " in capsys.readouterr().out
