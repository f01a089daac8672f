"""What a game kind provides. Subclass :class:`GameKind` and register an instance."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from core.errors import ServiceError
    from tournaments.models import Event, Round


@dataclass(frozen=True)
class Messages:
    """A kind's own words for its rounds (a cribbage "game", a Stoppa "session").

    Whole sentences, each with ``%(n)s`` (or the names given), so every language can word
    them its own way.
    """

    round_n: Promise  # "Game %(n)s"
    all_drawn: Promise  # "All %(n)s games of this event have been drawn."
    previous_draft: Promise  # "Game %(n)s is still a draft: release it or draw it again first."
    previous_open: Promise  # "Game %(n)s still has open tables: %(tables)s."
    has_results: Promise  # "Game %(n)s already has results."
    already_released: Promise  # "Game %(n)s is already released."
    released: Promise  # "Game %(n)s is released."
    field_changed: Promise  # "The field changed since game %(n)s was drafted ..."
    not_latest: Promise  # "Only the latest game can be drawn again."
    too_few: Promise  # "At least %(n)s checked-in players are needed."


class ResultShape(models.TextChoices):
    """What a table's result is, and so how players report it and what their card shows.

    The results app (private page, printed score card, desk) serves each shape; a kind names
    its shape and works there without the results app knowing the kind.
    """

    # Two seats: the winner and the loser's score (cribbage).
    WINNER_SCORE = "winner_score", _("Winner and loser's score")
    # 3 or more seats: each player's net for the round, summing to zero (Stoppa).
    TABLE_NETS = "table_nets", _("Every player's net, summing to zero")
    # 2 or 3 seats: each player's final score, one at the target (three-handed cribbage).
    TABLE_SCORES = "table_scores", _("Every player's final score, the winner's at the target")


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One player of a released round and where they sit: "find your table" in the hall."""

    name: str
    player_id: int
    table: int | None  # None: not at a numbered table (a cribbage bye, a Stoppa sit-out)
    note: str = ""  # what a line without a table means, in the kind's words ("bye")


@dataclass(frozen=True, slots=True)
class CrossCell:
    """One player's game (round) in the crosstable, from their side of the table.

    ``opponents`` are the entries at the table with them (empty for a bye or a session sat
    out); ``won`` is None until the table has a result (and for a kind whose tables have no
    single winner). ``own`` and ``other`` are the two scores of a two-player game (none for a
    forfeit or a bye); ``points`` the game points the game earned them; ``skunk`` the skunk
    level of the game (theirs when they won, suffered when they lost). A kind of tables of
    several players fills ``nets``: every player's (entry, net) at the table, in seat order,
    and ``own`` their own net.
    """

    number: int
    opponents: tuple[int, ...] = ()
    won: bool | None = None
    own: int | None = None
    other: int | None = None
    points: int | None = None
    skunk: int = 0
    bye: bool = False
    forfeit: bool = False
    nets: tuple[tuple[int, int | None], ...] = ()
    skunked: tuple[int, ...] = ()  # the entries of ``nets`` skunked at the table
    note: str = ""  # what a cell without a table means, in the kind's words ("bye")

    @property
    def marks(self) -> str:
        """The skunk marks of the game, one star a level: ``*``, ``**``, ``***``."""
        return "*" * self.skunk


def name_order(name: str) -> tuple[str, str]:
    """Sort key of a name for an alphabetical list read in the hall, in the active language's
    order (``names.sort_key``): accents and case do not move a name out of its letter
    ("Ștefan" among the S, "Łucja" among the L), the name itself breaks ties."""
    from django.utils.translation import get_language

    from tournaments import names

    return names.sort_key(name, get_language())


class GameKind:
    """One kind of game an event can be: cribbage (two-player tables), Stoppa (tables of 3-6).

    Attributes describe the kind; methods do what differs between kinds. The services call
    these inside their transaction, holding the event's row lock.
    """

    key: ClassVar[str]
    label: ClassVar[Promise]
    messages: ClassVar[Messages]
    # Players an entry is: 1 (each player for themself), 2 (a team of partners sitting
    # opposite, one entry with a ``partner``: partners' cribbage).
    team_size: ClassVar[int] = 1
    # What a crosstable cell shows, said under the crosstable.
    crosstable_legend: ClassVar[Promise] = _(
        "Each game: W or L, the player's score – the opponent's, * a skunk, then the "  # noqa: RUF001 (the score dash)
        "opponent's rank and name."
    )
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    default_chain: ClassVar[tuple[str, ...]]
    tiebreakers: ClassVar[frozenset[str]]  # the keys a ranking chain of this kind may use
    playoffs: ClassVar[bool] = False  # can cut to a playoff bracket
    seasons: ClassVar[bool] = False  # counts for the club's season ledgers (Grass Roots)
    acc_points: ClassVar[bool] = False  # earns the ACC's Master Rating and Grass Roots points
    # How a table's result is reported, and what the player's page and score card show.
    result_shape: ClassVar[ResultShape] = ResultShape.WINNER_SCORE
    # The desk's tools that only make sense for some kinds: the W/L paper-card import
    # (Rule 12.2) and the hand records (deal by deal, reviewed for missed discard points).
    paper_import: ClassVar[bool] = False
    hand_records: ClassVar[bool] = False
    # Tables of several seats, one number per player (``StoppaTable``/``StoppaSeat``): the
    # players' sheet (report, confirm) and the TD's table entry; ``check_sheet`` says which
    # numbers a table may have, ``sheet_action`` names the audit row of a table's entry.
    group_tables: ClassVar[bool] = False
    sheet_action: ClassVar[str] = ""
    # Event settings that mean nothing for this kind: the TD's forms do not show them.
    unused_settings: ClassVar[frozenset[str]] = frozenset()
    # URL name of the TD's page of one round (kwargs event_id, number).
    round_page: ClassVar[str]
    # Template with the kind's partials: summary, public-seating, td-draw-label,
    # standings-head, standings-row, td-settings (may be empty).
    template: ClassVar[str]

    def owns(self, event: Event) -> bool:
        """Whether ``event`` is of this kind."""
        return self.key == event.game

    def round_label(self, number: int) -> str:
        """``Game 3`` / ``Session 3`` in the active language."""
        return str(self.messages.round_n) % {"n": number}

    # --- Seating ---------------------------------------------------------------------------

    def draw(self, event: Event, number: int, *, draft: bool, seed: int | None = None) -> Round:
        """Seat round ``number`` for the active field and write it (a draft, or released).

        ``seed`` is a new seed for a round drawn again, recorded on the round; without it the
        round takes its usual seed (derived from the event's), so every draw reproduces.
        """
        raise NotImplementedError

    def seating(self, round_: Round) -> frozenset[frozenset[int]] | None:
        """Who sits with whom in ``round_``: one set of entry ids per table (a bye, or those
        sitting out, apart), whatever the table numbers; None when the kind cannot tell. A
        draw again that gives the same seating is refused with :meth:`same_draw_reason`."""
        return None

    def seed_matters(self, event: Event, round_: Round) -> bool:
        """Whether another seed could have seated ``round_`` otherwise (a random draw), or
        its seating follows from the event alone (standings, a schedule)."""
        return True

    def same_draw_reason(self, event: Event, number: int) -> str:
        """Why drawing round ``number`` again, from a new seed, gave the same seating."""
        return str(
            _(
                "Drawing %(round)s again gives the same seating: no other seating keeps the "
                "rules for this field. Swap seats by hand in a draft to change it."
            )
        ) % {"round": self.round_label(number)}

    def seated(self, round_: Round) -> set[int]:
        """Entry ids seated in ``round_`` (sitting out included)."""
        raise NotImplementedError

    def open_tables(self, round_: Round) -> list[Any]:
        """Tables of ``round_`` still waiting for a result (each has a ``number``)."""
        raise NotImplementedError

    def has_results(self, round_: Round) -> bool:
        """Whether any table of ``round_`` has a result the players produced (not a bye)."""
        raise NotImplementedError

    def public_rounds(
        self, event: Event, *, number: int | None = None, find: str = "", limit: int | None = None
    ) -> Iterable[Round]:
        """The released rounds (or round ``number``) with what the public seating shows of
        them, prefetched; ``find`` (a table number or a name) and ``limit`` narrow the tables
        where the kind's tables are many."""
        raise NotImplementedError

    def seat_lines(self, event: Event, number: int) -> list[SeatLine]:
        """Every player seated in released round ``number``, alphabetically (:func:`name_order`),
        each with their table: one query, whatever the kind's tables look like."""
        raise NotImplementedError

    def crosstable_cells(
        self, event: Event, entry_ids: Collection[int] | None = None
    ) -> dict[int, list[CrossCell]]:
        """Every released round's cell of each entry (of ``entry_ids``, or all), by entry: in
        one query, whatever the size of the field (a 1,000-player crosstable).

        The default serves two-seat tables (a winner and the loser's score); a kind with
        tables of several players provides its own cells.
        """
        from tournaments.models import GameResult, Round, Table

        tables = Table.objects.filter(round__event=event, round__status=Round.Status.RELEASED)
        if entry_ids is not None:
            ids = list(entry_ids)
            tables = tables.filter(models.Q(seat_a_id__in=ids) | models.Q(seat_b_id__in=ids))
        wanted = None if entry_ids is None else set(entry_ids)
        cells: dict[int, list[CrossCell]] = {}
        for number, a, b, kind, winner, loser_score, points, level in tables.values_list(
            "round__number",
            "seat_a_id",
            "seat_b_id",
            "result__kind",
            "result__winner_id",
            "result__loser_score",
            "result__winner_points",
            "result__skunk_level",
        ).order_by("round__number"):
            for me, them in ((a, b), (b, a)):
                if me is None or (wanted is not None and me not in wanted):
                    continue
                won = None if winner is None else winner == me
                scored = kind == GameResult.Kind.PLAYED and loser_score is not None
                high, low = (event.target, loser_score) if scored else (None, None)
                cells.setdefault(me, []).append(
                    CrossCell(
                        number,
                        opponents=() if them is None else (them,),
                        won=won,
                        own=high if won else low,
                        other=low if won else high,
                        points=None if won is None else (points if won else 0),
                        skunk=level or 0,
                        bye=them is None,
                        forfeit=kind == GameResult.Kind.FORFEIT,
                        note=str(_("bye")) if them is None else "",
                    )
                )
        return cells

    def waiting(self, round_: Round) -> set[int]:
        """Entries seated in ``round_`` at a table still without a result (their game of that
        round is still to come). The default serves two-seat tables."""
        return {
            pk
            for pair in round_.tables.filter(result__isnull=True).values_list(
                "seat_a_id", "seat_b_id"
            )
            for pk in pair
            if pk
        }

    def on_release(self, round_: Round) -> bool:
        """Called when a draft round is released; True when that recorded results (byes)."""
        return False

    # --- Standings -------------------------------------------------------------------------

    def lines_sql(self) -> str:
        """SQL for every entry's totals over rounds %(after)s+1..%(n)s of event %(event)s
        (``after`` 0: the whole event so far; the standings add one round to the totals of
        the rounds before it).

        Columns: entry_id, game_points, games_won, games_lost, spread, skunks_won,
        skunks_suffered, byes, chips, sessions_won, best_session.
        """
        raise NotImplementedError

    def seated_sql(self) -> str:
        """SQL of the ids of the entries seated (a bye included) in a released round of
        event ``%(event)s`` numbered from ``%(after)s`` + 1 up to ``%(n)s``: with the
        entrants of an earlier snapshot (or ``after`` 0), the entrants of standings after
        round n (with those the event counts as checked in)."""
        raise NotImplementedError

    def round_stats(
        self, event: Event, *, after: int = 0
    ) -> Iterable[tuple[int, int, int, datetime | None]]:
        """Per round numbered above ``after``, in order: (number, tables, tables with a
        result, latest result time)."""
        raise NotImplementedError

    def check_sheet(
        self, event: Event, table: int, values: Sequence[tuple[str, int | None]]
    ) -> ServiceError | None:
        """Why the numbers of table ``table`` (each player's name and number, in seat order;
        None: not given) cannot be its result, or None when they can (kinds with
        ``group_tables``). The results app and the TD's page call this without knowing the
        game."""
        return None

    def validate_chain(self, keys: Iterable[str]) -> tuple[str, ...]:
        """The chain checked against the tiebreakers this kind allows (``ValueError``)."""
        from tournaments.tiebreakers import validate_chain

        return validate_chain(keys, allowed=self.tiebreakers)
