"""Master Rating Points computed from the ACC's rules (``books.mrp``), not typed in the admin.

Known values from ``docs/rules/acc-mrp.md``: one entrant in four qualifies, rounded up (60
entrants -> 15 qualifiers, playoffbracket.asp); the upper half of the qualifiers (8 of 15,
rounded up by default) earn by the format's table; from the 2016/2017 season the lower half
earn a fixed 5 (Main) or 3 (Consolation), before it nothing (scoring.asp). The upper-half
table below is labelled test data: the ACC's per-format tables were not retrieved, so those
points are provisional unless the loaded table is marked verified.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.core.management import call_command

from core.errors import ServiceError
from scoring.models import MrpAward, MrpTable, SeasonLedger, SeasonNight
from scoring.mrp_awards import compute_event_mrp
from scoring.seasons import create_season, recompute_season
from scoring.services import recompute_standings
from tests.factories import ClubFactory, EntryFactory, EventFactory, PlayerFactory, RoundFactory
from tests.scoring.test_seasons import night
from tournaments import services
from tournaments.models import Event, Table
from tournaments.services.members import save_membership

pytestmark = pytest.mark.django_db
AFTER_2016 = datetime.date(2026, 10, 10)
BEFORE_2016 = datetime.date(2015, 10, 10)
TEST_TABLE = {"2": "7.5", "3": "9"}  # test data, not the ACC's figures


def played(club, date, players, *, kind=Event.Kind.SANCTIONED, finish=True):
    """A one-game event of ``players`` entrants: at table k the first seat beats the second,
    whose score is 91 + k (no skunk: 2 game points a win), so the winners rank by table."""
    event = EventFactory(
        club=club, date=date, kind=kind, games_planned=1, status=Event.Status.RUNNING
    )
    entries = [EntryFactory(event=event) for _ in range(players)]
    round_ = RoundFactory(event=event, number=1)
    for k in range(players // 2):
        table = Table.objects.create(
            round=round_, number=k + 1, seat_a=entries[2 * k], seat_b=entries[2 * k + 1]
        )
        services.record_result(event, table=table, winner=entries[2 * k], loser_score=91 + k)
    if finish:
        services.finish_event(event)
    recompute_standings(event.pk)
    return event, entries


def test_sixty_entrants_give_fifteen_qualifiers_eight_by_the_table_seven_fixed():
    club = ClubFactory()
    MrpTable.objects.create(kind="main", games=1, rows=TEST_TABLE, source="test data")
    event, entries = played(club, AFTER_2016, 60)
    awards = compute_event_mrp(event)
    assert len(awards) == 15  # 60 entrants -> 15 qualifiers (playoffbracket.asp)
    winners = [entries[2 * k].pk for k in range(15)]  # table 1's winner has the best spread
    assert [a.entry_id for a in awards] == winners
    assert [a.qualifying_rank for a in awards] == list(range(1, 16))
    assert [a.basis for a in awards] == ["upper_half_table"] * 8 + ["lower_half_fixed"] * 7
    assert [a.points for a in awards] == [Decimal("7.5")] * 8 + [Decimal(5)] * 7
    assert [a.provisional for a in awards] == [True] * 8 + [False] * 7  # the table: unverified
    assert MrpAward.objects.filter(event=event).count() == 15
    assert compute_event_mrp(event) and MrpAward.objects.filter(event=event).count() == 15


def test_a_consolation_gives_the_lower_half_three_and_a_verified_table_is_final():
    club = ClubFactory()
    MrpTable.objects.create(club=club, kind="consolation", games=1, rows=TEST_TABLE, verified=True)
    MrpTable.objects.create(kind="consolation", games=1, rows={"2": "1"})  # the site's: not used
    event, _entries = played(club, AFTER_2016, 24, kind=Event.Kind.CONSOLATION)
    awards = compute_event_mrp(event)
    # 24 entrants -> 6 qualifiers; 3 by the club's table, 3 the Consolation's fixed award
    assert [a.points for a in awards] == [Decimal("7.5")] * 3 + [Decimal(3)] * 3
    assert not any(a.provisional for a in awards)


def test_before_the_2016_17_season_the_lower_half_earned_nothing():
    event, _entries = played(ClubFactory(), BEFORE_2016, 24)  # no table loaded at all
    awards = compute_event_mrp(event)
    assert [a.basis for a in awards] == ["upper_half_table"] * 3 + ["none"] * 3
    assert [a.points for a in awards] == [Decimal(0)] * 6
    assert [a.provisional for a in awards] == [True] * 3 + [False] * 3
    assert {a.rules_effective for a in awards} == {datetime.date(1980, 3, 1)}


def test_only_finished_main_or_consolation_events_earn_mrps():
    club = ClubFactory()
    running, _ = played(club, AFTER_2016, 8, finish=False)
    with pytest.raises(ServiceError) as refused:
        compute_event_mrp(running)
    assert refused.value.code == "event_not_finished"
    club_night, _ = played(club, AFTER_2016, 8, kind=Event.Kind.CLUB_NIGHT)
    with pytest.raises(ServiceError) as refused:
        compute_event_mrp(club_night)
    assert refused.value.code == "not_an_mrp_event"


def test_the_command_computes_and_the_finish_stores_them(django_capture_on_commit_callbacks):
    club = ClubFactory()
    event, _ = played(club, AFTER_2016, 8, finish=False)
    with django_capture_on_commit_callbacks(execute=True):
        services.finish_event(event)
    assert list(MrpAward.objects.filter(event=event).values_list("points", flat=True)) == [
        Decimal(0),
        Decimal(5),
    ]  # 8 entrants -> 2 qualifiers: one by the (missing) table, one the fixed 5
    MrpAward.objects.all().delete()
    call_command("compute_mrp", str(event.pk))
    assert MrpAward.objects.filter(event=event).count() == 2
    with django_capture_on_commit_callbacks(execute=True):
        services.reopen_event(event)
    assert not MrpAward.objects.filter(event=event).exists()  # no longer final


def test_members_only_get_grass_roots_points_and_computed_mrps_reach_the_season():
    club = ClubFactory()
    season = create_season(club, start=datetime.date(2026, 9, 1), end=datetime.date(2027, 5, 31))
    ann = PlayerFactory(name="Ann Whitfield", home_club=club)
    bob = PlayerFactory(name="Bob Ørsted", home_club=club)
    save_membership(club, ann, acc_number="10234", season_start=season.start, season_end=season.end)
    night(club, AFTER_2016, ann, 7, 2)  # 14 game points -> 11 Grass Roots points
    night(club, AFTER_2016, bob, 7, 2)  # the same night's points, as a guest -> none
    recompute_season(season.pk)
    assert SeasonLedger.objects.get(season=season, player=ann).grass_roots_points == 11
    bob_line = SeasonLedger.objects.get(season=season, player=bob)
    assert (bob_line.grass_roots_points, bob_line.game_points) == (0, 14)
    assert SeasonNight.objects.get(season=season, player=bob).why == "guest"

    event, entries = played(club, AFTER_2016 + datetime.timedelta(days=1), 8)
    compute_event_mrp(event)
    recompute_season(season.pk)
    second = SeasonLedger.objects.get(season=season, player=entries[2].player)
    assert second.master_points == Decimal(5)


def test_a_table_row_that_is_no_number_is_refused_not_a_crash():
    club = ClubFactory()
    MrpTable.objects.create(kind="main", games=1, rows={"two": "7.5"})
    event, _ = played(club, AFTER_2016, 8)
    with pytest.raises(ServiceError) as refused:
        compute_event_mrp(event)
    assert refused.value.code == "mrp_refused"
    assert not MrpAward.objects.filter(event=event).exists()


def test_the_archive_carries_the_computed_mrps():
    from results.archive import export_event

    event, entries = played(ClubFactory(), AFTER_2016, 8)
    compute_event_mrp(event)
    rows = export_event(event)["mrp_awards"]
    assert [(r["qualifying_rank"], r["points"], r["basis"], r["provisional"]) for r in rows] == [
        (1, "0.00", "upper_half_table", True),
        (2, "5.00", "lower_half_fixed", False),
    ]
    assert rows[0]["rules_effective"] == "2016-09-01"
