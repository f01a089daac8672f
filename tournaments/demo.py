"""The demo club night that ``make run`` shows: 24 players, a 9-game night under way."""

from __future__ import annotations

import datetime
import random

from django.contrib.auth import get_user_model
from django.db import transaction

from tournaments.models import MatchPointFormat

from . import services
from .models import Club, Entry, Event, Player

# Accented names on purpose: they must survive every page, export and API answer.
DEMO_PLAYERS = [
    ("Ann Whitfield", "A10001"),
    ("Bob Kowalski", "A10002"),
    ("Cal Jennings", "A10003"),
    ("Niccolò Ferrà", "A10004"),
    ("Jürgen Weiß", "A10005"),
    ("Ștefan Țurcanu", "A10006"),
    ("Dolores Ibáñez", ""),
    ("Grete Müller", "A10008"),
    ("Ioana Năstase", "A10009"),
    ("Luca Benedetti", "A10010"),
    ("Margaret O'Brien", "A10011"),
    ("Pierre Lefèvre", ""),
    ("Ramona Dumitrescu", "A10013"),
    ("Sam Okafor", "A10014"),
    ("Tomás Ó Briain", "A10015"),
    ("Ursula Köhler", "A10016"),
    ("Vittoria Esposito", "A10017"),
    ("Walt Henderson", "A10018"),
    ("Xenia Popescu", "A10019"),
    ("Yusuf Demir", ""),
    ("Zoë Lindqvist", "A10021"),
    ("Hank Dawson", "A10022"),
    ("Irene Castellanos", "A10023"),
    ("Jack Morrow", "A10024"),
]
DEMO_CLUB = ("Pegboard Demo Cribbage Club", "demo")
DEMO_EVENT = "Thursday Club Night"
DEMO_PASSWORD = "pegboard-demo"  # printed by load_demo; for the local demo only
GAMES_PLAYED = 4  # games 1-4 complete; game 5 drawn with some tables still open


@transaction.atomic
def load_demo(*, seed: int = 20261122) -> tuple[Event, bool]:
    """Create the demo club, TD, players and club night; returns (event, created).

    Idempotent: a second call finds the event and changes nothing.
    """
    club, _ = Club.objects.get_or_create(
        slug=DEMO_CLUB[1], defaults={"name": DEMO_CLUB[0], "city": "Springfield"}
    )
    users = get_user_model()
    td, created_td = users.objects.get_or_create(
        username="td", defaults={"first_name": "Demo", "last_name": "TD"}
    )
    if created_td:
        td.set_password(DEMO_PASSWORD)
        td.save()
    admin, created_admin = users.objects.get_or_create(
        username="admin", defaults={"is_staff": True, "is_superuser": True}
    )
    if created_admin:
        admin.set_password(DEMO_PASSWORD)
        admin.save()
    club.directors.add(td)

    existing = Event.objects.filter(club=club, name=DEMO_EVENT).first()
    if existing is not None:
        return existing, False

    players = []
    for name, acc in DEMO_PLAYERS:
        player, _ = Player.objects.get_or_create(
            name=name, home_club=club, defaults={"acc_number": acc, "status": Player.Status.MEMBER}
        )
        players.append(player)
    event = Event.objects.create(
        club=club,
        name=DEMO_EVENT,
        date=datetime.date.today(),
        games_planned=9,
        match_point_format=MatchPointFormat.objects.get(code="acc"),
        seed=seed,
    )
    Entry.objects.bulk_create(Entry(event=event, player=p, checked_in=True) for p in players)

    rng = random.Random(seed)
    for number in range(1, GAMES_PLAYED + 2):
        round_ = services.draw_next_game(event)
        tables = list(round_.tables.filter(seat_b__isnull=False).order_by("number"))
        if number > GAMES_PLAYED:
            tables = tables[: len(tables) // 2]  # the current game, half reported
        for table in tables:
            winner = rng.choice([table.seat_a_id, table.seat_b_id])
            # Club-night-like losers' scores: mostly close, now and then a skunk.
            loser_score = rng.choice([rng.randint(91, 120)] * 4 + [rng.randint(55, 90)])
            services.record_result(event, table=table, winner=winner, loser_score=loser_score)
    return event, True
