"""What a game kind provides. Subclass :class:`GameKind` and register an instance."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
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


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One player of a released round and where they sit: "find your table" in the hall."""

    name: str
    player_id: int
    table: int | None  # None: not at a numbered table (a cribbage bye, a Stoppa sit-out)
    note: str = ""  # what a line without a table means, in the kind's words ("bye")


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

    def validate_chain(self, keys: Iterable[str]) -> tuple[str, ...]:
        """The chain checked against the tiebreakers this kind allows (``ValueError``)."""
        from tournaments.tiebreakers import validate_chain

        return validate_chain(keys, allowed=self.tiebreakers)
