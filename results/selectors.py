"""Reads of results from the table, scoped by event (and by key for players)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.http import Http404

from tournaments.hooks import DeskMark, DeskMarks
from tournaments.models import AuditEntry, Entry, Event, GameResult, Round, Table, team_name
from tournaments.selectors import clubs_directed_by

from .lifecycle import OPEN, POLLED_TABLE_STATES, TableState
from .models import Dispute, Scorekeeper, Submission


def results_role(user, event_id: int) -> tuple[Event, str]:
    """The event and the user's role in it ("td" or "scorekeeper"); 404 for anyone else."""
    event = Event.objects.select_related("club").filter(pk=event_id).first()
    if event is None or not getattr(user, "is_authenticated", False):
        raise Http404("No such event.")
    if clubs_directed_by(user).filter(pk=event.club_id).exists():
        return event, "td"
    if Scorekeeper.objects.filter(club_id=event.club_id, user=user).exists():
        return event, "scorekeeper"
    raise Http404("No such event.")


def current_table(entry: Entry) -> Table | None:
    """The entry's table in the latest released game of its event (or None)."""
    latest = (
        Round.objects.filter(event_id=entry.event_id, status=Round.Status.RELEASED)
        .order_by("-number")
        .first()
    )
    if latest is None:
        return None
    return (
        Table.objects.select_related(
            "round",
            "seat_a__player",
            "seat_a__partner",
            "seat_b__player",
            "seat_b__partner",
            "result__winner__player",
            "result__winner__partner",
            "dispute",
        )
        .filter(round=latest)
        .filter(Q(seat_a=entry) | Q(seat_b=entry))
        .first()
    )


def versions(table: Table) -> list[Submission]:
    """Every version of a table's result, oldest first."""
    return list(
        table.submissions.select_related(
            "by_entry__player", "by_entry__partner", "by_user", "winner__player", "winner__partner"
        ).order_by("created_at", "pk")
    )


def my_games(entry: Entry) -> list[Table]:
    """The entry's tables in released games, newest first, with their results."""
    return list(
        Table.objects.filter(round__event_id=entry.event_id, round__status=Round.Status.RELEASED)
        .filter(Q(seat_a=entry) | Q(seat_b=entry))
        .select_related(
            "round",
            "seat_a__player",
            "seat_a__partner",
            "seat_b__player",
            "seat_b__partner",
            "result__winner__player",
            "result__winner__partner",
            "dispute",
        )
        .order_by("-round__number")
    )


# What the player's page shows for the current table (see results.lifecycle).
POLLED_STATES = POLLED_TABLE_STATES


@dataclass(frozen=True, slots=True)
class PlayerTable:
    """Where the player's current game stands, as the private page shows it.

    ``state`` is one of ``none`` (no game released), ``bye``, ``report`` (nobody reported),
    ``waiting`` (the player reported; the opponent has to confirm), ``confirm`` (the opponent
    reported; the player confirms or disputes), ``to_check`` (both agree; the desk checks),
    ``disputed`` (with the TD) or ``confirmed`` (a result is recorded, perhaps by a ruling).
    ``token`` changes whenever what the page shows changes: the poll sends it back and gets
    a 204 while it still holds.
    """

    state: TableState
    table: Table | None = None
    opponent: Entry | None = None
    mine: Submission | None = None
    theirs: Submission | None = None
    versions: tuple[Submission, ...] = ()
    result: GameResult | None = None
    dispute: Dispute | None = None

    @property
    def polled(self) -> bool:
        """Whether the page keeps asking for changes (an open game)."""
        return self.state in POLLED_STATES

    @property
    def token(self) -> str:
        """A short fingerprint of what the page shows."""
        parts = [
            self.state,
            self.table.pk if self.table else 0,
            self.mine.pk if self.mine else 0,
            self.theirs.pk if self.theirs else 0,
        ]
        return "-".join(str(p) for p in parts)


def player_table(entry: Entry) -> PlayerTable:
    """The entry's current game and where its result stands (three queries)."""
    table = current_table(entry)
    if table is None:
        return PlayerTable(TableState.NONE)
    if table.seat_b_id is None:
        return PlayerTable(TableState.BYE, table)
    opponent = table.seat_b if table.seat_a_id == entry.pk else table.seat_a
    found = versions(table)
    result = getattr(table, "result", None)
    dispute = getattr(table, "dispute", None)
    common = {"table": table, "opponent": opponent, "versions": tuple(found)}
    if result is not None:
        return PlayerTable(TableState.CONFIRMED, **common, result=result, dispute=dispute)
    if dispute is not None and dispute.is_open:
        return PlayerTable(TableState.DISPUTED, **common, dispute=dispute)
    open_versions = [v for v in found if v.status in OPEN]
    mine = next((v for v in reversed(open_versions) if v.by_entry_id == entry.pk), None)
    theirs = next((v for v in reversed(open_versions) if v.by_entry_id == opponent.pk), None)
    if any(v.status == Submission.Status.TO_CHECK for v in open_versions):
        state = TableState.TO_CHECK
    elif mine is not None:
        state = TableState.WAITING
    elif theirs is not None:
        state = TableState.CONFIRM
    else:
        state = TableState.REPORT
    return PlayerTable(state, **common, mine=mine, theirs=theirs)


def open_disputes(event: Event) -> list[Dispute]:
    """Disputes waiting for the TD, each with its table and versions."""
    disputes = list(
        Dispute.objects.filter(event=event, ruled_at__isnull=True)
        .select_related(
            "table__round",
            "table__seat_a__player",
            "table__seat_a__partner",
            "table__seat_b__player",
            "table__seat_b__partner",
        )
        .order_by("opened_at")
    )
    by_table = _versions_by_table([d.table_id for d in disputes])
    for dispute in disputes:
        dispute.versions = by_table.get(dispute.table_id, [])  # type: ignore[attr-defined]
    return disputes


def _versions_by_table(table_ids: list[int]) -> dict[int, list[Submission]]:
    """Every version of these tables' results, oldest first, in one query."""
    found: dict[int, list[Submission]] = {}
    for version in (
        Submission.objects.filter(table_id__in=table_ids)
        .select_related(
            "by_entry__player", "by_entry__partner", "by_user", "winner__player", "winner__partner"
        )
        .order_by("created_at", "pk")
    ):
        found.setdefault(version.table_id, []).append(version)
    return found


def to_check(event: Event) -> list[Table]:
    """Tables whose two reports agree and wait for the desk's check (desk-check events)."""
    tables = list(
        Table.objects.filter(round__event=event, submissions__status=Submission.Status.TO_CHECK)
        .distinct()
        .select_related(
            "round", "seat_a__player", "seat_a__partner", "seat_b__player", "seat_b__partner"
        )
        .order_by("round__number", "number")
    )
    by_table = _versions_by_table([t.pk for t in tables])
    for table in tables:
        agreed = [v for v in by_table.get(table.pk, []) if v.status == Submission.Status.TO_CHECK]
        table.agreed = agreed[-1] if agreed else None  # type: ignore[attr-defined]
    return tables


def open_tables(event: Event) -> list[Table]:
    """Tables of the latest released game still without a result (late or missing)."""
    latest = (
        Round.objects.filter(event=event, status=Round.Status.RELEASED).order_by("-number").first()
    )
    if latest is None:
        return []
    return list(
        latest.tables.filter(result__isnull=True, seat_b__isnull=False)
        .select_related(
            "round", "seat_a__player", "seat_a__partner", "seat_b__player", "seat_b__partner"
        )
        .order_by("number")
    )


def audit_log(event: Event, limit: int = 200) -> list[AuditEntry]:
    """The latest changes of an event, newest first."""
    return list(
        AuditEntry.objects.filter(event=event)
        .select_related("table__round")
        .order_by("-at", "-pk")[:limit]
    )


def latest_game_number(event: Event) -> int | None:
    """The number of the event's latest released game (or None)."""
    return (
        Round.objects.filter(event=event, status=Round.Status.RELEASED)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )


def table_to_correct(event: Event, game: int, number: int) -> Table | None:
    """A table of a released game with a recorded result, found by the numbers on its card
    (what the TD has in hand at the desk), with its players and result."""
    return (
        Table.objects.filter(
            round__event=event,
            round__status=Round.Status.RELEASED,
            round__number=game,
            number=number,
            result__isnull=False,
        )
        .select_related(
            "round",
            "seat_a__player",
            "seat_a__partner",
            "seat_b__player",
            "seat_b__partner",
            "result__winner__player",
            "result__winner__partner",
        )
        .first()
    )


def club_scorekeepers(club) -> list:
    """The users who keep score for ``club``, by username."""
    return [
        row.user
        for row in Scorekeeper.objects.filter(club=club)
        .select_related("user")
        .order_by("user__username")
    ]


def desk_marks(event_id: int, round_id: int | None = None) -> DeskMarks:
    """The desk's open disputes and checks for an event, and the state of each table of one
    game (see :class:`tournaments.hooks.DeskMarks`): three small queries on indexed columns."""
    disputed = set(
        # No ordering: the models' default one joined the event (and its own ordering) to a
        # set of ids, on every TD page that shows the desk's badge.
        Dispute.objects.filter(event_id=event_id, ruled_at__isnull=True)
        .order_by()
        .values_list("table_id", flat=True)
    )
    to_check = set(
        Submission.objects.filter(event_id=event_id, status=Submission.Status.TO_CHECK)
        .order_by()
        .values_list("table_id", flat=True)
        .distinct()
    )
    tables: dict[int, DeskMark] = {}
    if round_id is not None:
        for table_id, status, source in (
            Submission.objects.filter(table__round_id=round_id)
            .order_by()
            .values_list("table_id", "status", "source")
        ):
            if status == Submission.Status.PENDING:
                tables.setdefault(table_id, DeskMark.WAITING)
            elif (
                status == Submission.Status.CONFIRMED and source == Submission.Source.PLAYER
            ) or status == Submission.Status.AGREED:
                tables[table_id] = DeskMark.PLAYERS
        for table_id in to_check:
            tables[table_id] = DeskMark.TO_CHECK
        for table_id in disputed:
            tables[table_id] = DeskMark.DISPUTED
    reports: dict[int, dict] = {}
    if round_id is not None:
        # Plain rows, not models: a game in progress has hundreds of pending reports, and
        # building three model instances for each was most of the TD's game page.
        pending = (
            Submission.objects.filter(table__round_id=round_id, status=Submission.Status.PENDING)
            .exclude(table_id__in=disputed)
            .order_by("created_at", "pk")
            .values_list(
                "pk",
                "table_id",
                "by_entry__player__name",
                "by_entry__partner__name",
                "winner__player__name",
                "winner__partner__name",
                "loser_score",
                "forfeit",
            )
        )
        for pk, table_id, by, by_partner, winner, winner_partner, loser_score, forfeit in pending:
            by = team_name(by, by_partner) if by_partner else by
            winner = team_name(winner, winner_partner) if winner_partner else winner
            reports[table_id] = {  # the latest report of a table wins
                "version": pk,
                "by": by or "",
                "winner": winner,
                "loser_score": loser_score,
                "forfeit": forfeit,
            }
    return DeskMarks(disputes=len(disputed), to_check=len(to_check), tables=tables, reports=reports)
