"""The crosstable (wall chart) of an event: who played whom, game by game, rows in standings
order (the latest snapshot), each game's cell from the event's kind (``crosstable_cells``).

A few queries whatever the size of the field: the snapshot, its rows (one light query for the
whole field, so an opponent on another page still has their rank), the released rounds, and
the cells of the rows asked for.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.kinds import CrossCell, ResultShape
from tournaments.models import Event, Round, entry_name

from .models import STANDINGS_ORDER, Standing
from .selectors import snapshot_for_event

PER_PAGE = 50  # rows a page of the web crosstable shows (a phone scrolls 50 rows fine)


@dataclass(frozen=True, slots=True)
class Opponent:
    """Someone at the table with the row's player: their rank and name (and net, Stoppa)."""

    entry: int
    rank: int | None
    name: str
    net: int | None = None


@dataclass(slots=True)
class CrossRow:
    """One player's line: standing, one cell per released round (None: not seated), totals."""

    entry: int
    rank: int
    tied: bool
    name: str
    withdrawn: bool
    game_points: int
    games_won: int
    games_lost: int
    spread: int
    skunks_won: int
    byes: int
    chips: int | None
    cells: list[tuple[CrossCell, list[Opponent]] | None] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Crosstable:
    """A page of the crosstable: ``rounds`` are the released round numbers (the columns)."""

    event: Event
    rounds: list[int]
    rows: list[CrossRow]
    total: int
    page: int
    pages: int
    after_game: int | None

    @property
    def nets(self) -> bool:
        """Whether the kind's tables report nets (Stoppa): the cells list the whole table."""
        return self.event.game_kind.result_shape == ResultShape.TABLE_NETS

    @property
    def has_previous(self) -> bool:
        return self.page > 1

    @property
    def has_next(self) -> bool:
        return self.page < self.pages


ROW_FIELDS = (
    "entry_id",
    "rank",
    "tied",
    "entry__player__name",
    "entry__partner__name",
    "entry__withdrawn",
    "game_points",
    "games_won",
    "games_lost",
    "spread",
    "skunks_won",
    "byes",
    "chips",
)


def crosstable(event: Event, *, page: int = 1, per_page: int | None = PER_PAGE) -> Crosstable:
    """The crosstable's page ``page`` (1-based, clamped to the pages there are) of
    ``per_page`` rows, or every row (``per_page`` None: the PDF). Four queries."""
    snapshot = snapshot_for_event(event.pk)
    rounds = list(
        Round.objects.filter(event=event, status=Round.Status.RELEASED)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if snapshot is None:
        return Crosstable(event, rounds, [], 0, 1, 1, None)
    # A team's row names both partners (partners' cribbage); a player's, the player.
    every = [
        CrossRow(entry, rank, tied, entry_name(name, partner), withdrawn, *totals)
        for entry, rank, tied, name, partner, withdrawn, *totals in Standing.objects.filter(
            event_id=event.pk, snapshot=snapshot
        )
        .order_by(*STANDINGS_ORDER)
        .values_list(*ROW_FIELDS)
    ]
    total = len(every)
    size = per_page or max(total, 1)
    pages = max(1, -(-total // size))
    page = min(max(page, 1), pages)
    rows = every[(page - 1) * size : page * size]
    who = {row.entry: row for row in every}
    ids = None if per_page is None else [row.entry for row in rows]
    cells = event.game_kind.crosstable_cells(event, ids)
    column = {number: i for i, number in enumerate(rounds)}
    for row in rows:
        row.cells = [None] * len(rounds)
        for cell in cells.get(row.entry, []):
            if cell.number in column:
                row.cells[column[cell.number]] = (cell, _opponents(cell, who))
    return Crosstable(event, rounds, rows, total, page, pages, snapshot.after_game)


def crosstable_cells_count(event: Event) -> int:
    """How many cells the whole crosstable has (rows x released rounds): two counts."""
    snapshot = snapshot_for_event(event.pk)
    if snapshot is None:
        return 0
    rows = Standing.objects.filter(event_id=event.pk, snapshot=snapshot).count()
    return rows * Round.objects.filter(event=event, status=Round.Status.RELEASED).count()


def _opponents(cell: CrossCell, who: dict[int, CrossRow]) -> list[Opponent]:
    nets = dict(cell.nets)
    out = []
    for entry in cell.opponents:
        row = who.get(entry)
        out.append(
            Opponent(entry, row.rank if row else None, row.name if row else "", nets.get(entry))
        )
    return out
