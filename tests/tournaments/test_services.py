"""Services of the club night: drawing games and recording results, with clear refusals."""

from __future__ import annotations

from collections import Counter

import pytest
from django.urls import reverse

from core.errors import ServiceError
from tests.factories import EntryFactory, EventFactory, event_with_field
from tournaments import services
from tournaments.models import AuditEntry, Event, GameResult, Table

pytestmark = pytest.mark.django_db


def play_round(event, round_, loser_score=100):
    for table in round_.tables.filter(seat_b__isnull=False):
        services.record_result(event, table=table, winner=table.seat_a_id, loser_score=loser_score)


def meetings(event):
    return Counter(
        frozenset(pair)
        for pair in Table.objects.filter(round__event=event, seat_b__isnull=False).values_list(
            "seat_a_id", "seat_b_id"
        )
    )


@pytest.mark.parametrize("players", [9, 10, 24, 25])
def test_a_whole_night_is_drawn_without_repeats_and_byes_score(players):
    event = event_with_field(players)
    for number in range(1, 10):
        round_ = services.draw_next_game(event)
        assert round_.number == number
        play_round(event, round_)
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    assert max(meetings(event).values()) == 1
    byes = GameResult.objects.filter(table__round__event=event, kind=GameResult.Kind.BYE)
    if players % 2:
        assert byes.count() == 9
        assert len({b.winner_id for b in byes}) == 9
        assert {(b.winner_points, b.margin) for b in byes} == {(2, 10)}
    else:
        assert not byes.exists()
    with pytest.raises(ServiceError) as caught:
        services.draw_next_game(event)
    assert caught.value.code == "all_games_drawn"


def test_draw_is_reproducible_from_the_stored_seed():
    def tables(round_):
        return list(
            round_.tables.order_by("number").values_list("number", "seat_a_id", "seat_b_id")
        )

    def pairs(round_):
        return {frozenset(t[1:]) for t in tables(round_)}

    event = event_with_field(12, seed=4242)
    first = services.draw_next_game(event)
    seating = tables(first)
    assert len(seating) == 6
    # Drawing the game again takes a new seed, recorded on the game, and seats anew.
    again = services.redraw_game(first)
    assert again.seed != first.seed and pairs(again) != pairs(first)
    # Each stored seed reproduces its draw: the same field drawn from it seats the same.
    drawn_again = tables(again)
    again.delete()
    for seed, expected in ((first.seed, seating), (again.seed, drawn_again)):
        round_ = event.game_kind.draw(event, 1, draft=True, seed=seed)
        assert tables(round_) == expected
        round_.delete()


def test_next_game_waits_for_open_tables():
    event = event_with_field(6)
    services.draw_next_game(event)
    with pytest.raises(ServiceError) as caught:
        services.draw_next_game(event)
    assert caught.value.code == "previous_game_open"
    assert "1, 2, 3" in caught.value.message


def test_withdrawn_and_absent_players_are_not_seated():
    event = event_with_field(8)
    gone, absent = event.entries.all()[:2]
    services.withdraw_entry(gone)
    services.set_checked_in(absent, False)
    round_ = services.draw_next_game(event)
    seated = set(round_.tables.values_list("seat_a_id", flat=True)) | set(
        round_.tables.values_list("seat_b_id", flat=True)
    )
    assert gone.pk not in seated and absent.pk not in seated
    assert len(seated - {None}) == 6


def test_redraw_replaces_a_game_without_results_only():
    event = event_with_field(10)
    first = services.draw_next_game(event)
    again = services.redraw_game(first)
    assert again.number == 1 and event.rounds.count() == 1
    play_round(event, again)
    with pytest.raises(ServiceError) as caught:
        services.redraw_game(again)
    assert caught.value.code == "game_has_results"


@pytest.fixture
def running_game():
    event = event_with_field(4)
    round_ = services.draw_next_game(event)
    table = round_.tables.order_by("number").first()
    return event, round_, table


@pytest.mark.parametrize(
    ("loser_score", "code", "words"),
    [
        (121, "loser_reached_target", "below 121"),
        (150, "loser_reached_target", "below 121"),
        (-5, "negative_score", "cannot be negative"),
        (None, "score_required", "loser's score"),
    ],
)
def test_bad_scores_are_refused_and_change_nothing(running_game, loser_score, code, words):
    event, _, table = running_game
    with pytest.raises(ServiceError) as caught:
        services.record_result(event, table=table, winner=table.seat_a, loser_score=loser_score)
    assert caught.value.code == code and words in caught.value.message
    assert caught.value.field == "loser_score"
    assert not GameResult.objects.filter(table=table).exists()


def test_a_player_not_at_the_table_is_refused(running_game):
    event, round_, table = running_game
    other = round_.tables.exclude(pk=table.pk).first().seat_a
    with pytest.raises(ServiceError) as caught:
        services.record_result(event, table=table, winner=other, loser_score=100)
    assert caught.value.code == "winner_not_at_table"
    assert other.player.name in caught.value.message
    assert not GameResult.objects.exists()


def test_a_table_of_another_game_is_refused(running_game):
    event, round_, table = running_game
    play_round(event, round_)
    services.draw_next_game(event)
    with pytest.raises(ServiceError) as caught:
        services.record_result(
            event, table=table, winner=table.seat_a, loser_score=100, game_number=2
        )
    assert caught.value.code == "table_of_another_game"
    assert "belongs to game 1, not game 2" in caught.value.message


def test_a_table_of_another_event_is_unknown(running_game):
    _event, _, table = running_game
    stranger = event_with_field(2)
    services.draw_next_game(stranger)
    with pytest.raises(ServiceError) as caught:
        services.record_result(stranger, table=table, winner=table.seat_a, loser_score=100)
    assert caught.value.code == "unknown_table"


def test_result_is_derived_and_can_be_corrected(running_game):
    event, _, table = running_game
    result = services.record_result(event, table=table, winner=table.seat_b, loser_score=90)
    assert (result.winner_id, result.loser_id) == (table.seat_b_id, table.seat_a_id)
    assert (result.winner_points, result.margin, result.skunk_level) == (3, 31, 1)
    result = services.record_result(
        event, table=table, winner=table.seat_a, loser_score=91, reason="Winner mistyped"
    )
    assert (result.winner_id, result.winner_points, result.margin, result.skunk_level) == (
        table.seat_a_id,
        2,
        30,
        0,
    )
    assert GameResult.objects.filter(table=table).count() == 1


def test_forfeit_scores_two_and_ten(running_game):
    event, _, table = running_game
    result = services.record_result(event, table=table, winner=table.seat_a, forfeit=True)
    assert (result.kind, result.winner_points, result.margin, result.loser_score) == (
        "forfeit",
        2,
        10,
        None,
    )


def test_register_player_at_the_door():
    event = EventFactory()
    entry = services.register_player(event, name="  Ștefan   Țurcanu ", acc_number="R123")
    assert entry.player.name == "Ștefan Țurcanu" and entry.checked_in
    with pytest.raises(ServiceError) as caught:
        services.register_player(event, name="Ștefan Țurcanu", acc_number="R123")
    assert caught.value.code == "already_entered"
    other = EventFactory(club=event.club)
    with pytest.raises(ServiceError) as caught:
        services.register_player(other, name="Somebody Else", acc_number="R123")
    assert caught.value.code == "acc_number_taken"
    assert (
        services.register_player(other, name="Ștefan Țurcanu", acc_number="R123").player
        == entry.player
    )


def test_results_only_while_running(running_game):
    event, _, table = running_game
    services.record_result(event, table=table, winner=table.seat_a, loser_score=100)
    for t in table.round.tables.exclude(pk=table.pk):
        services.record_result(event, table=t, winner=t.seat_a, loser_score=100)
    services.finish_event(event)
    with pytest.raises(ServiceError) as caught:
        services.record_result(event, table=table, winner=table.seat_a, loser_score=100)
    assert caught.value.code == "event_not_running"


def test_late_entry_joins_the_next_game():
    event = event_with_field(6)
    play_round(event, services.draw_next_game(event))
    late = EntryFactory(event=event)
    round_ = services.draw_next_game(event)
    seated = {pk for pair in round_.tables.values_list("seat_a_id", "seat_b_id") for pk in pair}
    assert late.pk in seated


def test_a_recorded_result_changes_only_with_a_reason_and_the_audit_names_the_players(
    running_game, td_user
):
    """The data-integrity bug of the TD's game page: a confirmed 95 silently became a 60
    skunk. Every path (game page, API, desk, players) goes through record_result."""
    event, _, table = running_game
    winner, loser = table.seat_a.player.name, table.seat_b.player.name
    services.record_result(event, table=table, winner=table.seat_a, loser_score=95, user=td_user)
    with pytest.raises(ServiceError) as caught:
        services.record_result(event, table=table, winner=table.seat_a, loser_score=60)
    assert caught.value.code == "reason_required" and caught.value.field == "reason"
    assert winner in caught.value.message and "95" in caught.value.message
    assert GameResult.objects.get(table=table).loser_score == 95  # nothing changed
    # The same result again (a double tap) is no change and needs no reason.
    services.record_result(event, table=table, winner=table.seat_a, loser_score=95)

    services.record_result(
        event, table=table, winner=table.seat_a, loser_score=60, user=td_user, reason="Card 7"
    )
    assert GameResult.objects.get(table=table).skunk_level == 2  # 60: a double skunk
    log = list(AuditEntry.objects.filter(table=table).order_by("pk"))
    assert [(a.action, a.reason) for a in log] == [("entered", ""), ("corrected", "Card 7")]
    assert log[1].old == {"winner": winner, "loser": loser, "loser_score": 95, "forfeit": False}
    assert log[1].new == {"winner": winner, "loser": loser, "loser_score": 60, "forfeit": False}
    assert log[1].actor == td_user.get_username()


def test_the_td_game_page_asks_for_a_reason_to_overwrite_a_confirmed_result(
    running_game, td_user, client
):
    event, round_, table = running_game
    event.club.directors.add(td_user)
    client.force_login(td_user)
    services.record_result(event, table=table, winner=table.seat_a, loser_score=95)
    url = reverse("td-game", args=[event.pk, round_.number])
    post = {"table": table.pk, "winner": table.seat_a_id, "loser_score": 60}
    refused = client.post(url, post)
    assert refused.status_code == 400 and "give a reason" in refused.content.decode()
    assert GameResult.objects.get(table=table).loser_score == 95
    client.post(url, post | {"reason": "Score sheet says 60"})
    assert GameResult.objects.get(table=table).loser_score == 60
    assert AuditEntry.objects.get(table=table, action="corrected").reason == "Score sheet says 60"
