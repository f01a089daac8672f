"""Cross-checking the two paper score-card lines of one game (ACC Rule 12.2, cases a-f).

Each player writes their own line of every game: win or loss, and the spread in the plus or the
minus column. The TD reconciles the two lines without asking the players. This module is the
pure rule: no Django, no ORM, no translations, so the CSV import, the TD's entry form and the
tests can all call it. Storing the adjudicated lines (per player, since case e leaves a game
with no winner) is the caller's job.

The table of docs/rules/acc.md (Rule 12.2) is terse; this module reads it as follows.

* A line is *consistent* when a win is written in the plus column and a loss in the minus
  column. Two lines *mirror* when one is a consistent win and the other a consistent loss by
  the same spread: that is ``agree`` and nothing changes.
* The outcome (who won) is settled first, by clauses c-f; the spread second, by clauses a-b.
  A game can need both (e.g. d and then a); ``Reconciliation.clauses`` lists every clause
  applied and ``Reconciliation.clause`` is the first, the one that settled the outcome. The
  summary of an import counts ``clause`` only.
* "Less favourable spread" (a, b) is by role: for the winner the smaller margin, for the loser
  the larger one. In case a the game keeps one margin, chosen against the apparent qualifier
  (winner: smaller, loser: larger) and the other player gets the mirror of it. In case b the
  winner gets the smaller margin and the loser the larger, so the lines no longer mirror.
* Different spreads when neither player is an apparent qualifier are not covered by 12.2: the
  outcome stands, the spreads are left unset (``None``) and the game is flagged for the TD.
* Case c: the written spread is copied to the other line with the column its claim implies. If
  the written line's own column contradicts the agreed claims it is fixed as in f (clauses c, f).
  If the claims clash as well (both win or both loss) the single column is not enough to decide
  and the game is flagged.
* Case d is read literally (both claim the win, columns differ: the plus-column line wins).
  Both claiming the *loss* with different columns is not in the table: flagged, no winner set.
* Case e: a loss for both. Each is a loser, so the less favourable reading is the larger written
  spread: both get minus that (equal spreads: minus that spread). Qualifier status plays no part.
* Case f: the claims decide (one win, one loss), both spreads move to the right column.
* Claims that agree (one win, one loss) while *both* columns say the opposite (the claimed
  winner wrote minus, the claimed loser plus) are not in the table: flagged, no winner set.
* Both spreads missing: the outcome is settled from the claims when they agree, the spread is
  left unset and the game is flagged.
* Flagged games report ``Result.NONE`` for what could not be decided and ``None`` for a spread
  that could not be decided; ``Clause.NONE`` when no clause of 12.2 applied at all.
* An "apparent qualifier" is a player in the top of a provisional ranking: the caller passes the
  set; :func:`apparent_qualifiers` computes it from a ranking (top ceil(n/4) by default, the cut
  of ``acc.md``). Ties at the cut are the caller's concern: pass a longer set if a tie should
  count as apparent.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence, Set
from dataclasses import dataclass, field
from enum import StrEnum

MIN_SPREAD = 1
MAX_SPREAD = 121  # a game to 121 lost without pegging; 61-point games stay inside this range


class Result(StrEnum):
    """A claimed or adjudicated result. ``NONE`` only in adjudications the TD must settle."""

    WIN = "win"
    LOSS = "loss"
    NONE = "none"


class Column(StrEnum):
    """The score-card column the spread was written in."""

    PLUS = "plus"
    MINUS = "minus"


class Clause(StrEnum):
    """Which part of Rule 12.2 settled a game; ``NONE``: none did, the game is flagged."""

    AGREE = "agree"
    A = "a"
    B = "b"
    C = "c"
    D = "d"
    E = "e"
    F = "f"
    NONE = "none"


class CrosscheckError(ValueError):
    """Input that is not a score-card line at all. ``code`` is stable; the message is for people.

    ``index`` is the position of the game in :func:`reconcile_many`, ``None`` elsewhere.
    """

    def __init__(self, code: str, message: str, *, index: int | None = None) -> None:
        super().__init__(message if index is None else f"game {index + 1}: {message}")
        self.code = code
        self.message = message
        self.index = index


# What the column of a consistent line is; used to fix wrong columns (c, f).
_COLUMN_FOR = {Result.WIN: Column.PLUS, Result.LOSS: Column.MINUS}


def _check_spread(spread: object) -> None:
    # bool is an int subclass; a True in a CSV cell is a bug upstream, not a spread of 1.
    if isinstance(spread, bool) or not isinstance(spread, int):
        raise CrosscheckError("bad_spread", f"A spread must be a whole number, not {spread!r}.")
    if spread < 0:
        raise CrosscheckError(
            "negative_spread",
            f"Write the spread without a sign ({spread}); the column gives its sign.",
        )
    if not MIN_SPREAD <= spread <= MAX_SPREAD:
        raise CrosscheckError(
            "spread_out_of_range",
            f"A spread must be between {MIN_SPREAD} and {MAX_SPREAD}, not {spread}.",
        )


@dataclass(frozen=True, slots=True)
class WrittenLine:
    """One player's line of one game, as written on the paper card.

    ``spread`` is the number as written (unsigned, 1..121) and ``column`` where it was written;
    both are ``None`` when the spread was left blank (case c). Checked on construction, so a
    malformed line never reaches :func:`reconcile`.
    """

    player: Hashable
    claim: Result
    spread: int | None = None
    column: Column | None = None

    def __post_init__(self) -> None:
        if self.player is None or self.player == "":
            raise CrosscheckError("missing_player", "A line needs the player it belongs to.")
        if self.claim not in (Result.WIN, Result.LOSS):
            raise CrosscheckError(
                "bad_claim", f"A line claims a win or a loss, not {self.claim!r}."
            )
        if self.spread is None:
            if self.column is not None:
                raise CrosscheckError(
                    "column_without_spread", "A column is given but no spread is written in it."
                )
            return
        _check_spread(self.spread)
        if self.column not in (Column.PLUS, Column.MINUS):
            raise CrosscheckError(
                "bad_column",
                f"A spread is written in the plus or minus column, not {self.column!r}.",
            )

    @classmethod
    def from_columns(
        cls,
        player: Hashable,
        claim: Result | str,
        *,
        plus: int | None = None,
        minus: int | None = None,
    ) -> WrittenLine:
        """Build a line from a card row's plus and minus cells (at most one filled).

        ``claim`` may be ``"win"``/``"loss"``; anything else raises ``bad_claim``.
        """
        try:
            result = Result(claim)
        except ValueError:
            raise CrosscheckError(
                "bad_claim", f"A line claims a win or a loss, not {claim!r}."
            ) from None
        if plus is not None and minus is not None:
            raise CrosscheckError(
                "both_columns", "A spread is written in the plus or the minus column, not both."
            )
        if plus is not None:
            return cls(player, result, plus, Column.PLUS)
        if minus is not None:
            return cls(player, result, minus, Column.MINUS)
        return cls(player, result)

    @property
    def signed_spread(self) -> int | None:
        """The spread with the sign of its column, as the card reads (``None`` if blank)."""
        if self.spread is None:
            return None
        return self.spread if self.column is Column.PLUS else -self.spread


@dataclass(frozen=True, slots=True)
class AdjudicatedLine:
    """One player's line after the cross-check: the result and the signed spread that count.

    ``result`` is ``Result.NONE`` and ``spread`` ``None`` where the TD must still decide.
    """

    player: Hashable
    result: Result
    spread: int | None


@dataclass(frozen=True, slots=True)
class Reconciliation:
    """The outcome of cross-checking one game's two lines.

    ``a``/``b`` are the adjudicated lines of ``line_a``/``line_b``'s players. ``clause`` is the
    clause that settled the game (the first of ``clauses``); ``explanation`` is for the TD.
    """

    line_a: WrittenLine
    line_b: WrittenLine
    a: AdjudicatedLine
    b: AdjudicatedLine
    clauses: tuple[Clause, ...]
    explanation: str
    flagged: bool = False
    flag_code: str | None = None
    flag_reason: str = ""

    @property
    def clause(self) -> Clause:
        """The clause that settled the game: ``agree``, ``a``-``f``, or ``none`` if flagged."""
        return self.clauses[0]

    @property
    def changed(self) -> bool:
        """Whether either adjudicated line differs from what its player wrote."""
        return any(
            (adj.result, adj.spread) != (line.claim, line.signed_spread)
            for adj, line in ((self.a, self.line_a), (self.b, self.line_b))
        )

    def for_player(self, player: Hashable) -> AdjudicatedLine:
        """The adjudicated line of ``player`` (``KeyError`` if they did not play this game)."""
        if player == self.a.player:
            return self.a
        if player == self.b.player:
            return self.b
        raise KeyError(player)


@dataclass(frozen=True, slots=True)
class CrosscheckBatch:
    """A whole import: reconciliations in input order and how many each clause settled."""

    reconciliations: tuple[Reconciliation, ...]
    summary: dict[Clause, int] = field(default_factory=dict)

    @property
    def flagged(self) -> tuple[Reconciliation, ...]:
        """The games the TD must still look at, in input order."""
        return tuple(r for r in self.reconciliations if r.flagged)


def _fmt(spread: int) -> str:
    # A signed spread (+7, -7); tournaments.outcome has the same but imports Django.
    return f"{spread:+d}" if spread else "0"


def _name(player: Hashable) -> str:
    return str(player)


class _Flag(Exception):
    """Internal: what a clause could not settle, carried to the one place that builds results."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def _winner_loser_spreads(
    winner: WrittenLine,
    loser: WrittenLine,
    qualifiers: Set[Hashable],
    clauses: list[Clause],
    notes: list[str],
) -> tuple[int, int]:
    """Signed spreads (winner's, loser's) once the winner is known; clauses a/b if they differ.

    Raises :class:`_Flag` when the spreads differ and neither player is an apparent qualifier.
    """
    assert winner.spread is not None and loser.spread is not None
    if winner.spread == loser.spread:
        return winner.spread, -winner.spread
    low, high = sorted((winner.spread, loser.spread))
    w_q, l_q = winner.player in qualifiers, loser.player in qualifiers
    if w_q and l_q:
        clauses.append(Clause.B)
        notes.append(
            f"Spreads differ ({low} and {high}) and both are apparent qualifiers: each gets the "
            f"less favourable reading, {_name(winner.player)} {_fmt(low)} and "
            f"{_name(loser.player)} {_fmt(-high)} (12.2b)."
        )
        return low, -high
    if w_q or l_q:
        # The game keeps one margin, the one worse for the apparent qualifier.
        margin = low if w_q else high
        qualifier = winner.player if w_q else loser.player
        clauses.append(Clause.A)
        notes.append(
            f"Spreads differ ({low} and {high}); {_name(qualifier)} is an apparent qualifier "
            f"and gets the less favourable one: {_fmt(margin if w_q else -margin)} (12.2a)."
        )
        return margin, -margin
    raise _Flag(
        "spreads_differ",
        f"Spreads differ ({low} and {high}) and neither player is an apparent qualifier; "
        "Rule 12.2 does not say which stands.",
    )


def reconcile(
    line_a: WrittenLine,
    line_b: WrittenLine,
    *,
    apparent_qualifiers: Set[Hashable] = frozenset(),
) -> Reconciliation:
    """Cross-check the two written lines of one game by ACC Rule 12.2 (cases a-f).

    ``apparent_qualifiers`` holds the player keys at the top of the provisional ranking (see
    :func:`apparent_qualifiers`); it only matters when the spreads differ. Returns both
    adjudicated lines, the clauses applied and an explanation; a game the rule does not settle
    comes back ``flagged`` with a reason, never as an exception. Raises
    :class:`CrosscheckError` (``same_player``) when both lines are one player's.
    """
    if line_a.player == line_b.player:
        raise CrosscheckError(
            "same_player", f"Both lines are {_name(line_a.player)}'s; a game has two players."
        )
    clauses: list[Clause] = []
    notes: list[str] = []
    # Settled values, filled in as far as the rule gets; a _Flag stops at the first gap.
    results = {line_a.player: Result.NONE, line_b.player: Result.NONE}
    spreads: dict[Hashable, int | None] = {line_a.player: None, line_b.player: None}
    flag: _Flag | None = None
    try:
        _settle(line_a, line_b, apparent_qualifiers, results, spreads, clauses, notes)
    except _Flag as stop:
        flag = stop
    if not clauses:
        clauses.append(Clause.NONE if flag else Clause.AGREE)
    if clauses == [Clause.AGREE]:
        winner = line_a if line_a.claim is Result.WIN else line_b
        notes.append(f"The two lines agree: {_name(winner.player)} won by {winner.spread}.")
    if flag:
        notes.append(f"Flagged for the TD: {flag.reason}")
    return Reconciliation(
        line_a=line_a,
        line_b=line_b,
        a=AdjudicatedLine(line_a.player, results[line_a.player], spreads[line_a.player]),
        b=AdjudicatedLine(line_b.player, results[line_b.player], spreads[line_b.player]),
        clauses=tuple(clauses),
        explanation=" ".join(notes),
        flagged=flag is not None,
        flag_code=flag.code if flag else None,
        flag_reason=flag.reason if flag else "",
    )


def _settle(
    line_a: WrittenLine,
    line_b: WrittenLine,
    qualifiers: Set[Hashable],
    results: dict[Hashable, Result],
    spreads: dict[Hashable, int | None],
    clauses: list[Clause],
    notes: list[str],
) -> None:
    """Fill ``results`` and ``spreads`` in place; raise :class:`_Flag` where the rule stops.

    In place, so that what was settled before a gap (usually the winner) survives the flag.
    """
    a, b = line_a, line_b
    claims_agree = a.claim is not b.claim

    # Case c, and no spread at all: the claims are all there is to go on.
    if a.spread is None or b.spread is None:
        if not claims_agree:
            raise _Flag(
                "claims_clash_spread_missing",
                f"Both lines claim the {a.claim}, and a spread is missing, so the columns "
                "cannot decide (12.2d/e need both).",
            )
        winner, loser = (a, b) if a.claim is Result.WIN else (b, a)
        results[winner.player], results[loser.player] = Result.WIN, Result.LOSS
        written = a if a.spread is not None else b if b.spread is not None else None
        if written is None:
            raise _Flag("spreads_missing", "Neither line has a spread written.")
        assert written.spread is not None
        blank = b if written is a else a
        clauses.append(Clause.C)
        notes.append(
            f"Only {_name(written.player)} wrote a spread ({written.spread}); it is copied to "
            f"{_name(blank.player)}'s line (12.2c)."
        )
        if written.column is not _COLUMN_FOR[written.claim]:
            clauses.append(Clause.F)
            notes.append(
                f"{_name(written.player)}'s spread was in the wrong column for a "
                f"{written.claim}; fixed (12.2f)."
            )
        spreads[winner.player], spreads[loser.player] = written.spread, -written.spread
        return

    same_column = a.column is b.column
    if claims_agree:
        winner, loser = (a, b) if a.claim is Result.WIN else (b, a)
        if same_column:
            clauses.append(Clause.F)
            notes.append(
                f"{_name(winner.player)} claims the win and {_name(loser.player)} the loss, but "
                f"both spreads are in the {a.column} column: the win stands and the column is "
                "fixed (12.2f)."
            )
        elif winner.column is Column.MINUS:
            # Each line contradicts itself the same way: two votes each way, nothing to go on.
            raise _Flag(
                "claims_contradict_columns",
                f"{_name(winner.player)} claims the win with the spread in minus and "
                f"{_name(loser.player)} the loss with it in plus; Rule 12.2 does not cover it.",
            )
    elif a.claim is Result.WIN and not same_column:
        winner, loser = (a, b) if a.column is Column.PLUS else (b, a)
        clauses.append(Clause.D)
        notes.append(
            f"Both claim the win; {_name(winner.player)} wrote the spread in plus, "
            f"{_name(loser.player)} in minus: the plus-column line wins (12.2d)."
        )
    elif same_column:
        # Case e: no winner. Both lose by the larger written spread (the less favourable reading
        # for a loser), whether or not either is an apparent qualifier.
        high = max(a.spread, b.spread)
        clauses.append(Clause.E)
        notes.append(
            f"Both claim the {a.claim} with the spreads in the same column: a loss for both, "
            f"each {_fmt(-high)} (12.2e)."
        )
        results[a.player] = results[b.player] = Result.LOSS
        spreads[a.player] = spreads[b.player] = -high
        return
    else:
        raise _Flag(
            "both_claim_loss",
            "Both claim the loss with the spreads in different columns; Rule 12.2 covers this "
            "only for two claimed wins (d).",
        )

    results[winner.player], results[loser.player] = Result.WIN, Result.LOSS
    spreads[winner.player], spreads[loser.player] = _winner_loser_spreads(
        winner, loser, qualifiers, clauses, notes
    )


def reconcile_many(
    pairs: Iterable[tuple[WrittenLine, WrittenLine]],
    *,
    apparent_qualifiers: Set[Hashable] = frozenset(),
) -> CrosscheckBatch:
    """Reconcile every game of an import, in order, with one set of apparent qualifiers.

    ``summary`` counts games by the clause that settled them, every :class:`Clause` present
    (zero included) so a report can print a fixed table. A malformed pair raises
    :class:`CrosscheckError` with ``index`` set to its position.
    """
    done: list[Reconciliation] = []
    for index, (line_a, line_b) in enumerate(pairs):
        try:
            done.append(reconcile(line_a, line_b, apparent_qualifiers=apparent_qualifiers))
        except CrosscheckError as error:
            raise CrosscheckError(error.code, error.message, index=index) from error
    counts = Counter(r.clause for r in done)
    return CrosscheckBatch(tuple(done), {clause: counts[clause] for clause in Clause})


def apparent_qualifiers(ranking: Sequence[Hashable], qualifiers: int | None = None) -> frozenset:
    """The players who would qualify if the provisional ``ranking`` (best first) were final.

    ``qualifiers`` defaults to ceil(n/4), the ACC cut; more than the field means everyone.
    Raises :class:`CrosscheckError` for a negative count or a player ranked twice.
    """
    if len(set(ranking)) != len(ranking):
        raise CrosscheckError("duplicate_in_ranking", "A player appears twice in the ranking.")
    if qualifiers is None:
        qualifiers = math.ceil(len(ranking) / 4)
    if isinstance(qualifiers, bool) or not isinstance(qualifiers, int) or qualifiers < 0:
        raise CrosscheckError(
            "bad_qualifiers", f"The number of qualifiers must be 0 or more, not {qualifiers!r}."
        )
    return frozenset(ranking[:qualifiers])
