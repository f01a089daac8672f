"""Event formats through the bridge: drafts and releases, Swiss and round robin from the database,
forbidden pairs, no-shows, late entries, withdrawals, and whole playoffs to a champion."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from django.db import models

from core.errors import ServiceError
from tests.factories import EntryFactory, EventFactory, event_with_field
from tournaments import services
from tournaments.models import (
    Bracket,
    Event,
    ForbiddenPair,
    GameResult,
    PlayoffGame,
    PlayoffMatch,
    Round,
    Table,
)

pytestmark = pytest.mark.django_db


def play_round(event, round_, rng=None):
    rng = rng or random.Random(round_.number)
    for table in round_.tables.filter(seat_b__isnull=False):
        services.record_result(
            event,
            table=table,
            winner=rng.choice([table.seat_a_id, table.seat_b_id]),
            loser_score=rng.randint(70, 120),
        )


def meetings(event):
    return Counter(
        frozenset(pair)
        for pair in Table.objects.filter(round__event=event, seat_b__isnull=False).values_list(
            "seat_a_id", "seat_b_id"
        )
    )


def seated(round_):
    return {pk for pair in round_.tables.values_list("seat_a_id", "seat_b_id") for pk in pair} - {
        None
    }


def play_playoff(event, rng):
    """Play every ready match game by game until the bracket is finished."""
    bracket = Bracket.objects.get(event=event)
    steps = 0
    while True:
        ready = list(
            PlayoffMatch.objects.filter(
                bracket=bracket, decided=False, seat_a__isnull=False, seat_b__isnull=False
            )
        )
        if not ready:
            break
        match = rng.choice(ready)
        services.record_playoff_game(
            event,
            match=match.code,
            winner=rng.choice([match.seat_a_id, match.seat_b_id]),
            loser_score=rng.randint(80, 120),
        )
        steps += 1
        assert steps < 500
    bracket.refresh_from_db()
    return bracket


# --- The whole sanctioned event -------------------------------------------------------------------


def test_a_whole_sanctioned_event_64_entrants_12_games_cut_best_of_3_to_a_champion():
    event = event_with_field(64, kind=Event.Kind.SANCTIONED, games_planned=12, seed=99)
    rng = random.Random(64)
    for _ in range(12):
        play_round(event, services.draw_next_game(event), rng)
    assert max(meetings(event).values()) == 1

    bracket = services.create_playoff(event, best_of=[3])
    assert bracket.source == Bracket.Source.QUALIFYING
    assert bracket.entrants == 64 and len(bracket.seeds) == 16  # ceil(64 / 4), no byes
    # Seeds follow the qualifying rank; seed 1 meets seed 16, 8 meets 9.
    from scoring.selectors import standings_for_event

    ranking = list(standings_for_event(event.pk).values_list("entry_id", flat=True))
    assert bracket.seeds == ranking[:16]
    first = PlayoffMatch.objects.get(bracket=bracket, code="M1-1")
    assert (first.seed_a, first.seed_b) == (1, 16)
    assert {m.best_of for m in bracket.matches.all()} == {3}
    standings_before = list(standings_for_event(event.pk).values_list("entry_id", "game_points"))

    bracket = play_playoff(event, rng)
    assert bracket.champion_id is not None
    places = Counter(bracket.places.values())
    assert places == {1: 1, 2: 1, 3: 2, 5: 4, 9: 8}
    assert bracket.places[str(bracket.champion_id)] == 1
    final = PlayoffMatch.objects.get(bracket=bracket, code="M4-1")
    assert final.decided and final.winner_id == bracket.champion_id
    assert max(final.wins_a, final.wins_b) == 2
    # Every decided match took 2 or 3 games; playoff games leave the qualifying standings alone.
    for m in PlayoffMatch.objects.filter(bracket=bracket):
        assert m.games.count() in (2, 3)
    from scoring.services import recompute_standings

    recompute_standings(event.pk)
    assert list(standings_for_event(event.pk).values_list("entry_id", "game_points")) == (
        standings_before
    )
    with pytest.raises(ServiceError) as caught:
        services.record_playoff_game(event, match="M4-1", winner=final.winner_id, loser_score=90)
    assert caught.value.code == "match_decided"
    services.finish_event(event)


def test_the_cut_gives_byes_to_the_top_seeds_and_skips_withdrawn_players():
    event = event_with_field(30, kind=Event.Kind.SANCTIONED, games_planned=3)
    for _ in range(3):
        play_round(event, services.draw_next_game(event))
    from scoring.selectors import standings_for_event
    from scoring.services import recompute_standings

    recompute_standings(event.pk)
    top = standings_for_event(event.pk).first().entry
    services.withdraw_entry(top)
    bracket = services.create_playoff(event, best_of=[3, 3, 5])
    assert len(bracket.seeds) == 8 and top.pk not in bracket.seeds  # ceil(30 / 4) = 8
    assert bracket.entrants == 30
    final = bracket.matches.get(code="M3-1")
    assert final.best_of == 5

    event2 = event_with_field(21, kind=Event.Kind.SANCTIONED, games_planned=1)
    play_round(event2, services.draw_next_game(event2))
    bracket2 = services.create_playoff(event2)
    assert len(bracket2.seeds) == 6  # 21 -> 6 qualifiers, 2 byes to seeds 1 and 2
    byes = bracket2.matches.filter(section="main", round=1, walkover=True)
    assert sorted(m.seed_a for m in byes) == [1, 2]
    # Round two is a full bracket: every semifinal has its top-seed player already.
    semis = bracket2.matches.filter(round=2).order_by("number")
    assert all(m.seat_a_id in bracket2.seeds[:2] for m in semis)


def test_the_cut_waits_for_the_qualifying_and_refuses_bad_options():
    event = event_with_field(8, kind=Event.Kind.SANCTIONED, games_planned=2)
    round_ = services.draw_next_game(event)
    with pytest.raises(ServiceError) as caught:
        services.create_playoff(event)
    assert caught.value.code == "qualifying_open"
    play_round(event, round_)
    for best_of, code, field in [
        ([2], "bad_best_of", "best_of"),
        ([3], "too_many_qualifiers", "qualifiers"),
    ]:
        qualifiers = None if code == "bad_best_of" else 9
        with pytest.raises(ServiceError) as caught:
            services.create_playoff(event, best_of=best_of, qualifiers=qualifiers)
        assert (caught.value.code, caught.value.field) == (code, field)
    with pytest.raises(ServiceError) as caught:
        services.create_playoff(event, qualifiers=4, double_elimination=True, third_place=True)
    assert caught.value.code == "bad_options"
    assert not Bracket.objects.exists() and not PlayoffMatch.objects.exists()
    services.create_playoff(event, qualifiers=4)
    with pytest.raises(ServiceError) as caught:
        services.create_playoff(event, qualifiers=4)
    assert caught.value.code == "playoff_exists"


def test_playoff_only_draw_gives_byes_to_the_top_of_a_named_ranking():
    season = event_with_field(10, name="Season ranking")
    play_round(season, services.draw_next_game(season))
    from scoring.selectors import standings_for_event
    from scoring.services import recompute_standings

    recompute_standings(season.pk)
    ranked_players = list(standings_for_event(season.pk).values_list("entry__player", flat=True))
    event = EventFactory(club=season.club, kind=Event.Kind.PLAYOFF_ONLY, name="Consy Lite")
    for player_id in ranked_players[:6]:
        EntryFactory(event=event, player_id=player_id)
    EntryFactory.create_batch(5, event=event)  # 11 entrants -> 16-bracket, 5 byes
    bracket = services.create_playoff(event, ranking_event=season)
    assert bracket.source == Bracket.Source.DRAW and len(bracket.seeds) == 11
    by_player = dict(event.entries.values_list("player_id", "pk"))
    assert bracket.seeds[:5] == [by_player[p] for p in ranked_players[:5]]
    byes = bracket.matches.filter(round=1, walkover=True)
    assert {m.seat_a_id for m in byes} == set(bracket.seeds[:5])
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    bracket = play_playoff(event, random.Random(3))
    assert Counter(bracket.places.values()) == {1: 1, 2: 1, 3: 2, 5: 4, 9: 3}


def test_internet_style_double_elimination_and_rule_13_1_forfeits():
    event = event_with_field(8, kind=Event.Kind.INTERNET)
    bracket = services.create_playoff(event, double_elimination=True, best_of=[3])
    assert bracket.matches.filter(section="losers").exists()
    match = bracket.matches.get(code="M1-1")
    # The absent player forfeits a game at 5 minutes, then one every 15: two forfeits decide.
    for _ in range(2):
        services.record_playoff_game(event, match="M1-1", winner=match.seat_a_id, forfeit=True)
    match.refresh_from_db()
    assert match.decided and match.winner_id == match.seat_a_id
    assert list(match.games.values_list("forfeit", "loser_score")) == [(True, None)] * 2
    dropped = bracket.matches.get(code=match.loser_to.split(":")[0])
    assert match.seat_b_id in (dropped.seat_a_id, dropped.seat_b_id)
    bracket = play_playoff(event, random.Random(8))
    assert bracket.champion_id is not None and bracket.places[str(bracket.champion_id)] == 1


def test_playoff_game_errors_change_nothing_and_undo_restores():
    event = event_with_field(8, kind=Event.Kind.INTERNET)
    bracket = services.create_playoff(event)
    m = bracket.matches.get(code="M1-1")
    other = bracket.matches.get(code="M1-2")
    cases = [
        ({"match": "M9-9", "winner": m.seat_a_id, "loser_score": 90}, "unknown_match"),
        ({"match": "M1-1", "winner": other.seat_a_id, "loser_score": 90}, "winner_not_in_match"),
        ({"match": "M1-1", "winner": m.seat_a_id, "loser_score": 121}, "loser_reached_target"),
        ({"match": "M1-1", "winner": m.seat_a_id}, "score_required"),
        ({"match": "M2-1", "winner": m.seat_a_id, "loser_score": 90}, "match_not_ready"),
    ]
    for kwargs, code in cases:
        with pytest.raises(ServiceError) as caught:
            services.record_playoff_game(event, **kwargs)
        assert caught.value.code == code
    assert not PlayoffGame.objects.exists()
    for _ in range(2):
        services.record_playoff_game(event, match="M1-1", winner=m.seat_b_id, loser_score=100)
    assert bracket.matches.get(code="M2-1").seat_a_id == m.seat_b_id
    services.undo_playoff_game(event, match="M1-1")
    m.refresh_from_db()
    assert not m.decided and (m.wins_a, m.wins_b) == (0, 1)
    assert bracket.matches.get(code="M2-1").seat_a_id is None


def test_a_withdrawal_in_the_playoff_is_a_walkover():
    event = event_with_field(4, kind=Event.Kind.PLAYOFF_ONLY)
    bracket = services.create_playoff(event, third_place=True)
    semi = bracket.matches.get(code="M1-1")
    services.withdraw_entry(semi.seat_b)
    semi.refresh_from_db()
    assert semi.decided and semi.walkover and semi.winner_id == semi.seat_a_id
    assert bracket.matches.get(code="M2-1").seat_a_id == semi.seat_a_id


def test_three_qualifiers_with_a_third_place_match_place_everyone():
    event = event_with_field(3, kind=Event.Kind.PLAYOFF_ONLY)
    services.create_playoff(event, third_place=True)
    bracket = play_playoff(event, random.Random(1))
    assert sorted(bracket.places.values()) == [1, 2, 3]


# --- Drafts and releases --------------------------------------------------------------------------


def test_a_draft_is_hidden_from_results_can_be_redrawn_and_is_released():
    event = event_with_field(9)
    draft = services.draw_next_game(event, draft=True)
    assert draft.status == Round.Status.DRAFT
    assert not GameResult.objects.exists()  # the bye is scored on release
    table = draft.tables.filter(seat_b__isnull=False).first()
    with pytest.raises(ServiceError) as caught:
        services.record_result(event, table=table, winner=table.seat_a, loser_score=90)
    assert caught.value.code == "round_not_released"
    with pytest.raises(ServiceError) as caught:
        services.draw_next_game(event)
    assert caught.value.code == "previous_game_draft"
    again = services.redraw_game(draft)
    assert again.status == Round.Status.DRAFT and again.number == 1
    released = services.release_game(again)
    assert released.status == Round.Status.RELEASED and released.released_at is not None
    bye = GameResult.objects.get(kind=GameResult.Kind.BYE)
    assert (bye.winner_points, bye.margin) == (2, 10)
    with pytest.raises(ServiceError) as caught:
        services.release_game(released)
    assert caught.value.code == "already_released"
    play_round(event, released)
    with pytest.raises(ServiceError) as caught:
        services.redraw_game(released)
    assert caught.value.code == "game_has_results"


def test_a_draft_of_a_changed_field_is_not_released():
    event = event_with_field(6)
    draft = services.draw_next_game(event, draft=True)
    EntryFactory(event=event)  # a late entry after the draft
    with pytest.raises(ServiceError) as caught:
        services.release_game(draft)
    assert caught.value.code == "draft_field_changed"
    assert services.redraw_game(draft).tables.count() == 4  # 7 players: 3 tables and a bye


def test_withdrawing_a_player_seated_in_a_draft_draws_it_again_without_them():
    event = event_with_field(8)
    play_round(event, services.draw_next_game(event))
    draft = services.draw_next_game(event, draft=True)
    gone = draft.tables.first().seat_a
    services.withdraw_entry(gone)
    redrawn = event.rounds.get(number=2)
    assert redrawn.status == Round.Status.DRAFT and gone.pk not in seated(redrawn)
    assert len(seated(redrawn)) == 7


def test_swapping_seats_in_a_draft_is_checked():
    event = event_with_field(8)
    first = services.draw_next_game(event)
    play_round(event, first)
    draft = services.draw_next_game(event, draft=True)
    # x and y met in game 1; moving y next to x (in place of x's opponent z) repeats them.
    old = first.tables.order_by("number").first()
    x, y = old.seat_a_id, old.seat_b_id
    here = Table.objects.get(models.Q(seat_a_id=x) | models.Q(seat_b_id=x), round=draft)
    z = here.seat_b_id if here.seat_a_id == x else here.seat_a_id
    before = list(draft.tables.values_list("seat_a_id", "seat_b_id"))
    with pytest.raises(ServiceError) as caught:
        services.swap_seats(draft, y, z)
    assert caught.value.code == "swap_needs_confirmation"
    assert "meet for time 2" in caught.value.message
    assert list(draft.tables.values_list("seat_a_id", "seat_b_id")) == before
    _round, problems = services.swap_seats(draft, y, z, confirm=True)
    assert len(problems) == 1
    assert frozenset((x, y)) in meetings(event)
    assert meetings(event)[frozenset((x, y))] == 2
    draft.refresh_from_db()
    assert draft.method == "hand" and draft.notes == problems
    # Swapping back breaks nothing: applied at once, the notes go.
    assert services.swap_seats(draft, y, z)[1] == []
    assert list(draft.tables.values_list("seat_a_id", "seat_b_id")) == before
    draft.refresh_from_db()
    assert draft.notes == []
    released = services.release_game(draft)
    with pytest.raises(ServiceError) as caught:
        services.swap_seats(released, y, z)
    assert caught.value.code == "round_released"


# --- Forbidden pairs, Swiss, round robin ----------------------------------------------------------


def test_forbidden_pairs_are_never_seated_together_through_the_bridge():
    event = event_with_field(10, seed=5)
    entries = list(event.entries.order_by("pk"))
    for a, b in [(0, 1), (2, 3), (0, 4)]:
        services.add_forbidden_pair(event, entries[b], entries[a], reason="family")
    pair = ForbiddenPair.objects.first()
    assert pair.entry_a_id < pair.entry_b_id
    with pytest.raises(ServiceError) as caught:
        services.add_forbidden_pair(event, entries[0], entries[1])
    assert caught.value.code == "already_forbidden"
    with pytest.raises(ServiceError) as caught:
        services.add_forbidden_pair(event, entries[0], entries[0])
    assert caught.value.code == "same_player"
    forbidden = {frozenset((entries[a].pk, entries[b].pk)) for a, b in [(0, 1), (2, 3), (0, 4)]}
    for _ in range(7):
        play_round(event, services.draw_next_game(event))
    assert not forbidden & set(meetings(event))


def test_a_field_that_cannot_keep_forbidden_pairs_apart_is_a_clear_error():
    event = event_with_field(2)
    a, b = event.entries.all()
    services.add_forbidden_pair(event, a, b)
    with pytest.raises(ServiceError) as caught:
        services.draw_next_game(event)
    assert caught.value.code == "forbidden_pairs" and "forbidden pair" in caught.value.message
    assert not Round.objects.exists()
    services.remove_forbidden_pair(event, ForbiddenPair.objects.get().pk)
    assert services.draw_next_game(event).number == 1


def test_swiss_pairs_by_results_without_repeats():
    event = event_with_field(16, pairing=Event.Pairing.SWISS, games_planned=5)
    for n in range(5):
        round_ = services.draw_next_game(event)
        assert round_.method == "swiss"
        if n == 1:
            # Game 2: winners of game 1 meet winners (2 GP or more each) at the top tables.
            winners = set(
                GameResult.objects.filter(table__round__number=1).values_list("winner", flat=True)
            )
            top = round_.tables.order_by("number").first()
            assert {top.seat_a_id, top.seat_b_id} <= winners
        play_round(event, round_)
    assert max(meetings(event).values()) == 1


def test_round_robin_everyone_meets_everyone_then_stops():
    event = event_with_field(5, pairing=Event.Pairing.ROUND_ROBIN, games_planned=6)
    for _ in range(5):
        play_round(event, services.draw_next_game(event))
    met = meetings(event)
    assert len(met) == 10 and set(met.values()) == {1}
    assert Counter(
        GameResult.objects.filter(kind=GameResult.Kind.BYE).values_list("winner", flat=True)
    ) == Counter({e.pk: 1 for e in event.entries.all()})
    with pytest.raises(ServiceError) as caught:
        services.draw_next_game(event)
    assert caught.value.code == "round_robin_complete"


def test_two_games_per_opponent():
    event = event_with_field(4, meetings_per_opponent=2, games_planned=6)
    for _ in range(6):
        play_round(event, services.draw_next_game(event))
    assert set(meetings(event).values()) == {2}


def test_event_format_is_set_by_the_service():
    event = event_with_field(4)
    services.set_event_format(
        event, kind="sanctioned", pairing="swiss", meetings_per_opponent=2, games_planned=12
    )
    event.refresh_from_db()
    assert (event.kind, event.pairing, event.meetings_per_opponent) == ("sanctioned", "swiss", 2)
    with pytest.raises(ServiceError) as caught:
        services.set_event_format(
            event, kind="sanctioned", pairing="swiss", meetings_per_opponent=3, games_planned=12
        )
    assert caught.value.field == "meetings_per_opponent"


# --- Late entry, withdrawal, no-show --------------------------------------------------------------


def test_late_entry_joins_the_next_game_and_a_withdrawn_player_is_never_paired_again():
    event = event_with_field(8)
    play_round(event, services.draw_next_game(event))
    late = EntryFactory(event=event)
    gone = event.entries.exclude(pk=late.pk).first()
    services.withdraw_entry(gone)
    for _ in range(4):
        round_ = services.draw_next_game(event)
        assert late.pk in seated(round_) and gone.pk not in seated(round_)
        play_round(event, round_)
    assert max(meetings(event).values()) == 1
    # The withdrawn player's game 1 stands.
    assert (
        Table.objects.filter(round__number=1, seat_a=gone).exists()
        or Table.objects.filter(round__number=1, seat_b=gone).exists()
    )


def test_a_no_show_is_a_forfeit_win_for_the_opponent():
    event = event_with_field(6)
    round_ = services.draw_next_game(event)
    table = round_.tables.order_by("number").first()
    result = services.record_no_show(event, table=table, absent=table.seat_b, withdraw=True)
    assert (result.kind, result.winner_id, result.loser_id) == (
        GameResult.Kind.FORFEIT,
        table.seat_a_id,
        table.seat_b_id,
    )
    assert (result.winner_points, result.margin) == (2, 10)  # the opponent +10, the absent -10
    table.seat_b.refresh_from_db()
    assert table.seat_b.withdrawn
    other = round_.tables.order_by("number")[1]
    with pytest.raises(ServiceError) as caught:
        services.record_no_show(event, table=other, absent=table.seat_a)
    assert caught.value.code == "not_at_table"


def test_the_consolation_takes_everyone_who_missed_the_cut():
    event = event_with_field(20, kind=Event.Kind.SANCTIONED, games_planned=2)
    with pytest.raises(ServiceError) as caught:
        services.create_consolation(event)
    assert caught.value.code == "no_cut"
    for _ in range(2):
        play_round(event, services.draw_next_game(event))
    bracket = services.create_playoff(event)
    consolation = services.create_consolation(event, games_planned=7)
    assert consolation.kind == Event.Kind.CONSOLATION and consolation.club_id == event.club_id
    qualified = set(event.entries.filter(pk__in=bracket.seeds).values_list("player", flat=True))
    entered = set(consolation.entries.values_list("player", flat=True))
    assert len(entered) == 15 and not entered & qualified
    for _ in range(2):
        play_round(consolation, services.draw_next_game(consolation))
    assert len(services.create_playoff(consolation).seeds) == 4  # its own cut: ceil(15 / 4)
