"""Reads for the private page of a player at a table of several (a Stoppa session): their
table and seat, the table's nets or the sheet waiting for confirmations, and every session
so far with the running chips."""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.hooks import ReportedNets
from tournaments.models import Entry, Round, StoppaSeat, StoppaTable

from .lifecycle import POLLED_SEAT_STATES, SeatState
from .models import NetSheet

# The open states are polled: the sheet changes at the other players' phones.
POLLED_STATES = POLLED_SEAT_STATES


@dataclass(frozen=True, slots=True)
class SessionLine:
    """One session of the player: where they sat, their net (None: not in yet) and the
    chips they had after it."""

    session: int
    table: int | None  # None: sitting out
    seat: int
    net: int | None
    running: int


@dataclass(frozen=True, slots=True)
class PlayerSeat:
    """Where the player's current session stands, as the private page shows it.

    ``state``: ``none`` (no session released), ``sitting_out``, ``report`` (nobody sent the
    table's nets), ``waiting`` (the player confirmed the open sheet; others have not),
    ``confirm`` (a sheet waits for the player's confirmation) or ``recorded``.
    """

    state: SeatState
    table: StoppaTable | None = None
    seat: int | None = None
    seats: tuple[StoppaSeat, ...] = ()
    sheet: NetSheet | None = None
    sessions: tuple[SessionLine, ...] = field(default=())

    @property
    def chips(self) -> int:
        """The player's chips over every session with a net."""
        return self.sessions[-1].running if self.sessions else 0

    @property
    def polled(self) -> bool:
        """Whether the page keeps asking for changes (the table's nets are not in)."""
        return self.state in POLLED_STATES

    @property
    def token(self) -> str:
        """A short fingerprint of what the page shows (the poll's ``since``)."""
        sheet = self.sheet
        parts = [
            self.state,
            self.table.pk if self.table else 0,
            sheet.pk if sheet else 0,
            len(sheet.confirmed_by) if sheet else 0,
        ]
        return "-".join(str(p) for p in parts)

    def sheet_rows(self) -> list[tuple[StoppaSeat, int | None, bool]]:
        """The open sheet seat by seat: (seat, net reported, whether that player confirmed)."""
        if self.sheet is None:
            return []
        confirmed = set(self.sheet.confirmed_by)
        return [(s, self.sheet.net_of(s.entry_id), s.entry_id in confirmed) for s in self.seats]

    def waiting_for(self) -> list[str]:
        """Names of the players who have yet to confirm the open sheet."""
        return [s.entry.name for s, _net, done in self.sheet_rows() if not done]


def _sessions(entry: Entry) -> tuple[SessionLine, ...]:
    lines, running = [], 0
    for number, table, seat, net in (
        StoppaSeat.objects.filter(entry=entry, round__status=Round.Status.RELEASED)
        .order_by("round__number")
        .values_list("round__number", "table__number", "position", "net")
    ):
        running += net or 0
        lines.append(SessionLine(number, table, seat, net, running))
    return tuple(lines)


def player_seat(entry: Entry) -> PlayerSeat:
    """The entry's seat in the latest released session and where its nets stand."""
    mine = (
        StoppaSeat.objects.filter(entry=entry, round__status=Round.Status.RELEASED)
        .select_related("table__round")
        .order_by("-round__number")
        .first()
    )
    if mine is None:
        return PlayerSeat(SeatState.NONE)
    table = mine.table
    sessions = _sessions(entry)
    common = {"table": table, "seat": mine.position, "sessions": sessions}
    seats = tuple(
        table.seats.select_related("entry__player", "entry__partner").order_by("position")
    )
    if table.sitting_out:
        return PlayerSeat(SeatState.SITTING_OUT, **common)
    if table.has_result:
        return PlayerSeat(SeatState.RECORDED, **common, seats=seats)
    sheet = (
        NetSheet.objects.filter(table=table, status=NetSheet.Status.OPEN)
        .select_related("by_entry__player", "by_entry__partner")
        .first()
    )
    if sheet is None:
        state = SeatState.REPORT
    elif entry.pk in sheet.confirmed_by:
        state = SeatState.WAITING
    else:
        state = SeatState.CONFIRM
    return PlayerSeat(state, **common, seats=seats, sheet=sheet)


def open_sheets(event) -> list[NetSheet]:
    """The sheets of an event waiting for the table's confirmations (the desk's list), each
    with ``rows``: (seat, net reported, whether that player confirmed), in seat order."""
    sheets = list(
        NetSheet.objects.filter(table__round__event=event, status=NetSheet.Status.OPEN)
        .select_related("table__round", "by_entry__player", "by_entry__partner")
        .prefetch_related("table__seats__entry__player")
        .order_by("table__round__number", "table__number")
    )
    for sheet in sheets:
        confirmed = set(sheet.confirmed_by)
        sheet.rows = [  # type: ignore[attr-defined]
            (seat, sheet.net_of(seat.entry_id), seat.entry_id in confirmed)
            for seat in sheet.table.seats.all()
        ]
    return sheets


def open_session_tables(event) -> list[StoppaTable]:
    """The tables of the latest released session without nets (the desk's open tables)."""
    latest = (
        Round.objects.filter(event=event, status=Round.Status.RELEASED).order_by("-number").first()
    )
    if latest is None:
        return []
    return list(
        latest.stoppa_tables.filter(number__isnull=False, entered_at__isnull=True)
        .select_related("round")
        .order_by("number")
    )


def reported_nets(round_id: int) -> dict[int, ReportedNets]:
    """The open sheets of one session by table id, for the TD's session page (two queries)."""
    found: dict[int, ReportedNets] = {}
    for sheet in (
        NetSheet.objects.filter(table__round_id=round_id, status=NetSheet.Status.OPEN)
        .select_related("by_entry__player", "by_entry__partner")
        .prefetch_related("table__seats__entry__player")
    ):
        confirmed = set(sheet.confirmed_by)
        found[sheet.table_id] = ReportedNets(
            by=sheet.by_entry.name,
            nets={int(pk): net for pk, net in sheet.nets.items()},
            waiting=tuple(
                seat.entry.name
                for seat in sheet.table.seats.all()
                if seat.entry_id not in confirmed
            ),
        )
    return found
