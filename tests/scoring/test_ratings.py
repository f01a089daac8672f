"""Club ratings: OpenSkill over confirmed games, incremental == from scratch, pages, seeding."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from scoring import ratings
from scoring.models import PlayerRating, RatingHistory, RatingState
from tests.factories import (
    ClubFactory,
    EntryFactory,
    EventFactory,
    RoundFactory,
    event_with_field,
    stoppa_event_with_field,
)
from tournaments import hooks, services
from tournaments.models import Event, StoppaSeat, StoppaTable, Table
from tournaments.stoppa import services as services_stoppa

pytestmark = pytest.mark.django_db


def snapshot(club_id: int) -> tuple[dict, dict]:
    """The stored ratings and history of a club, exactly (floats compared bit for bit)."""
    current = {
        p: (mu, sigma, n)
        for p, mu, sigma, n in PlayerRating.objects.filter(club_id=club_id).values_list(
            "player_id", "mu", "sigma", "games"
        )
    }
    history = {
        (p, e): (mu, sigma, n)
        for p, e, mu, sigma, n in RatingHistory.objects.filter(club_id=club_id).values_list(
            "player_id", "event_id", "mu", "sigma", "games"
        )
    }
    return current, history


def play_game(event: Event, number: int, rng: random.Random) -> None:
    """Seat the event's entries in pairs for game ``number`` and record random results."""
    round_ = RoundFactory(event=event, number=number)
    entries = list(event.entries.order_by("pk"))
    rng.shuffle(entries)
    for n in range(len(entries) // 2):
        a, b = entries[2 * n], entries[2 * n + 1]
        table = Table.objects.create(round=round_, number=n + 1, seat_a=a, seat_b=b)
        winner = a if rng.random() < 0.5 else b
        services.record_result(event, table=table, winner=winner, loser_score=rng.randint(60, 119))


def test_a_two_player_game_moves_the_winner_up_and_the_loser_down():
    event = event_with_field(2, status="running")
    a, b = event.entries.order_by("pk")
    table = Table.objects.create(
        round=RoundFactory(event=event, number=1), number=1, seat_a=a, seat_b=b
    )
    services.record_result(event, table=table, winner=b, loser_score=100)
    assert ratings.update_club(event.club_id) == "scratch"
    won = PlayerRating.objects.get(player=b.player)
    lost = PlayerRating.objects.get(player=a.player)
    # OpenSkill Plackett-Luce from 25 +- 8.333: the known first-game figures.
    assert won.mu == pytest.approx(27.6354, abs=1e-4)
    assert lost.mu == pytest.approx(22.3646, abs=1e-4)
    assert won.sigma == lost.sigma == pytest.approx(8.0659, abs=1e-4)
    assert won.games == lost.games == 1
    line = RatingHistory.objects.get(player=b.player, event=event)
    assert (line.mu, line.games) == (won.mu, 1)


def test_a_forfeit_is_not_rated():
    event = event_with_field(2, status="running")
    a, b = event.entries.order_by("pk")
    table = Table.objects.create(
        round=RoundFactory(event=event, number=1), number=1, seat_a=a, seat_b=b
    )
    services.record_result(event, table=table, winner=a, forfeit=True)
    ratings.update_club(event.club_id)
    assert not PlayerRating.objects.filter(club=event.club).exists()


def test_a_stoppa_table_ranks_by_chip_net_with_ties_sharing_a_rank():
    assert ratings.competition_ranks([30, 0, 0, -30]) == (1, 2, 2, 4)
    event = stoppa_event_with_field(4, names=("Ann", "Bea", "Cal", "Dan"), status="running")
    entries = list(event.entries.order_by("pk"))
    round_ = RoundFactory(event=event, number=1, method="stoppa")
    table = StoppaTable.objects.create(round=round_, number=1)
    for position, entry in enumerate(entries, start=1):
        StoppaSeat.objects.create(table=table, round=round_, entry=entry, position=position)
    ann, bea, cal, dan = entries
    services_stoppa.record_session_nets(
        event, table=table, nets={ann.pk: -30, bea.pk: 30, cal.pk: 0, dan.pk: 0}
    )
    ratings.update_club(event.club_id)
    mu = dict(PlayerRating.objects.values_list("player__name", "mu"))
    assert mu["Bea"] > mu["Cal"] == mu["Dan"] > mu["Ann"]
    assert mu["Bea"] > 25 > mu["Ann"]
    assert ratings.club_ranking(event.club_id)[0].name == "Bea"


def test_a_confirmed_result_queues_the_ratings_job(django_capture_on_commit_callbacks):
    """Recording a result queues the club's ratings task on commit (eager Celery here)."""
    event = event_with_field(2, status="running")
    a, b = event.entries.order_by("pk")
    table = Table.objects.create(
        round=RoundFactory(event=event, number=1), number=1, seat_a=a, seat_b=b
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.record_result(event, table=table, winner=a, loser_score=90)
    assert RatingState.objects.get(club=event.club).games == 1
    assert PlayerRating.objects.get(player=a.player).games == 1


def test_incremental_equals_from_scratch_after_correction_and_undo():
    """The job run after every game (as the task is) leaves the same state, bit for bit, as a
    replay of every game from scratch, also after a correction and an undo."""
    club = ClubFactory()
    rng = random.Random(16)
    first = event_with_field(10, status="running", club=club, date="2026-01-10")
    second = event_with_field(0, status="running", club=club, date="2026-01-17")
    for entry in first.entries.all():  # the same players come back a week later
        EntryFactory(event=second, player=entry.player)
    runs = []
    for event, number in [(first, 1), (first, 2), (first, 3), (second, 1), (second, 2)]:
        play_game(event, number, rng)
        runs.append(ratings.update_club(club.pk))
    assert runs == ["scratch"] + ["incremental"] * 4
    state = RatingState.objects.get(club=club)
    assert state.games == 25 and state.full_runs == 1
    incremental = snapshot(club.pk)
    assert ratings.update_club(club.pk, from_scratch=True) == "scratch"
    assert snapshot(club.pk) == incremental

    # A correction of a game of the first night: an earlier game changed, so from scratch.
    table = Table.objects.filter(round__event=first, round__number=2).order_by("number").first()
    result = table.result
    services.record_result(
        first, table=table, winner=result.loser, loser_score=90, reason="Card misread"
    )
    assert ratings.update_club(club.pk) == "scratch"
    corrected = snapshot(club.pk)
    assert corrected != incremental
    ratings.update_club(club.pk, from_scratch=True)
    assert snapshot(club.pk) == corrected

    # Undo the last result of the second night: one game fewer, from scratch again.
    services.undo_last_result(second, reason="Wrong table")
    assert ratings.update_club(club.pk) == "scratch"
    assert RatingState.objects.get(club=club).games == 24
    undone = snapshot(club.pk)
    ratings.update_club(club.pk, from_scratch=True)
    assert snapshot(club.pk) == undone
    # Nothing new: the job is a no-op.
    assert ratings.update_club(club.pk) == "current"


def test_history_has_a_line_per_player_per_event():
    club = ClubFactory()
    rng = random.Random(3)
    first = event_with_field(4, status="running", club=club, date="2026-02-01")
    play_game(first, 1, rng)
    second = event_with_field(0, status="running", club=club, date="2026-02-08")
    for entry in first.entries.all():
        EntryFactory(event=second, player=entry.player)
    play_game(second, 1, rng)
    ratings.update_club(club.pk)
    player = first.entries.first().player
    lines = ratings.player_history(player.pk)[0]["lines"]
    assert [line["event"].pk for line in lines] == [first.pk, second.pk]
    assert [line["games"] for line in lines] == [1, 2]


def test_provisional_until_enough_games():
    assert ratings.is_provisional(3, 5.0)
    assert ratings.is_provisional(20, 7.5)
    assert not ratings.is_provisional(ratings.PROVISIONAL_GAMES, ratings.PROVISIONAL_SIGMA)
    # A regular's sigma after a dozen games really is below the threshold.
    skills, _history = ratings.replay(
        ratings.RatedGame(("2026-01-01", 1, n, 1), (1, n + 100), (1, 2)) for n in range(12)
    )
    assert skills[1].games == 12 and skills[1].sigma < ratings.PROVISIONAL_SIGMA


def test_club_ratings_page_and_player_page(client):
    event = event_with_field(2, status="running", club=ClubFactory(name="Peg Club"))
    a, b = event.entries.order_by("pk")
    table = Table.objects.create(
        round=RoundFactory(event=event, number=1), number=1, seat_a=a, seat_b=b
    )
    services.record_result(event, table=table, winner=a, loser_score=90)
    ratings.update_club(event.club_id)
    page = client.get(reverse("club-ratings", args=[event.club_id]))
    assert page.status_code == 200
    html = page.content.decode()
    assert a.player.name in html and "provisional" in html
    assert "27.6 ± 8.1" in html  # mean and uncertainty of the winner
    player = client.get(reverse("player-ledgers", args=[a.player_id]))
    assert 'id="player-ratings"' in player.content.decode()
    assert "27.6 ± 8.1" in player.content.decode()
    assert client.get(reverse("club-ratings", args=[99_999])).status_code == 404


def test_the_provider_gives_each_entry_its_conservative_rating():
    event = event_with_field(3, status="running")
    a, b, c = event.entries.order_by("pk")
    table = Table.objects.create(
        round=RoundFactory(event=event, number=1), number=1, seat_a=a, seat_b=b
    )
    services.record_result(event, table=table, winner=b, loser_score=70)
    ratings.update_club(event.club_id)
    values = hooks.entry_ratings(event.pk)
    assert values[b.pk] > values[c.pk] > values[a.pk]
    assert values[c.pk] == pytest.approx(0.0, abs=1e-9)  # unrated: a new player's 25 - 3 x 8.33


def test_ratings_run_on_the_seasons_queue():
    from config.celery import app

    assert app.amqp.router.route({}, "scoring.update_ratings")["queue"].name == "seasons"
    assert EventFactory  # factories import (keeps the module's helpers honest)


# --- Seeding draws by rating ---------------------------------------------------------------------


@pytest.fixture
def rated_field():
    """Four players of a club rated by a first night (Dan worst), entered in a new event of the
    club in the reverse order (so entry order is not rating order)."""
    club = ClubFactory()
    night = event_with_field(0, status="running", club=club, date="2026-03-01")
    names = ["Ann", "Bea", "Cal", "Dan"]
    first = {n: EntryFactory(event=night, player__name=n) for n in names}
    for number, pairs in enumerate(
        [[("Ann", "Bea"), ("Cal", "Dan")], [("Ann", "Cal"), ("Bea", "Dan")]], 1
    ):
        round_ = RoundFactory(event=night, number=number)
        for t, (w, lo) in enumerate(pairs, start=1):
            table = Table.objects.create(round=round_, number=t, seat_a=first[w], seat_b=first[lo])
            services.record_result(night, table=table, winner=first[w], loser_score=90)
    for _repeat in range(3):  # Bea beats Cal a few times: a clear order of all four
        round_ = RoundFactory(event=night, number=night.rounds.count() + 1)
        table = Table.objects.create(
            round=round_, number=1, seat_a=first["Bea"], seat_b=first["Cal"]
        )
        services.record_result(night, table=table, winner=first["Bea"], loser_score=80)
    ratings.update_club(club.pk)
    best_first = [line.name for line in ratings.club_ranking(club.pk)]
    # Bea (4 of 5 won) is surer than Ann (2 of 2): the conservative rating puts her first.
    assert best_first == ["Bea", "Ann", "Cal", "Dan"]
    return club, {n: first[n].player for n in best_first}


def test_the_first_swiss_game_is_seeded_by_rating(rated_field):
    from tournaments import pairing_bridge

    club, players = rated_field
    event = EventFactory(club=club, pairing=Event.Pairing.SWISS, seed_by_rating=True)
    entries = {n: EntryFactory(event=event, player=players[n]) for n in reversed(players)}
    order, _scores = pairing_bridge.swiss_order(event, [e.pk for e in entries.values()])
    assert order == [entries[n].pk for n in players]  # best rated first
    # Unchanged by default: unranked players in entry order.
    event.seed_by_rating = False
    order, _scores = pairing_bridge.swiss_order(event, [e.pk for e in entries.values()])
    assert order == sorted(e.pk for e in entries.values())


def test_a_drawn_playoff_is_seeded_by_rating(rated_field):
    club, players = rated_field
    event = EventFactory(club=club, kind=Event.Kind.PLAYOFF_ONLY, seed_by_rating=True)
    entries = {
        n: EntryFactory(event=event, player=players[n], checked_in=True) for n in reversed(players)
    }
    bracket = services.create_playoff(event, source="draw")
    assert bracket.seeds == [entries[n].pk for n in players]  # best rated first
    # Seed 1 meets seed 4 in round one.
    first = bracket.matches.filter(round=1).order_by("number").first()
    assert {first.seat_a_id, first.seat_b_id} == {entries["Bea"].pk, entries["Dan"].pk}


def test_rating_and_a_named_ranking_do_not_mix(rated_field):
    from core.errors import ServiceError

    club, players = rated_field
    other = EventFactory(club=club)
    event = EventFactory(club=club, kind=Event.Kind.PLAYOFF_ONLY)
    for player in players.values():
        EntryFactory(event=event, player=player, checked_in=True)
    with pytest.raises(ServiceError) as caught:
        services.create_playoff(event, source="draw", by_rating=True, ranking_event=other)
    assert caught.value.code == "ranking_and_rating"


def test_merging_two_records_of_one_player_rates_the_club_again(
    django_capture_on_commit_callbacks,
):
    club = ClubFactory()
    first = event_with_field(2, status="running", club=club, date="2026-04-01")
    second = event_with_field(2, status="running", club=club, date="2026-04-08")
    rng = random.Random(5)
    play_game(first, 1, rng)
    play_game(second, 1, rng)
    ratings.update_club(club.pk)
    keep = first.entries.order_by("pk").first().player
    merged = second.entries.order_by("pk").first().player
    with django_capture_on_commit_callbacks(execute=True):
        services.merge_players(club, keep=keep, merged=merged)
    rating = PlayerRating.objects.get(club=club, player=keep)
    assert rating.games == 2  # both records' games, now one player's
    assert not PlayerRating.objects.filter(player_id=merged.pk).exists()
    assert RatingState.objects.get(club=club).full_runs == 2


def test_playoff_games_are_rated_and_the_player_page_counts_agree(
    client, django_capture_on_commit_callbacks
):
    """Issue 22, item 5: every confirmed game counts, playoff games too (after the event's
    qualifying games); a forfeit does not. The player page's "Games won / played" is the
    ratings' count, not the season ledgers' (0 / 0 for a player outside every season)."""
    event = event_with_field(4, kind=Event.Kind.SANCTIONED, games_planned=1)
    round_ = services.draw_next_game(event)
    with django_capture_on_commit_callbacks(execute=True):
        for table in round_.tables.all():
            services.record_result(event, table=table, winner=table.seat_a, loser_score=100)
    assert RatingState.objects.get(club=event.club).games == 2
    bracket = services.create_playoff(event, qualifiers=4, confirm_lots=True, best_of=(3,))
    semi = bracket.matches.filter(seat_a__isnull=False, seat_b__isnull=False).order_by("position")
    first = semi.first()
    version = Event.objects.get(pk=event.pk).results_version
    services.record_playoff_game(event, match=first.code, winner=first.seat_b, loser_score=90)
    services.record_playoff_game(event, match=first.code, winner=first.seat_a, forfeit=True)
    services.record_playoff_game(event, match=first.code, winner=first.seat_b, loser_score=80)
    # Each playoff game is announced as a changed result (the standings run, then the ratings
    # job, follow it; the test's one transaction keeps the first run's callback queued).
    assert Event.objects.get(pk=event.pk).results_version == version + 3
    assert ratings.update_club(event.club_id) == "incremental"
    # Qualifying 2 games + the playoff's 2 played games (the forfeit is not one): 4 rated.
    assert RatingState.objects.get(club=event.club).games == 4
    player = first.seat_b.player
    rating = PlayerRating.objects.get(player=player)
    assert rating.games == 3  # one qualifying game, two playoff games
    assert ratings.player_game_counts(player.pk) == (2, 3)  # lost in qualifying, won both
    page = client.get(reverse("player-ledgers", args=[player.pk])).content.decode()
    assert '<span id="games-won-played">2 / 3</span>' in page
    assert "3 games" in page
    # The playoff games come after every qualifying game of the event.
    keys = [game.key for game in ratings.club_games(event.club_id)]
    assert keys == sorted(keys) and keys[-1][2] > keys[1][2]
