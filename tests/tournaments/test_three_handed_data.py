"""Three-handed cribbage's data beyond the night: club ratings rank a table's three players by
their scores (OpenSkill, three ranks), the archive carries the tables, scores and place points."""

from __future__ import annotations

import json

import pytest
from django.core.serializers.json import DjangoJSONEncoder

from results.archive import export_event, import_event
from scoring import ratings
from scoring.models import PlayerRating, Standing
from scoring.services import recompute_standings
from tests.factories import ClubFactory, EntryFactory, EventFactory
from tournaments import services
from tournaments.models import Event
from tournaments.threehanded import services as three
from tournaments.threehanded.kind import KEY

pytestmark = pytest.mark.django_db

NAMES = ("Zoë Lindqvist", "Ștefan Țurcanu", "Łucja Wójcik", "Jürgen Weiß", "Niccolò Ferrà")


def played(games: int = 2) -> Event:
    """Five players (a table of three and one of two each game), every table played: seat 1
    wins, seat 2 scores 100, seat 3 scores 70."""
    event = EventFactory(game=KEY, target=121)
    for name in NAMES:
        EntryFactory(event=event, player__name=name)
    event = three.set_place_points(event, first=3, second=1, third=0)
    for _ in range(games):
        round_ = services.draw_next_game(event)
        for table in round_.stoppa_tables.filter(number__isnull=False):
            seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
            scores = dict(zip(seats, [121, 100, 70], strict=False))
            three.record_table_scores(event, table=table, scores=scores)
    recompute_standings(event.pk)
    return event


def test_a_table_of_three_is_one_rated_game_with_three_ranks():
    event = played(1)
    games = ratings.club_games(event.club_id)
    assert sorted(len(g.players) for g in games) == [2, 3]
    (trio,) = [g for g in games if len(g.players) == 3]
    assert trio.ranks == (1, 2, 3)
    table = event.rounds.get().stoppa_tables.get(number=1)
    winner = table.seats.get(position=1).entry.player_id
    last = table.seats.get(position=3).entry.player_id
    assert trio.players[0] == winner
    ratings.update_club(event.club_id)
    mu = dict(PlayerRating.objects.filter(club=event.club).values_list("player_id", "mu"))
    assert mu[winner] > mu[last]


def test_the_archive_carries_tables_scores_and_place_points():
    event = played(2)

    def lines(e: Event) -> list[tuple]:
        return list(
            Standing.objects.filter(event=e, snapshot__after_game=2)
            .order_by("rank", "entry__player__name")
            .values_list("rank", "entry__player__name", "game_points", "games_won", "spread")
        )

    data = json.loads(json.dumps(export_event(event), cls=DjangoJSONEncoder, ensure_ascii=False))
    assert data["event"]["game"] == KEY and data["event"]["points_first"] == 3
    assert data["games"][0]["stoppa_tables"]
    copy = import_event(data, club=ClubFactory())
    assert copy.game_kind.key == KEY
    assert (copy.points_first, copy.points_second, copy.points_third) == (3, 1, 0)
    assert lines(copy) == lines(event) and len(lines(copy)) == 5
    assert {name for _r, name, *_rest in lines(copy)} == set(NAMES)
