"""ACC Rule 12.2: the two paper lines of a game cross-checked, cases a-f (no database)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.crosscheck import (
    AdjudicatedLine,
    Clause,
    Column,
    CrosscheckError,
    Result,
    WrittenLine,
    apparent_qualifiers,
    reconcile,
    reconcile_many,
)

W, L, N = Result.WIN, Result.LOSS, Result.NONE
PLUS, MINUS = Column.PLUS, Column.MINUS


def line(player, claim, spread=None, column=None):
    return WrittenLine(player, claim, spread, column)


def outcome(rec):
    """(result, signed spread) of both players, a's first."""
    return (rec.a.result, rec.a.spread), (rec.b.result, rec.b.spread)


# --- agree -------------------------------------------------------------------------------


def test_mirrored_lines_agree_and_nothing_changes():
    rec = reconcile(line("ann", W, 12, PLUS), line("bob", L, 12, MINUS))
    assert rec.clause is Clause.AGREE and rec.clauses == (Clause.AGREE,)
    assert outcome(rec) == ((W, 12), (L, -12))
    assert not rec.flagged and not rec.changed
    assert rec.explanation == "The two lines agree: ann won by 12."
    assert rec.for_player("bob") == AdjudicatedLine("bob", L, -12)


# --- case a: different spreads, one apparent qualifier --------------------------------------


def test_a_winning_qualifier_gets_the_smaller_margin():
    rec = reconcile(
        line("ann", W, 15, PLUS), line("bob", L, 12, MINUS), apparent_qualifiers={"ann"}
    )
    assert rec.clause is Clause.A
    # The game keeps one margin, the one worse for Ann; Bob gets its mirror.
    assert outcome(rec) == ((W, 12), (L, -12))
    assert not rec.flagged and rec.changed
    assert "ann is an apparent qualifier" in rec.explanation


def test_a_losing_qualifier_gets_the_larger_margin():
    rec = reconcile(
        line("ann", W, 15, PLUS), line("bob", L, 12, MINUS), apparent_qualifiers={"bob"}
    )
    assert rec.clause is Clause.A
    assert outcome(rec) == ((W, 15), (L, -15))


# --- case b: different spreads, both apparent qualifiers -----------------------------------


def test_b_both_qualifiers_get_the_less_favourable_reading():
    rec = reconcile(
        line("ann", W, 15, PLUS),
        line("bob", L, 12, MINUS),
        apparent_qualifiers={"ann", "bob"},
    )
    assert rec.clause is Clause.B
    # Ann wins by the smaller, Bob loses by the larger: the lines no longer mirror.
    assert outcome(rec) == ((W, 12), (L, -15))
    assert not rec.flagged


# --- case c: spread on one line only --------------------------------------------------------


def test_c_spread_copied_to_the_blank_line():
    rec = reconcile(line("ann", W), line("bob", L, 23, MINUS))
    assert rec.clauses == (Clause.C,)
    assert outcome(rec) == ((W, 23), (L, -23))
    assert not rec.flagged


def test_c_with_the_written_spread_in_the_wrong_column_also_fixes_it():
    rec = reconcile(line("ann", W, 8, MINUS), line("bob", L))
    assert rec.clauses == (Clause.C, Clause.F)
    assert outcome(rec) == ((W, 8), (L, -8))


def test_both_spreads_missing_is_flagged_but_keeps_the_winner():
    rec = reconcile(line("ann", L), line("bob", W))
    assert rec.flagged and rec.flag_code == "spreads_missing"
    assert rec.clause is Clause.NONE
    assert outcome(rec) == ((L, None), (W, None))
    assert rec.explanation.startswith("Flagged for the TD")


def test_one_spread_missing_and_both_claim_the_win_is_flagged():
    rec = reconcile(line("ann", W, 10, PLUS), line("bob", W))
    assert rec.flagged and rec.flag_code == "claims_clash_spread_missing"
    assert outcome(rec) == ((N, None), (N, None))


# --- case d: both claim the win, columns differ --------------------------------------------


def test_d_the_plus_column_line_wins():
    rec = reconcile(line("ann", W, 9, MINUS), line("bob", W, 9, PLUS))
    assert rec.clauses == (Clause.D,)
    assert outcome(rec) == ((L, -9), (W, 9))
    assert "bob wrote the spread in plus" in rec.explanation


def test_d_then_a_when_the_spreads_also_differ():
    rec = reconcile(
        line("ann", W, 20, MINUS), line("bob", W, 14, PLUS), apparent_qualifiers={"bob"}
    )
    assert rec.clauses == (Clause.D, Clause.A)
    assert rec.clause is Clause.D
    assert outcome(rec) == ((L, -14), (W, 14))


def test_d_with_different_spreads_and_no_qualifier_keeps_the_winner_flags_the_spread():
    rec = reconcile(line("ann", W, 20, MINUS), line("bob", W, 14, PLUS))
    assert rec.clause is Clause.D and rec.flagged and rec.flag_code == "spreads_differ"
    assert outcome(rec) == ((L, None), (W, None))


# --- case e: both claim the win (or the loss), same column ---------------------------------


@pytest.mark.parametrize(("claim", "column"), [(W, PLUS), (W, MINUS), (L, MINUS), (L, PLUS)])
def test_e_a_loss_for_both(claim, column):
    rec = reconcile(line("ann", claim, 31, column), line("bob", claim, 31, column))
    assert rec.clauses == (Clause.E,)
    assert outcome(rec) == ((L, -31), (L, -31))
    assert not rec.flagged


def test_e_with_different_spreads_both_lose_by_the_larger():
    rec = reconcile(line("ann", W, 5, PLUS), line("bob", W, 7, PLUS))
    assert outcome(rec) == ((L, -7), (L, -7))


# --- case f: one claims the win, same column -----------------------------------------------


@pytest.mark.parametrize("column", [PLUS, MINUS])
def test_f_the_win_stands_and_the_column_is_fixed(column):
    rec = reconcile(line("ann", L, 40, column), line("bob", W, 40, column))
    assert rec.clauses == (Clause.F,)
    assert outcome(rec) == ((L, -40), (W, 40))
    assert not rec.flagged


def test_f_then_b():
    rec = reconcile(
        line("ann", W, 40, PLUS), line("bob", L, 44, PLUS), apparent_qualifiers={"ann", "bob"}
    )
    assert rec.clauses == (Clause.F, Clause.B)
    assert outcome(rec) == ((W, 40), (L, -44))


# --- what 12.2 does not cover ----------------------------------------------------------------


def test_different_spreads_without_qualifiers_are_flagged():
    rec = reconcile(line("ann", W, 15, PLUS), line("bob", L, 12, MINUS))
    assert rec.flagged and rec.flag_code == "spreads_differ" and rec.clause is Clause.NONE
    assert outcome(rec) == ((W, None), (L, None))


def test_both_claim_the_loss_in_different_columns_is_flagged():
    rec = reconcile(line("ann", L, 10, PLUS), line("bob", L, 10, MINUS))
    assert rec.flagged and rec.flag_code == "both_claim_loss"
    assert outcome(rec) == ((N, None), (N, None))


def test_claims_against_both_columns_is_flagged():
    rec = reconcile(line("ann", W, 10, MINUS), line("bob", L, 10, PLUS))
    assert rec.flagged and rec.flag_code == "claims_contradict_columns"


# --- malformed input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"spread": 0, "column": PLUS}, "spread_out_of_range"),
        ({"spread": 122, "column": PLUS}, "spread_out_of_range"),
        ({"spread": -5, "column": MINUS}, "negative_spread"),
        ({"spread": 5.0, "column": PLUS}, "bad_spread"),
        ({"spread": True, "column": PLUS}, "bad_spread"),
        ({"spread": 5}, "bad_column"),
        ({"spread": 5, "column": "left"}, "bad_column"),
        ({"column": PLUS}, "column_without_spread"),
        ({"claim": N}, "bad_claim"),
        ({"claim": "draw"}, "bad_claim"),
        ({"player": ""}, "missing_player"),
        ({"player": None}, "missing_player"),
    ],
)
def test_malformed_lines_raise_named_codes(kwargs, code):
    args = {"player": "ann", "claim": W} | kwargs
    with pytest.raises(CrosscheckError) as caught:
        WrittenLine(**args)
    assert caught.value.code == code
    assert isinstance(caught.value, ValueError)


def test_same_player_on_both_lines():
    with pytest.raises(CrosscheckError) as caught:
        reconcile(line("ann", W, 5, PLUS), line("ann", L, 5, MINUS))
    assert caught.value.code == "same_player"


def test_from_columns():
    assert WrittenLine.from_columns("ann", "win", plus=7) == line("ann", W, 7, PLUS)
    assert WrittenLine.from_columns("ann", "loss", minus=7) == line("ann", L, 7, MINUS)
    assert WrittenLine.from_columns("ann", "loss") == line("ann", L)
    assert WrittenLine.from_columns("ann", "win", plus=7).signed_spread == 7
    assert WrittenLine.from_columns("ann", "win", minus=7).signed_spread == -7
    for kwargs, code in [
        ({"claim": "win", "plus": 3, "minus": 3}, "both_columns"),
        ({"claim": "tie"}, "bad_claim"),
        ({"claim": "win", "minus": -3}, "negative_spread"),
    ]:
        with pytest.raises(CrosscheckError) as caught:
            WrittenLine.from_columns("ann", **kwargs)
        assert caught.value.code == code


# --- apparent qualifiers and a whole import --------------------------------------------------


def test_apparent_qualifiers_default_to_a_quarter_rounded_up():
    ranking = [f"p{i}" for i in range(9)]
    assert apparent_qualifiers(ranking) == {"p0", "p1", "p2"}
    assert apparent_qualifiers(ranking, 1) == {"p0"}
    assert apparent_qualifiers(ranking, 0) == set()
    assert apparent_qualifiers(ranking, 50) == set(ranking)
    assert apparent_qualifiers([]) == set()


@pytest.mark.parametrize(
    ("ranking", "qualifiers", "code"),
    [(["a", "b", "a"], None, "duplicate_in_ranking"), (["a"], -1, "bad_qualifiers")],
)
def test_apparent_qualifiers_errors(ranking, qualifiers, code):
    with pytest.raises(CrosscheckError) as caught:
        apparent_qualifiers(ranking, qualifiers)
    assert caught.value.code == code


def test_reconcile_many_counts_by_clause():
    qualifiers = apparent_qualifiers(["ann", "bob", "cal", "dee", "eve", "fay", "gus", "hal"])
    assert qualifiers == {"ann", "bob"}
    batch = reconcile_many(
        [
            (line("ann", W, 12, PLUS), line("cal", L, 12, MINUS)),  # agree
            (line("ann", W, 15, PLUS), line("dee", L, 12, MINUS)),  # a
            (line("eve", W), line("fay", L, 3, MINUS)),  # c
            (line("gus", W, 9, PLUS), line("hal", W, 9, PLUS)),  # e
            (line("cal", W, 9, PLUS), line("eve", L, 8, MINUS)),  # flagged
        ],
        apparent_qualifiers=qualifiers,
    )
    assert [r.clause for r in batch.reconciliations] == [
        Clause.AGREE,
        Clause.A,
        Clause.C,
        Clause.E,
        Clause.NONE,
    ]
    assert batch.summary[Clause.AGREE] == 1 and batch.summary[Clause.NONE] == 1
    assert batch.summary[Clause.D] == 0 and sum(batch.summary.values()) == 5
    assert [r.line_a.player for r in batch.flagged] == ["cal"]


def test_reconcile_many_reports_the_bad_game():
    with pytest.raises(CrosscheckError) as caught:
        reconcile_many(
            [
                (line("ann", W, 12, PLUS), line("cal", L, 12, MINUS)),
                (line("bob", W, 12, PLUS), line("bob", L, 12, MINUS)),
            ]
        )
    assert caught.value.code == "same_player" and caught.value.index == 1
    assert str(caught.value).startswith("game 2:")


# --- properties ------------------------------------------------------------------------------

spreads = st.integers(min_value=1, max_value=121)
written = st.builds(
    lambda claim, spread, column, blank: WrittenLine(
        "x", claim, None if blank else spread, None if blank else column
    ),
    st.sampled_from([W, L]),
    spreads,
    st.sampled_from([PLUS, MINUS]),
    st.booleans(),
)


def _as(player, wline):
    return WrittenLine(player, wline.claim, wline.spread, wline.column)


pairs = st.tuples(written, written).map(lambda p: (_as("ann", p[0]), _as("bob", p[1])))
qualifier_sets = st.sets(st.sampled_from(["ann", "bob"]))


@given(pairs, qualifier_sets)
def test_swapping_the_lines_swaps_the_outputs(pair, qualifiers):
    forward = reconcile(*pair, apparent_qualifiers=qualifiers)
    backward = reconcile(pair[1], pair[0], apparent_qualifiers=qualifiers)
    assert (forward.a, forward.b) == (backward.b, backward.a)
    assert forward.clauses == backward.clauses
    assert (forward.flagged, forward.flag_code) == (backward.flagged, backward.flag_code)


@given(spreads, st.booleans(), qualifier_sets)
def test_mirrored_lines_always_agree(spread, ann_won, qualifiers):
    ann = line("ann", W if ann_won else L, spread, PLUS if ann_won else MINUS)
    bob = line("bob", L if ann_won else W, spread, MINUS if ann_won else PLUS)
    rec = reconcile(ann, bob, apparent_qualifiers=qualifiers)
    assert rec.clause is Clause.AGREE and not rec.flagged and not rec.changed
    assert outcome(rec) == ((ann.claim, ann.signed_spread), (bob.claim, bob.signed_spread))


@given(pairs, qualifier_sets)
def test_adjudicated_spreads_never_exceed_the_larger_written(pair, qualifiers):
    rec = reconcile(*pair, apparent_qualifiers=qualifiers)
    largest = max((p.spread for p in pair if p.spread is not None), default=0)
    for adj in (rec.a, rec.b):
        assert adj.spread is None or 1 <= abs(adj.spread) <= largest


@given(pairs, qualifier_sets)
def test_adjudications_are_coherent(pair, qualifiers):
    rec = reconcile(*pair, apparent_qualifiers=qualifiers)
    for adj in (rec.a, rec.b):
        # A spread's sign always follows its result; no result, no spread.
        if adj.spread is not None:
            assert (adj.spread > 0) == (adj.result is W)
        if adj.result is N:
            assert adj.spread is None and rec.flagged
    # At most one winner; unflagged games settle both lines fully.
    assert [rec.a.result, rec.b.result].count(W) <= 1
    if not rec.flagged:
        assert None not in (rec.a.spread, rec.b.spread)
        assert rec.clause is not Clause.NONE
    assert bool(rec.flag_reason) == rec.flagged
