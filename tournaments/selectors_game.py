"""Reads for the TD's game page: a game's counts and one page of its tables, never all of them.

A 1,000-player game has 500 tables; rendering every card made a 1 MB page that took half a
second. The page reads the counts in one aggregate, the tables that need the TD first, and one
page of the rest (or a search), so its size and cost do not grow with the field.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import Case, Count, IntegerField, Q, QuerySet, Value, When

from .models import Event, GameResult, Round, Table
from .selectors import entry_name_search

# Table cards a page. 40 made 115 KB and 130 ms behind gunicorn when every card carried a
# player's report (a first report at most tables, as on a busy night); 30 keep the page under
# 100 KB with the 8 cards above the list.
PAGE_SIZE = 30
ATTENTION_SHOWN = 8  # cards above the list (disputes first); the rest keep their marks below


class Show:
    """The game page's lists: the tables without a result, or all of them."""

    OPEN = "open"
    ALL = "all"


@dataclass(frozen=True, slots=True)
class GameCounts:
    """How many tables a game has: ``tables`` played (a bye is not a table), ``done`` of
    them with a result, and ``rows`` (every table, the bye too, as the list pages them)."""

    tables: int
    done: int
    rows: int

    @property
    def open(self) -> int:
        """Played tables still without a result."""
        return self.tables - self.done

    @property
    def paged(self) -> bool:
        """Whether the game needs more than one page (a small game's page is as it was)."""
        return self.rows > PAGE_SIZE


def game_counts(round_: Round) -> GameCounts:
    """The counts of a game's tables, in one aggregate query."""
    played = Q(seat_b__isnull=False)
    counts = round_.tables.aggregate(
        rows=Count("pk"),
        tables=Count("pk", filter=played),
        done=Count("pk", filter=played & Q(result__isnull=False)),
    )
    return GameCounts(tables=counts["tables"], done=counts["done"], rows=counts["rows"])


def _cards(round_: Round) -> QuerySet[Table]:
    """A game's tables with what a card shows: seats, players and the result."""
    return round_.tables.select_related(
        "seat_a__player",
        "seat_a__partner",
        "seat_b__player",
        "seat_b__partner",
        "result__winner__player",
        "result__winner__partner",
    ).order_by("number")


def game_tables(
    round_: Round, *, show: str = Show.ALL, find: str = "", leave_out: Collection[int] = ()
) -> QuerySet[Table]:
    """The tables a TD asked for, in number order: ``find`` a table number or a player's name
    (every typed word, accents and case aside, on the folded name), else ``show`` the open
    tables (``leave_out`` those already shown above the list) or all of them."""
    tables = _cards(round_)
    if find.isdigit():
        return tables.filter(number=int(find))
    if find:
        return tables.filter(
            entry_name_search("seat_a__", find) | entry_name_search("seat_b__", find)
        )
    if show == Show.OPEN:
        # An open table has no result, so no winner to join (two joins fewer to plan and run;
        # the result's own join stays, for the filter, and caches each card's None).
        tables = tables.select_related(None).select_related(
            "seat_a__player", "seat_a__partner", "seat_b__player", "seat_b__partner", "result"
        )
        tables = tables.filter(seat_b__isnull=False, result__isnull=True)
        if leave_out:
            tables = tables.exclude(pk__in=list(leave_out))
    return tables


def page_of(tables: QuerySet[Table], number: str | int | None, *, count: int | None = None) -> Page:
    """Page ``number`` of ``tables`` (the last page past the end, the first for nonsense);
    ``count``, when the caller knows how many tables there are, spares the COUNT query."""
    paginator = Paginator(tables, PAGE_SIZE)
    if count is not None:
        paginator.__dict__["count"] = count  # Paginator.count is a cached_property
    return paginator.get_page(number)


def attention_tables(
    round_: Round, urgent: Iterable[int], reported: Iterable[int], *, limit: int = ATTENTION_SHOWN
) -> tuple[list[Table], int]:
    """The tables that need the TD first, and how many there are: ``urgent`` ones (disputed,
    to check) before those with a player's report and no result yet, each by number."""
    urgent = list(urgent)
    wanted = Q(pk__in=urgent) | Q(pk__in=list(reported), result__isnull=True)
    tables = (
        _cards(round_)
        .filter(wanted)
        .annotate(
            urgency=Case(
                When(pk__in=urgent, then=Value(0)), default=Value(1), output_field=IntegerField()
            )
        )
        .order_by("urgency", "number")
    )
    shown = list(tables[:limit])
    return shown, len(shown) if len(shown) < limit else tables.count()


def table_numbered(round_: Round, number: int) -> Table | None:
    """Table ``number`` of the game, with what its card shows; None if there is none."""
    return _cards(round_).filter(number=number).first()


def table_of_game(round_: Round, table_id: str) -> Table | None:
    """The table a result form names, if it is one of this game's (else None: the form says
    which game it belongs to)."""
    if not str(table_id).isdigit():
        return None
    return _cards(round_).filter(pk=int(table_id)).first()


def next_open_table(round_: Round, after: int | None) -> int | None:
    """The number of the next table without a result after table ``after``, else the first
    open one before it; None when every table has a result (where the cursor goes next)."""
    numbers = (
        round_.tables.filter(seat_b__isnull=False, result__isnull=True)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if after is not None:
        numbers = numbers.exclude(number=after)
        later = numbers.filter(number__gt=after).first()
        if later is not None:
            return later
    return numbers.first()


def last_result_of_game(event: Event, round_: Round) -> GameResult | None:
    """The result the undo would take back (:func:`tournaments.selectors.last_result`) when it
    is one of this game's, else None: read within the game, not over every result of the event."""
    played = GameResult.objects.exclude(kind=GameResult.Kind.BYE)
    later = played.filter(table__round__event=event, table__round__number__gt=round_.number)
    if later.exists():
        return None
    return (
        played.filter(table__round=round_)
        .select_related(
            "table__round",
            "table__seat_a__player",
            "table__seat_a__partner",
            "table__seat_b__player",
            "table__seat_b__partner",
        )
        .select_related("winner__player", "winner__partner")
        .order_by("-entered_at", "-pk")
        .first()
    )
