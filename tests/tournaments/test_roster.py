"""The roster: names folded and matched loosely, the search, the list import, check in all,
renaming and merging the club's players."""

from __future__ import annotations

import datetime

import pytest

from core.errors import ServiceError
from scoring.models import SeasonLedger
from scoring.seasons import create_season, recompute_season
from scoring.services import recompute_standings
from tests.factories import ClubFactory, EntryFactory, EventFactory, PlayerFactory
from tournaments import names, selectors, services
from tournaments.models import Entry, Event, GameResult, Player

pytestmark = pytest.mark.django_db


# --- Names (pure) --------------------------------------------------------------------------------


def test_fold_strips_accents_case_and_spaces():
    assert names.fold("  Jürgen   Weiß ") == "jurgen weiss"
    assert names.fold("ANN Whitfield") == names.fold("ann whitfield")
    assert names.fold("Brașov Ñúñez") == "brasov nunez"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("ann whitfeld", [1]),  # a letter missed
        ("Jurgen", [2]),
        ("weiss", [2]),
        ("whit", [1, 5]),
        ("ann", [1, 4]),
        ("xyz", []),
    ],
)
def test_best_matches(query, expected):
    people = [
        (1, "Ann Whitfield"),
        (2, "Jürgen Weiß"),
        (3, "Bob Ng"),
        (4, "Annette Baker"),
        (5, "Joan Whitfield"),
    ]
    assert names.best_matches(query, people) == expected


def test_parse_roster_lines():
    text = "name,acc\nAnn Whitfield, 12345\n\nWhitfield, Joan\nJürgen Weiß\tD-778\n  \n"
    assert services.entries.parse_roster(text) == [
        (2, "Ann Whitfield", "12345"),
        (4, "Whitfield, Joan", ""),
        (5, "Jürgen Weiß", "D-778"),
    ]


# --- The search ----------------------------------------------------------------------------------


@pytest.fixture
def club():
    return ClubFactory(name="Brașov Pegs")


@pytest.fixture
def regulars(club):
    ann = PlayerFactory(name="Ann Whitfield", home_club=club, acc_number="12345")
    jurgen = PlayerFactory(name="Jürgen Weiß", home_club=club)
    visitor = PlayerFactory(name="Zoë Ånström", home_club=None, status=Player.Status.VISITOR)
    EntryFactory(event=EventFactory(club=club), player=visitor)
    PlayerFactory(name="Ann Whitfield", home_club=ClubFactory())  # another club's Ann
    return ann, jurgen, visitor


def test_search_finds_the_clubs_players_accents_and_typos_aside(club, regulars):
    ann, jurgen, visitor = regulars
    assert selectors.find_club_players(club, "ann whitfeld") == [ann]
    assert selectors.find_club_players(club, "Jurgen") == [jurgen]
    assert selectors.find_club_players(club, "JÜRGEN WEISS") == [jurgen]
    assert selectors.find_club_players(club, "zoe anstrom") == [visitor]
    assert selectors.find_club_players(club, "12345") == [ann]
    assert selectors.find_club_players(club, "   ") == []


# --- Entering players ----------------------------------------------------------------------------


def test_enter_a_picked_player_and_refuse_another_clubs(club, regulars):
    ann, _jurgen, _visitor = regulars
    event = EventFactory(club=club)
    entry = services.enter_club_player(event, ann)
    assert entry.player == ann and entry.checked_in
    stranger = Player.objects.exclude(pk=ann.pk).get(name="Ann Whitfield")
    with pytest.raises(ServiceError) as error:
        services.enter_club_player(event, stranger)
    assert error.value.code == "unknown_player"
    with pytest.raises(ServiceError) as error:
        services.enter_club_player(event, ann)
    assert error.value.code == "already_entered"


def test_check_in_all_skips_the_withdrawn(club):
    event = EventFactory(club=club)
    waiting = EntryFactory.create_batch(3, event=event, checked_in=False)
    gone = EntryFactory(event=event, checked_in=False, withdrawn=True)
    assert services.check_in_all(event) == 3
    assert all(Entry.objects.get(pk=e.pk).checked_in for e in waiting)
    assert not Entry.objects.get(pk=gone.pk).checked_in


def test_import_matches_known_players_and_reports_every_line(club, regulars):
    ann, jurgen, _visitor = regulars
    event = EventFactory(club=club)
    already = EntryFactory(
        event=event, checked_in=False, player__name="Bob Ng", player__home_club=club
    )
    text = "\n".join(
        [
            "A. Whitfield, 12345",  # Ann's number under another name
            "ann whitfield",  # Ann by name
            "JURGEN WEISS\t",  # Jürgen by name, accents aside
            "Bob Ng",  # already entered
            "Maria Popescu, 55501",  # new, with a number
            "maria popescu",  # listed twice
            "Ion Rusu",  # new
        ]
    )
    report = services.import_roster(event, text, checked_in=True)
    outcomes = [(line.line, line.outcome, line.name) for line in report.lines]
    assert outcomes == [
        (1, "skipped", "A. Whitfield"),
        (2, "matched", "Ann Whitfield"),
        (3, "matched", "Jürgen Weiß"),
        (4, "skipped", "Bob Ng"),
        (5, "added", "Maria Popescu"),
        (6, "skipped", "maria popescu"),
        (7, "added", "Ion Rusu"),
    ]
    assert "belongs to Ann Whitfield" in report.lines[0].reason
    assert "already entered" in report.lines[3].reason
    assert report.lines[5].reason == "Listed twice."
    entered = set(event.entries.values_list("player__name", flat=True))
    assert entered == {"Bob Ng", "Ann Whitfield", "Jürgen Weiß", "Maria Popescu", "Ion Rusu"}
    assert Player.objects.get(name="Maria Popescu").acc_number == "55501"
    assert Player.objects.filter(name="Ann Whitfield", home_club=club).count() == 1
    assert event.entries.filter(checked_in=False).values_list("pk", flat=True).get() == already.pk


def test_import_of_a_finished_event_writes_nothing(club):
    event = EventFactory(club=club, status=Event.Status.FINISHED)
    with pytest.raises(ServiceError) as error:
        services.import_roster(event, "Ann Whitfield\nBob Ng")
    assert error.value.code == "event_finished"
    assert not Player.objects.filter(name="Bob Ng").exists()


# --- Rename and merge ----------------------------------------------------------------------------


def test_rename_a_player_of_the_club(club, regulars):
    ann, _jurgen, _visitor = regulars
    services.rename_player(club, ann, "  Ann   Whitfield-Ng ")
    ann.refresh_from_db()
    assert ann.name == "Ann Whitfield-Ng"
    with pytest.raises(ServiceError) as error:
        services.rename_player(club, ann, " ")
    assert error.value.code == "name_required"
    with pytest.raises(ServiceError) as error:
        services.rename_player(ClubFactory(), ann, "Someone else")
    assert error.value.code == "unknown_player"
    ann.refresh_from_db()
    assert ann.name == "Ann Whitfield-Ng"


def test_a_visiting_member_of_another_club_is_that_clubs_to_rename(club):
    home = ClubFactory(name="Cluj Pegs")
    visitor = PlayerFactory(name="Ioana Pop", home_club=home)
    EntryFactory(event=EventFactory(club=club), player=visitor)
    assert selectors.find_club_players(club, "ioana") == [visitor]  # still found at the door
    with pytest.raises(ServiceError) as error:
        services.rename_player(club, visitor, "Ioana Popescu")
    assert error.value.code == "unknown_player"
    services.rename_player(home, visitor, "Ioana Popescu")
    visitor.refresh_from_db()
    assert visitor.name == "Ioana Popescu"


def night(club, date, player, opponent_name, *, won: bool):
    """A one-game night for ``player`` against a new opponent, standings computed."""
    event = EventFactory(club=club, date=date, games_planned=1)
    me = EntryFactory(event=event, player=player)
    EntryFactory(event=event, player__name=opponent_name, player__home_club=club)
    round_ = services.draw_next_game(event)
    table = round_.tables.get()
    other = table.seat_b if table.seat_a_id == me.pk else table.seat_a
    services.record_result(event, table=table, winner=me if won else other, loser_score=90)
    services.finish_event(event)  # a night counts for its season once finished
    recompute_standings(event.pk)
    return event


def test_merge_moves_entries_results_and_season_ledgers(
    club, regulars, django_capture_on_commit_callbacks
):
    ann, _jurgen, _visitor = regulars
    typo = PlayerFactory(name="Ann Witfield", home_club=club)
    season = create_season(club, start=datetime.date(2026, 9, 1), end=datetime.date(2027, 5, 31))
    first = night(club, datetime.date(2026, 10, 1), ann, "Bob Ng", won=True)
    second = night(club, datetime.date(2026, 10, 8), typo, "Ion Rusu", won=True)
    recompute_season(season.pk)
    assert SeasonLedger.objects.get(season=season, player=typo).games_won == 1

    with django_capture_on_commit_callbacks(execute=True):
        kept = services.merge_players(club, keep=ann, merged=typo)

    assert kept == ann and not Player.objects.filter(pk=typo.pk).exists()
    assert set(ann.entries.values_list("event_id", flat=True)) == {first.pk, second.pk}
    assert GameResult.objects.filter(winner__player=ann).count() == 2
    ledger = SeasonLedger.objects.get(season=season, player=ann)
    assert (ledger.nights, ledger.games_won) == (2, 2)
    assert not SeasonLedger.objects.filter(player_id=typo.pk).exists()


def test_merge_refuses_two_players_of_one_event(club, regulars):
    ann, jurgen, _visitor = regulars
    event = EventFactory(club=club, name="Jeudi soir")
    EntryFactory(event=event, player=ann)
    EntryFactory(event=event, player=jurgen)
    with pytest.raises(ServiceError) as error:
        services.merge_players(club, keep=ann, merged=jurgen)
    assert error.value.code == "both_entered" and "Jeudi soir" in error.value.message
    assert Player.objects.filter(pk=jurgen.pk).exists()
    assert event.entries.count() == 2


def test_merge_refuses_different_acc_numbers_and_the_same_player(club, regulars):
    ann, jurgen, _visitor = regulars
    jurgen.acc_number = "67890"
    jurgen.save()
    with pytest.raises(ServiceError) as error:
        services.merge_players(club, keep=ann, merged=jurgen)
    assert error.value.code == "different_acc_numbers"
    with pytest.raises(ServiceError) as error:
        services.merge_players(club, keep=ann, merged=ann)
    assert error.value.code == "same_player"


def test_merge_keeps_the_acc_number_of_the_merged_record(club):
    kept = PlayerFactory(name="Ion Rusu", home_club=club)
    merged = PlayerFactory(name="Ion Rusu (ACC)", home_club=club, acc_number="31337")
    services.merge_players(club, keep=kept, merged=merged)
    kept.refresh_from_db()
    assert kept.acc_number == "31337"
