"""ACC fidelity at the edges: which row says what placed it, no-shows, forfeits and byes."""

from __future__ import annotations

import pytest

from scoring.selectors import standings_for_event
from scoring.services import recompute_standings
from tests.factories import EntryFactory, EventFactory, RoundFactory, event_with_field
from tournaments import services
from tournaments.models import Event, Table

pytestmark = pytest.mark.django_db


def play(event, games, *, number=1):
    """Record ``(winner, loser, loser_score)`` games at new tables of game ``number``."""
    round_ = event.rounds.filter(number=number).first() or RoundFactory(event=event, number=number)
    for winner, loser, loser_score in games:
        table = Table.objects.create(
            round=round_, number=round_.tables.count() + 1, seat_a=winner, seat_b=loser
        )
        services.record_result(event, table=table, winner=winner, loser_score=loser_score)


def rows_by_name(event):
    return [
        (s.entry.player.name, s.rank, s.tied, s.separated_by, s.explanation)
        for s in standings_for_event(event.pk)
    ]


def three_tied_below_top(capture):
    """Top won twice; Amy, Bea and Cid once each by 10, so they tie on games won and spread
    (chain: games won, spread); five fillers lost once by 10. The entries are created in
    reverse order of their names: the SQL window meets Cid first."""
    event = EventFactory(status=Event.Status.RUNNING, tiebreakers=["games_won", "spread"])
    cid, bea, amy, top = (
        EntryFactory(event=event, player__name=n) for n in ("Cid", "Bea", "Amy", "Top")
    )
    fillers = [EntryFactory(event=event, player__name=f"Zz {i}") for i in range(5)]
    with capture(execute=True):
        play(event, [(top, fillers[0], 111), (amy, fillers[2], 111)])
        play(
            event,
            [(top, fillers[1], 111), (bea, fillers[3], 111), (cid, fillers[4], 111)],
            number=2,
        )
    return event


def test_a_tied_groups_mark_is_on_its_first_row_by_name(django_capture_on_commit_callbacks):
    event = three_tied_below_top(django_capture_on_commit_callbacks)
    rows = rows_by_name(event)
    assert rows[0][:4] == ("Top", 1, False, "")
    # Amy, Bea and Cid tie on games won and spread: placed below Top by games won; only
    # the group's first row says so, the two after it are tied with the row above.
    assert [r[:4] for r in rows[1:4]] == [
        ("Amy", 2, True, "games_won"),
        ("Bea", 2, True, ""),
        ("Cid", 2, True, ""),
    ]
    assert rows[1][4] == (
        "Placed below the row above on games won. Tied on every tiebreaker of the chain."
    )
    assert rows[2][4] == "Tied on every tiebreaker of the chain."
    assert [r[3] for r in rows[4:]] == ["games_won", "", "", "", ""]


def test_a_group_re_ranked_past_spread_keeps_its_top_rows_explanation(
    django_capture_on_commit_callbacks,
):
    event = EventFactory(
        status=Event.Status.RUNNING, tiebreakers=["games_won", "head_to_head", "spread"]
    )
    bea, amy, top = (EntryFactory(event=event, player__name=n) for n in ("Bea", "Amy", "Top"))
    f1, f2, f3 = (EntryFactory(event=event, player__name=f"Zz {i}") for i in range(3))
    with django_capture_on_commit_callbacks(execute=True):
        play(event, [(amy, bea, 111), (top, f2, 100)])
        play(event, [(bea, f1, 60), (top, f3, 100)], number=2)
    rows = rows_by_name(event)
    assert [r[:4] for r in rows[:3]] == [
        ("Top", 1, False, ""),
        ("Amy", 2, False, "games_won"),  # below Top on games won (2 to 1)
        ("Bea", 3, False, "head_to_head"),  # Amy beat her, though Bea's spread is better
    ]
    assert rows[1][4] == "Placed below the row above on games won."


def test_the_api_says_what_the_page_says_of_each_row(client, django_capture_on_commit_callbacks):
    event = three_tied_below_top(django_capture_on_commit_callbacks)
    api = client.get(f"/api/v1/events/{event.pk}/standings/").json()["results"]
    by_name = {row["name"]: (row["separated_by"], row["explanation"]) for row in api}
    page = {name: (sep, why) for name, _rank, _tied, sep, why in rows_by_name(event)}
    assert by_name == page


def test_forfeits_and_byes_score_as_rule_11_4b(django_capture_on_commit_callbacks):
    """A forfeit is 2 game points and +10 to the winner, -10 to the absent player; a bye
    scores as a forfeit win (ACC Rule 11.4b). Kept as it is."""
    event = event_with_field(3)
    round_ = services.draw_next_game(event)  # one table and a bye, scored at the draw
    table = round_.tables.get(seat_b__isnull=False)
    lone = round_.tables.get(seat_b__isnull=True).seat_a
    with django_capture_on_commit_callbacks(execute=True):
        services.record_no_show(event, table=table, absent=table.seat_b)
    recompute_standings(event.pk)
    rows = {s.entry_id: s for s in standings_for_event(event.pk)}

    def line(entry):
        row = rows[entry.pk]
        return (row.game_points, row.games_won, row.games_lost, row.spread)

    assert line(table.seat_a) == (2, 1, 0, 10)
    assert line(table.seat_b) == (0, 0, 1, -10)
    assert line(lone) == (2, 1, 0, 10) and rows[lone.pk].byes == 1


def _night_with_a_no_show(**event_kwargs):
    """Nine entries, eight checked in and seated for game 1 (all results in); "Nora
    No-show" never checked in."""
    event = event_with_field(8, kind=Event.Kind.SANCTIONED, **event_kwargs)
    nora = EntryFactory(event=event, player__name="Nora No-show", checked_in=False)
    round_ = services.draw_next_game(event)
    for table in round_.tables.filter(seat_b__isnull=False):
        services.record_result(event, table=table, winner=table.seat_a, loser_score=100)
    recompute_standings(event.pk)
    return event, nora


def test_an_entry_that_never_played_is_listed_apart_and_not_an_entrant():
    event, nora = _night_with_a_no_show()
    rows = list(standings_for_event(event.pk))
    assert len(rows) == 8 and nora.pk not in {r.entry_id for r in rows}
    assert [r.games_played for r in rows] == [1] * 8
    from scoring.selectors import no_shows

    assert no_shows(event.pk) == ["Nora No-show"]
    bracket = services.create_playoff(event, confirm_lots=True)  # the winners tie
    # 8 entrants: ceil(8 / 4) = 2 qualifiers (with Nora counted, 9 gave 3).
    assert (bracket.entrants, len(bracket.seeds)) == (8, 2)


def test_the_td_can_count_the_checked_in_as_entrants():
    event, nora = _night_with_a_no_show(entrants=Event.Entrants.CHECKED_IN)
    assert standings_for_event(event.pk).count() == 8  # Nora has not checked in
    services.set_checked_in(nora, True)
    recompute_standings(event.pk)
    rows = {r.entry_id: r for r in standings_for_event(event.pk)}
    assert (
        len(rows) == 9 and rows[nora.pk].rank == 5
    )  # 0 GP and +0: above the four who lost (the TD chose it)
    bracket = services.create_playoff(event, confirm_lots=True)  # the winners tie
    assert (bracket.entrants, len(bracket.seeds)) == (9, 3)


def test_a_player_at_an_open_table_is_an_entrant_while_the_game_is_played():
    event = event_with_field(4)
    round_ = services.draw_next_game(event)
    first, second = round_.tables.order_by("number")
    services.record_result(event, table=first, winner=first.seat_a, loser_score=90)
    recompute_standings(event.pk)
    rows = {r.entry_id for r in standings_for_event(event.pk)}
    assert rows == {first.seat_a_id, first.seat_b_id, second.seat_a_id, second.seat_b_id}


def test_the_public_standings_list_the_no_shows_apart(client):
    event, _nora = _night_with_a_no_show()
    body = client.get(f"/events/{event.pk}/").content.decode()
    assert "Did not play, not ranked (1):" in body and "Nora No-show" in body
