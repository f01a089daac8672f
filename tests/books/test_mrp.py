"""books.mrp: the ACC's Master Rating Points and Grass Roots points (docs/rules/acc-mrp.md).

Each known case names the ACC page it comes from. The per-format tables of the upper half were
not retrieved, so the tests of the upper half load a table marked as test data, not the ACC's.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from books.error_codes import BooksError, BooksErrorCode
from books.mrp import (
    ACC_IRP_NINE_GAME,
    MRP_RULES,
    EventKind,
    MrpBasis,
    MrpTable,
    compute_mrp,
    grass_roots_points,
    points_earners,
    qualifier_count,
    rules_for,
)

D = Decimal
SEASON_2024 = date(2024, 10, 12)
# Test data, not the ACC's figures: the shape of a 22-game Main table.
MAIN_22 = MrpTable(EventKind.MAIN, 22, {26: D(10), 28: D(14), 30: D(20), 32: D(28)})


# cribbage.org/rules/playoffbracket.asp ("Playoff Brackets and Byes"), rule 2 and its examples.
@pytest.mark.parametrize(
    ("entrants", "qualifiers"),
    [(121, 31), (122, 31), (123, 31), (124, 31), (108, 27), (132, 33), (60, 15)],
)
def test_one_entrant_in_four_qualifies_rounded_up(entrants, qualifiers):
    assert qualifier_count(entrants) == qualifiers


def test_the_upper_half_is_the_top_eighth_of_the_field():
    # cribbage.org/newsite/about/scoring.asp: "The top 50% of the qualifiers (the top 1/8th of
    # the entire field) earn Master Points." How an odd half rounds is a setting (up).
    rules = rules_for(SEASON_2024)
    assert points_earners(qualifier_count(128), rules) == 16  # 128 / 8
    assert points_earners(qualifier_count(60), rules) == 8  # 15 qualifiers: 7.5, rounded up


def standings(n: int, top: int = 34) -> list[tuple[str, int]]:
    return [(f"p{i}", max(top - i, 0)) for i in range(n)]


def test_the_lower_half_of_main_qualifiers_get_5_from_2016_17():
    # cribbage.org/newsite/about/scoring.asp: "Starting with the 2016/2017 season, the bottom
    # 50% of the qualifiers will also earn Master Points. Main qualifiers who are in the bottom
    # half of the qualifiers receive 5 points".
    awards = compute_mrp(EventKind.MAIN, 22, 64, standings(64), SEASON_2024, MAIN_22)
    assert len(awards) == 16
    upper, lower = awards[:8], awards[8:]
    assert all(a.basis is MrpBasis.UPPER_HALF_TABLE for a in upper)
    assert [(a.basis, a.points) for a in lower] == [(MrpBasis.LOWER_HALF_FIXED, D(5))] * 8


def test_the_lower_half_of_consolation_qualifiers_get_3():
    # Same page: "the bottom half of Consolation qualifiers receive 3 points".
    table = MrpTable(EventKind.CONSOLATION, 9, {12: D(3), 14: D(6)})
    awards = compute_mrp(EventKind.CONSOLATION, 9, 40, standings(40, 16), SEASON_2024, table)
    assert len(awards) == 10
    assert [a.points for a in awards[5:]] == [D(3)] * 5


def test_before_2016_17_the_lower_half_earned_nothing():
    awards = compute_mrp(EventKind.MAIN, 22, 64, standings(64), date(2015, 3, 1), MAIN_22)
    assert [(a.basis, a.points) for a in awards[8:]] == [(MrpBasis.NONE, D(0))] * 8


def test_the_rules_are_picked_by_the_events_date():
    assert rules_for(date(2016, 8, 31)) is MRP_RULES[0]
    assert rules_for(date(2016, 9, 1)) is MRP_RULES[1]
    with pytest.raises(BooksError) as exc:
        rules_for(date(1979, 1, 1))
    assert exc.value.code is BooksErrorCode.NO_MRP_RULES


def test_the_upper_half_reads_the_loaded_table_by_game_points():
    field = [("a", 33), ("b", 32), ("c", 29), ("d", 28), ("e", 27), ("f", 25), ("g", 25),
             ("h", 24), *standings(56, 22)]  # fmt: skip
    awards = compute_mrp(EventKind.MAIN, 22, 64, field, SEASON_2024, MAIN_22)
    assert [a.points for a in awards[:8]] == [D(28), D(28), D(14), D(14), D(10), D(10), D(10),
                                              D(10)]  # fmt: skip
    assert [a.qualifying_rank for a in awards[:3]] == [1, 2, 3]


def test_without_a_table_the_upper_half_cannot_be_computed():
    with pytest.raises(BooksError) as exc:
        compute_mrp(EventKind.MAIN, 22, 64, standings(64), SEASON_2024)
    assert exc.value.code is BooksErrorCode.NO_MRP_TABLE
    with pytest.raises(BooksError) as exc:
        compute_mrp(EventKind.CONSOLATION, 22, 64, standings(64), SEASON_2024, MAIN_22)
    assert exc.value.code is BooksErrorCode.NO_MRP_TABLE


def test_too_few_standings_for_the_cut_are_refused():
    with pytest.raises(BooksError) as exc:
        compute_mrp(EventKind.MAIN, 22, 64, standings(10), SEASON_2024, MAIN_22)
    assert exc.value.code is BooksErrorCode.BAD_FIELD


# cribbage.org/internet/Irp.asp (revised 07/02/2016): the 9-game table, 12 -> 3 ... 21 -> 107.
@pytest.mark.parametrize(("game_points", "points"), [(11, 0), (12, 3), (16, 27), (21, 107),
                                                     (24, 107)])  # fmt: skip
def test_grass_roots_points_for_members_from_12_game_points(game_points, points):
    assert grass_roots_points("m", game_points, is_member=True).points == points


def test_guests_earn_no_grass_roots_points():
    award = grass_roots_points("g", 18, is_member=False)
    assert (award.points, award.reason) == (0, "guest")
    assert ACC_IRP_NINE_GAME[18] == 53
