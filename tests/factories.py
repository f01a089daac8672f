"""factory_boy factories for the Django models."""

from __future__ import annotations

import datetime
from decimal import Decimal

import factory
from django.contrib.auth import get_user_model

from tournaments.models import Club, Entry, Event, MatchPointFormat, Player, Round, Table
from treasury.models import ClubMoney, SidePool


def acc_format() -> MatchPointFormat:
    """The built-in ACC format (re-created if a transactional test flushed the migration's rows)."""
    fmt, _ = MatchPointFormat.objects.get_or_create(
        code="acc",
        defaults={
            "name": "ACC tournament rules (2 / 3)",
            "win": 2,
            "skunk": 3,
            "double_skunk": 3,
            "triple_skunk": 3,
            "builtin": True,
        },
    )
    return fmt


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ["username"]
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("secret-pass-123")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n:03d}")
    home_club = factory.SubFactory(ClubFactory)


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Club night {n}")
    date = factory.LazyFunction(datetime.date.today)
    games_planned = 9
    match_point_format = factory.LazyFunction(acc_format)
    seed = 12345


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    event = factory.SubFactory(EventFactory)
    player = factory.SubFactory(PlayerFactory, home_club=factory.SelfAttribute("..event.club"))
    checked_in = True


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    event = factory.SubFactory(EventFactory)
    number = factory.Sequence(lambda n: n + 1)
    seed = 1


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    round = factory.SubFactory(RoundFactory)
    number = factory.Sequence(lambda n: n + 1)


def event_with_field(players: int, **event_kwargs) -> Event:
    """A running-ready event with ``players`` checked-in entries."""
    event = EventFactory(**event_kwargs)
    EntryFactory.create_batch(players, event=event)
    return event


def stoppa_event_with_field(
    players: int, *, table_size: int = 4, min_table_size: int = 3, names=(), **event_kwargs
) -> Event:
    """A Stoppa event with ``players`` checked-in entries (``names`` first, if given)."""
    event = EventFactory(
        game="stoppa",
        table_size=table_size,
        min_table_size=min_table_size,
        **event_kwargs,
    )
    for name in names:
        EntryFactory(event=event, player__name=name)
    EntryFactory.create_batch(players - len(names), event=event)
    return event


class ClubMoneyFactory(factory.django.DjangoModelFactory):
    """A club's money defaults: dollars, whole-dollar coins, a $10 entry fee."""

    class Meta:
        model = ClubMoney
        django_get_or_create = ["club"]

    club = factory.SubFactory(ClubFactory)
    currency = "USD"
    coin = Decimal(1)
    entry_fee = Decimal(10)


class SidePoolFactory(factory.django.DjangoModelFactory):
    """A club's side pool (a 29 hand pot, $1 a stake, by default)."""

    class Meta:
        model = SidePool

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Pool {n}")
    kind = SidePool.Kind.HAND_29
    fee = Decimal(1)
