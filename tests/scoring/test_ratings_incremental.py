"""The ratings job's watermark: it rates only the results past it, on top of the stored
ratings, and that always equals a replay of every game from scratch, bit for bit; whatever
it cannot continue from (a correction, an undo, a late result, a moved event) falls back to
the replay."""

from __future__ import annotations

import datetime
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import rating_games, ratings
from scoring.models import PlayerRating, RatingHistory, RatingState
from tests.factories import (
    ClubFactory,
    EntryFactory,
    RoundFactory,
    event_with_field,
    stoppa_event_with_field,
)
from tournaments import hooks, services
from tournaments.models import Event, GameResult, StoppaSeat, StoppaTable, Table
from tournaments.stoppa import services as services_stoppa

pytestmark = pytest.mark.django_db

PLAYERS = 6  # 3 tables a game; the circle method gives 5 games without a repeat


def stored(club_id: int) -> tuple[dict, dict]:
    """What the job wrote: each player's rating and last game, each history line (exact)."""
    current = {
        p: (mu, sigma, n, last)
        for p, mu, sigma, n, last in PlayerRating.objects.filter(club_id=club_id).values_list(
            "player_id", "mu", "sigma", "games", "last_key"
        )
    }
    history = {
        (p, e): (mu, sigma, n, last)
        for p, e, mu, sigma, n, last in RatingHistory.objects.filter(club_id=club_id).values_list(
            "player_id", "event_id", "mu", "sigma", "games", "last_key"
        )
    }
    return current, history


def replayed(club_id: int) -> tuple[dict, dict]:
    """A replay of every game of the club from scratch, in memory (nothing written)."""
    games = ratings.club_games(club_id)
    skills, history = ratings.replay(games)
    last = ratings.last_keys(games)
    current = {p: (s.mu, s.sigma, s.games, last[p]) for p, s in skills.items()}
    lines = ratings.last_keys_by_event(games)
    return current, {key: (s.mu, s.sigma, s.games, lines[key]) for key, s in history.items()}


def assert_equals_replay(club_id: int) -> None:
    assert stored(club_id) == replayed(club_id)
    state = RatingState.objects.get(club_id=club_id)
    ids = GameResult.objects.filter(
        table__round__event__club_id=club_id, kind="played", loser__isnull=False
    ).values_list("pk", flat=True)
    assert state.games == len(ratings.club_games(club_id))
    assert state.result_id >= max(ids, default=0)
    # Each event's checksum is that of its rated results as stored.
    events = [int(e) for e in state.events]
    checksums = rating_games.results_checksums(events)
    empty = rating_games.Checksum().text()
    assert {e: line[2] for e, line in state.events.items()} == {
        str(e): checksums.get(e, empty) for e in events
    }


def circle(players: list, games: int) -> list[list[tuple]]:
    """Seatings without a repeat (the circle method): game g's pairs."""
    seatings = []
    ring = list(players)
    for _game in range(games):
        half = len(ring) // 2
        seatings.append([(ring[i], ring[-1 - i]) for i in range(half)])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return seatings


def two_nights(games: int = 3) -> tuple[int, list[Table]]:
    """A club with two nights of the same six players, every game drawn, no result yet:
    the club and every table, first night first."""
    club = ClubFactory()
    first = event_with_field(PLAYERS, status="running", club=club, date="2026-05-01")
    second = event_with_field(0, status="running", club=club, date="2026-05-08")
    for entry in first.entries.order_by("pk"):
        EntryFactory(event=second, player=entry.player)
    tables = []
    for event in (first, second):
        entries = list(event.entries.order_by("pk"))
        for number, pairs in enumerate(circle(entries, games), start=1):
            round_ = RoundFactory(event=event, number=number)
            for n, (a, b) in enumerate(pairs, start=1):
                tables.append(Table.objects.create(round=round_, number=n, seat_a=a, seat_b=b))
    return club.pk, tables


def changed(table: Table) -> None:
    """What every writer of a result does in its transaction: bump the event's version."""
    hooks.results_changed(table.round.event_id)


def report(table: Table, *, a_wins: bool = True) -> GameResult:
    winner, loser = (table.seat_a, table.seat_b) if a_wins else (table.seat_b, table.seat_a)
    result = GameResult.objects.create(
        table=table, winner=winner, loser=loser, loser_score=90, winner_points=2, margin=31
    )
    changed(table)
    return result


def correct(result: GameResult) -> None:
    """The winner was the loser (a correction writes the result's row again)."""
    result.winner, result.loser = result.loser, result.winner
    result.save()
    changed(result.table)


def undo(result: GameResult) -> None:
    result.delete()
    changed(result.table)


def test_the_watermark_is_the_last_rated_result_and_each_players_last_game():
    club_id, tables = two_nights()
    results = [report(table) for table in tables[:6]]  # the first night's games 1 and 2
    assert ratings.update_club(club_id) == "scratch"
    state = RatingState.objects.get(club_id=club_id)
    assert state.result_id == results[-1].pk
    assert state.games == 6
    more = report(tables[6])  # game 3, table 1
    assert ratings.update_club(club_id) == "incremental"
    state.refresh_from_db()
    assert (state.result_id, state.games, state.full_runs) == (more.pk, 7, 1)
    event = tables[0].round.event
    key = rating_games.key_text(("2026-05-01", event.pk, 3, 1))
    for entry in (more.winner, more.loser):
        assert PlayerRating.objects.get(player=entry.player).last_key == key
    assert_equals_replay(club_id)
    # Nothing new: nothing to do, nothing written.
    assert ratings.update_club(club_id) == "current"
    assert RatingState.objects.get(club_id=club_id).games == 7


def test_an_incremental_run_reads_only_the_results_past_the_watermark(monkeypatch):
    club_id, tables = two_nights()
    for table in tables[:9]:
        report(table)
    ratings.update_club(club_id)
    read: list[int] = []
    real = ratings.result_games

    def spy(results):
        rows = real(results)
        read.append(len(rows))
        return rows

    # The other events' playoff games and Stoppa tables are not read either.
    other = ratings.other_games
    events: list[list] = []

    def spy_others(**filters):
        events.append(filters)
        return other(**filters)

    monkeypatch.setattr(ratings, "result_games", spy)
    monkeypatch.setattr(ratings, "other_games", spy_others)
    monkeypatch.setattr(ratings, "rated_games", None)  # the whole history: never read
    report(tables[10])
    report(tables[9])
    assert ratings.update_club(club_id) == "incremental"
    assert read == [2]
    second = tables[9].round.event_id
    assert events == [rating_games.events_filters([second])]
    monkeypatch.undo()
    assert_equals_replay(club_id)


def test_the_tables_of_a_game_in_any_order_are_rated_incrementally():
    """A game's tables have no player in common: in whatever order they arrive, the job
    continues from its watermark, and the ratings are those of the replay."""
    club_id, tables = two_nights()
    rng = random.Random(26)
    outcomes = []
    for start in range(0, len(tables), 3):  # game by game, each game's tables shuffled
        game = tables[start : start + 3]
        rng.shuffle(game)
        for table in game:
            report(table, a_wins=rng.random() < 0.5)
            outcomes.append(ratings.update_club(club_id))
            assert_equals_replay(club_id)
    assert outcomes == ["scratch"] + ["incremental"] * (len(tables) - 1)
    assert RatingState.objects.get(club_id=club_id).full_runs == 1


def _correct(tables):
    correct(tables[0].result)


def _undo(tables):
    undo(tables[4].result)


def _undo_and_report_again(tables):
    undo(tables[4].result)
    report(tables[4], a_wins=False)


def _late_result_of_an_earlier_game(tables):
    # Game 1, table 3 comes in after game 2 of its players was rated.
    report(tables[2])


def _moved_event(tables):
    Event.objects.filter(pk=tables[0].round.event_id).update(date=datetime.date(2026, 6, 1))
    changed(tables[0])


@pytest.mark.parametrize(
    "change",
    [
        _correct,
        _undo,
        _undo_and_report_again,
        _late_result_of_an_earlier_game,
        _moved_event,
    ],
)
def test_what_the_job_cannot_continue_from_is_replayed_from_scratch(change):
    club_id, tables = two_nights()
    first_night = tables[:9]
    for table in first_night[:2] + first_night[3:6]:  # game 1's table 3 is missing
        report(table)
    report(tables[9])  # the second night has begun
    assert ratings.update_club(club_id) == "scratch"
    change(tables)
    report(tables[10])
    assert ratings.update_club(club_id) == "scratch"
    assert_equals_replay(club_id)
    report(tables[11])  # and the job continues from there (the second night, now first,
    # comes before the first night's rated games: a replay again when the first night moved)
    expected = "scratch" if change is _moved_event else "incremental"
    assert ratings.update_club(club_id) == expected
    assert_equals_replay(club_id)


def test_a_correction_on_the_second_night_replays_from_the_second_night(monkeypatch):
    """The first night is not read again: the replay starts from the ratings the players
    had after it (their history lines), and equals a replay of both nights."""
    club_id, tables = two_nights()
    for table in tables[:12]:
        report(table)
    assert ratings.update_club(club_id) == "scratch"
    first, second = tables[0].round.event_id, tables[9].round.event_id
    correct(tables[10].result)
    read = []
    real = ratings.result_games

    def spy(results):
        read.append(str(results))
        return real(results)

    monkeypatch.setattr(ratings, "result_games", spy)
    assert ratings.update_club(club_id) == "scratch"
    assert str(first) not in read[-1] and str(second) in read[-1]
    monkeypatch.undo()
    state = RatingState.objects.get(club_id=club_id)
    assert (state.full_runs, state.games) == (1, 12)
    assert_equals_replay(club_id)
    # Undo a game of the second night, then a result of the first comes in late: from the first.
    undo(tables[11].result)
    report(tables[12])
    assert ratings.update_club(club_id) == "scratch"
    assert_equals_replay(club_id)


def test_a_result_committed_late_under_the_watermark_is_not_lost():
    """Two reports at once: the later id commits first and is rated; the earlier id commits
    after the run (under the watermark). The checksum no longer matches: a replay."""
    club_id, tables = two_nights()
    early, late = report(tables[0]), report(tables[1])
    values = {f.attname: getattr(early, f.attname) for f in GameResult._meta.concrete_fields}
    early.delete()  # not committed yet, as the run sees it
    assert ratings.update_club(club_id) == "scratch"
    assert RatingState.objects.get(club_id=club_id).result_id == late.pk
    GameResult.objects.create(**values)  # now it commits, with its id under the watermark
    changed(tables[0])
    assert ratings.update_club(club_id) == "scratch"
    assert RatingState.objects.get(club_id=club_id).games == 2
    assert_equals_replay(club_id)


def test_a_result_committed_late_just_under_the_watermark_is_rated_incrementally():
    """The same, once a run has a previous watermark: the earlier id is above the settled
    one (a run behind), so the next run reads it, and the ratings still equal a replay."""
    club_id, tables = two_nights()
    assert ratings.update_club(club_id) == "scratch"
    first = report(tables[0])
    assert ratings.update_club(club_id) == "incremental"
    early, late = report(tables[1]), report(tables[2])
    values = {f.attname: getattr(early, f.attname) for f in GameResult._meta.concrete_fields}
    early.delete()  # not committed yet, as the run sees it
    assert ratings.update_club(club_id) == "incremental"
    state = RatingState.objects.get(club_id=club_id)
    assert (state.settled_id, state.recent, state.result_id) == (first.pk, [late.pk], late.pk)
    GameResult.objects.create(**values)  # now it commits, under the watermark
    changed(tables[1])
    assert ratings.update_club(club_id) == "incremental"
    state = RatingState.objects.get(club_id=club_id)
    assert (state.games, state.full_runs, state.settled_id) == (3, 1, late.pk)
    assert_equals_replay(club_id)
    # Rated once: a run with nothing new changes nothing.
    assert ratings.update_club(club_id) == "current"
    assert_equals_replay(club_id)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(["report"] * 4 + ["correct", "undo", "run", "run"]),
            st.integers(min_value=0, max_value=2 * 3 * 3 - 1),
            st.booleans(),
        ),
        min_size=5,
        max_size=40,
    )
)
def test_any_order_of_arrivals_corrections_and_undos_equals_the_replay(steps):
    """Results of two nights arrive in any order (a later game before an earlier one, the
    second night before the first), are corrected and taken back, with the job run in
    between: after every run the stored ratings are exactly those of a replay."""
    club_id, tables = two_nights()
    for action, index, a_wins in steps:
        table = tables[index]
        result = GameResult.objects.filter(table=table).first()
        if action == "report" and result is None:
            report(table, a_wins=a_wins)
        elif action == "correct" and result is not None:
            correct(result)
        elif action == "undo" and result is not None:
            undo(result)
        elif action == "run":
            ratings.update_club(club_id)
            assert_equals_replay(club_id)
    ratings.update_club(club_id)
    assert_equals_replay(club_id)


def test_playoff_games_are_rated_incrementally_and_an_undone_one_is_replayed():
    event = event_with_field(4, kind=Event.Kind.SANCTIONED, games_planned=1)
    round_ = services.draw_next_game(event)
    for table in round_.tables.all():
        services.record_result(event, table=table, winner=table.seat_a, loser_score=100)
    assert ratings.update_club(event.club_id) == "scratch"
    bracket = services.create_playoff(event, qualifiers=4, confirm_lots=True, best_of=(3,))
    semis = bracket.matches.filter(seat_a__isnull=False, seat_b__isnull=False)
    first, second = semis.order_by("position")[:2]
    # The second semi-final's game is entered before the first's: they share no player.
    services.record_playoff_game(event, match=second.code, winner=second.seat_a, loser_score=70)
    assert ratings.update_club(event.club_id) == "incremental"
    services.record_playoff_game(event, match=first.code, winner=first.seat_b, loser_score=90)
    assert ratings.update_club(event.club_id) == "incremental"
    assert_equals_replay(event.club_id)
    services.undo_playoff_game(event, match=first.code)
    assert ratings.update_club(event.club_id) == "scratch"
    assert RatingState.objects.get(club_id=event.club_id).games == 3
    assert_equals_replay(event.club_id)


def test_stoppa_tables_are_rated_incrementally_and_corrected_nets_are_replayed():
    event = stoppa_event_with_field(8, status="running")
    entries = list(event.entries.order_by("pk"))
    round_ = RoundFactory(event=event, number=1, method="stoppa")
    tables = []
    for number, four in enumerate((entries[:4], entries[4:]), start=1):
        table = StoppaTable.objects.create(round=round_, number=number)
        for position, entry in enumerate(four, start=1):
            StoppaSeat.objects.create(table=table, round=round_, entry=entry, position=position)
        tables.append((table, four))

    def nets(index: int, values: tuple[int, ...]) -> None:
        table, four = tables[index]
        services_stoppa.record_session_nets(
            event,
            table=table,
            nets={e.pk: v for e, v in zip(four, values, strict=True)},
            reason="Corrected",
        )

    nets(1, (10, -10, 0, 0))  # table 2 first
    assert ratings.update_club(event.club_id) == "scratch"
    nets(0, (30, 0, 0, -30))
    assert ratings.update_club(event.club_id) == "incremental"
    assert_equals_replay(event.club_id)
    nets(0, (-30, 0, 0, 30))  # table 1's nets corrected
    assert ratings.update_club(event.club_id) == "scratch"
    assert_equals_replay(event.club_id)


def test_the_job_gathers_a_window_of_results(monkeypatch, settings):
    """One run per club per ratings window: sent once, RATINGS_GATHER_SECONDS after the
    first result, whatever follows it in the window rides on it."""
    from scoring import tasks

    settings.RATINGS_GATHER_SECONDS = 2.0
    sent = []
    monkeypatch.setattr(
        tasks.update_ratings, "apply_async", lambda args, countdown: sent.append(countdown)
    )
    club = ClubFactory()
    ratings.clear_queued(club.pk)
    assert ratings.send_update(club.pk) is True
    assert ratings.send_update(club.pk) is False  # rides on the queued run
    assert sent == [2.0]
    ratings.clear_queued(club.pk)  # the run started: the next result queues the next run
    assert ratings.send_update(club.pk) is True


def test_a_result_changed_or_deleted_in_the_admin_is_announced_and_replayed(rf, admin_user):
    from django.contrib import admin

    club_id, tables = two_nights()
    for table in tables[:4]:
        report(table)
    ratings.update_club(club_id)
    model_admin = admin.site._registry[GameResult]
    request = rf.post("/")
    request.user = admin_user
    event = Event.objects.get(pk=tables[0].round.event_id)
    result = tables[0].result
    result.winner, result.loser = result.loser, result.winner
    model_admin.save_model(request, result, form=None, change=True)
    assert Event.objects.get(pk=event.pk).results_version == event.results_version + 1
    assert ratings.update_club(club_id) == "scratch"
    assert_equals_replay(club_id)
    model_admin.delete_queryset(request, GameResult.objects.filter(table=tables[3]))
    assert ratings.update_club(club_id) == "scratch"
    assert RatingState.objects.get(club_id=club_id).games == 3
    assert_equals_replay(club_id)
