"""Three-handed cribbage events: the draw (tables of three, two where the field does not
divide), a table's final scores checked against the target, places, points, spread and skunks
in the standings, the place points setting."""

from __future__ import annotations

import pytest

from core.errors import ServiceError
from scoring.selectors import standings_for_event
from scoring.services import recompute_standings
from tests.factories import EntryFactory, EventFactory
from tournaments import kinds, services
from tournaments.models import AuditEntry, Event, Round, StoppaSeat, StoppaTable
from tournaments.threehanded import services as three
from tournaments.threehanded.kind import KEY, places

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Bea", "Cal", "Dan", "Zoë", "Ștefan", "Łucja")


def three_handed_event(players: int, *, names=(), **kwargs) -> Event:
    event = EventFactory(game=KEY, **kwargs)
    for name in names:
        EntryFactory(event=event, player__name=name)
    EntryFactory.create_batch(players - len(names), event=event)
    return event


def tables_of(round_: Round) -> list[list[int]]:
    return [
        list(t.seats.order_by("position").values_list("entry_id", flat=True))
        for t in round_.stoppa_tables.filter(number__isnull=False).order_by("number")
    ]


def hand_game(event: Event, number: int, tables: list[list]) -> Round:
    """A game seated by hand (known answers), released."""
    round_ = Round.objects.create(event=event, number=number, seed=1, method=three.METHOD)
    for n, members in enumerate(tables, start=1):
        table = StoppaTable.objects.create(round=round_, number=n)
        for position, entry in enumerate(members, start=1):
            StoppaSeat.objects.create(table=table, round=round_, entry=entry, position=position)
    return round_


def test_the_kind_is_registered_with_its_words():
    kind = kinds.get(KEY)
    assert str(kind.label) == "Three-handed cribbage"
    assert kind.round_label(2) == "Game 2"
    assert kind.result_shape == "table_scores" and kind.group_tables


@pytest.mark.parametrize(
    ("players", "sizes"), [(15, [3] * 5), (16, [3] * 4 + [2, 2]), (17, [3] * 5 + [2])]
)
def test_the_draw_seats_everyone_at_tables_of_three(players, sizes):
    event = three_handed_event(players)
    round_ = services.draw_next_game(event)
    assert round_.method == "threehanded" and not round_.is_draft
    tables = tables_of(round_)
    assert [len(t) for t in tables] == sizes
    assert sorted(pk for t in tables for pk in t) == sorted(
        event.entries.values_list("pk", flat=True)
    )
    assert not round_.stoppa_tables.filter(number__isnull=True).exists()


def test_later_games_avoid_repeat_meetings_and_the_draw_reproduces():
    event = three_handed_event(15)
    first = services.draw_next_game(event)
    for table in first.stoppa_tables.all():
        members = list(table.seats.values_list("entry_id", flat=True))
        three.record_table_scores(
            event, table=table, scores={members[0]: 121, members[1]: 100, members[2]: 95}
        )
    second = services.draw_next_game(event)
    met = {
        frozenset(p) for t in tables_of(first) for p in [(t[0], t[1]), (t[0], t[2]), (t[1], t[2])]
    }
    again = {
        frozenset(p) for t in tables_of(second) for p in [(t[0], t[1]), (t[0], t[2]), (t[1], t[2])]
    }
    assert not met & again
    assert second.notes == []
    seating = kinds.get(KEY).seating(second)
    Round.objects.filter(pk=second.pk).delete()
    assert kinds.get(KEY).seating(services.draw_next_game(event)) == seating


def test_places_share_the_better_place_on_a_tie():
    assert places([121, 90, 100]) == [1, 3, 2]
    assert places([121, 80, 80]) == [1, 2, 2]
    assert places([61, 40]) == [1, 2]


@pytest.fixture
def seated():
    event = three_handed_event(7, names=NAMES, target=121)
    e = {en.player.name: en for en in event.entries.select_related("player")}
    round_ = hand_game(
        event, 1, [[e["Ann"], e["Bea"], e["Cal"]], [e["Dan"], e["Zoë"], e["Ștefan"]]]
    )
    return event, round_, e


@pytest.mark.parametrize(
    ("scores", "code"),
    [
        ((121, 100, None), "score_required"),
        ((121, 100, -3), "negative_score"),
        ((125, 100, 90), "score_over_target"),
        ((120, 100, 90), "no_winner"),
        ((121, 121, 90), "loser_reached_target"),
    ],
)
def test_a_table_that_cannot_have_finished_so_is_refused(seated, scores, code):
    event, round_, e = seated
    table = round_.stoppa_tables.get(number=1)
    values = dict(zip([e["Ann"].pk, e["Bea"].pk, e["Cal"].pk], scores, strict=True))
    with pytest.raises(ServiceError) as caught:
        three.record_table_scores(event, table=table, scores=values)
    assert caught.value.code == code
    table.refresh_from_db()
    assert not table.has_result
    assert not AuditEntry.objects.filter(event=event, action="table_scores").exists()


def test_a_table_of_the_short_game_checks_against_61():
    event = three_handed_event(3, target=61)
    table = services.draw_next_game(event).stoppa_tables.get()
    a, b, c = table.seats.values_list("entry_id", flat=True)
    with pytest.raises(ServiceError) as caught:
        three.record_table_scores(event, table=table, scores={a: 121, b: 50, c: 40})
    assert caught.value.code == "score_over_target"
    three.record_table_scores(event, table=table, scores={a: 61, b: 50, c: 30})
    assert AuditEntry.objects.filter(event=event, action="table_scores").count() == 1
    recompute_standings(event.pk)
    rows = {r.entry_id: r for r in standings_for_event(event.pk)}
    # 30 is the skunk line of a game to 61: the last player is skunked, the winner's skunk.
    assert (rows[a].skunks_won, rows[a].spread, rows[a].game_points) == (1, 11 + 31, 2)
    assert (rows[c].skunks_suffered, rows[c].spread) == (1, -31)
    assert (rows[b].skunks_suffered, rows[b].game_points) == (0, 1)


def test_standings_lines_from_places_points_spread_and_skunks(seated):
    event, first, e = seated
    enter = three.record_table_scores
    t1, t2 = first.stoppa_tables.get(number=1), first.stoppa_tables.get(number=2)
    # Ann wins, Bea second, Cal skunked (90 is the line for 121).
    enter(event, table=t1, scores={e["Ann"]: 121, e["Bea"]: 100, e["Cal"]: 90})
    # Dan wins; Zoë and Ștefan tie on second: both get second's points.
    enter(event, table=t2, scores={e["Dan"]: 121, e["Zoë"]: 95, e["Ștefan"]: 95})
    second = hand_game(event, 2, [[e["Ann"], e["Dan"]], [e["Bea"], e["Zoë"], e["Łucja"]]])
    enter(event, table=second.stoppa_tables.get(number=1), scores={e["Ann"]: 80, e["Dan"]: 121})
    enter(
        event,
        table=second.stoppa_tables.get(number=2),
        scores={e["Bea"]: 121, e["Zoë"]: 50, e["Łucja"]: 110},
    )
    recompute_standings(event.pk)
    rows = {r.entry.player.name: r for r in standings_for_event(event.pk)}
    line = {
        name: (r.game_points, r.games_won, r.games_lost, r.spread, r.skunks_won, r.skunks_suffered)
        for name, r in rows.items()
    }
    assert line == {
        # 121-100 and 121-90 margins; then last at a table of two, skunked at 80 (-41).
        "Ann": (2 + 0, 1, 1, (21 + 31) - 41, 1, 1),
        "Bea": (1 + 2, 1, 1, -21 + (71 + 11), 1, 0),
        "Cal": (0, 0, 1, -31, 0, 1),
        "Dan": (2 + 2, 2, 0, 52 + 41, 1, 0),
        "Zoë": (1 + 0, 0, 2, -26 - 71, 0, 1),
        "Ștefan": (1, 0, 1, -26, 0, 0),
        "Łucja": (1, 0, 1, -11, 0, 0),
    }
    assert rows["Dan"].rank == 1 and rows["Bea"].rank == 2


def test_place_points_are_the_events_setting(seated):
    event, first, e = seated
    three.set_place_points(event, first=3, second=1, third=0)
    three.record_table_scores(
        event,
        table=first.stoppa_tables.get(number=1),
        scores={e["Ann"]: 121, e["Bea"]: 100, e["Cal"]: 90},
    )
    recompute_standings(event.pk)
    rows = {r.entry.player.name: r.game_points for r in standings_for_event(event.pk)}
    assert (rows["Ann"], rows["Bea"], rows["Cal"]) == (3, 1, 0)
    with pytest.raises(ServiceError) as caught:
        three.set_place_points(event, first=1, second=2, third=0)
    assert caught.value.code == "bad_format"


def test_stoppas_own_tools_refuse_a_three_handed_event(seated):
    from tournaments.stoppa import services as services_stoppa

    event, round_, _e = seated
    with pytest.raises(ServiceError) as caught:
        services_stoppa.set_table_sizes(event, table_size=4, min_table_size=3)
    assert caught.value.code == "not_stoppa"
    with pytest.raises(ServiceError) as caught:
        services_stoppa.record_session_deals(
            event, table=round_.stoppa_tables.get(number=1), deals=[{}]
        )
    assert caught.value.code == "not_stoppa"
