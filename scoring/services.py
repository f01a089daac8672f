"""Writes of the scoring app: standings snapshots of an event, and queueing their recompute.

A snapshot "after game N" ranks every entry on the results of games 1..N. The SQL part of
the ranking chain (game points, games won, spread, skunks) is one INSERT ... SELECT ranked by
a window function, so no result is loaded into Python; the Python tiebreakers (head-to-head,
Buchholz, ...) then re-rank only the groups the SQL left tied.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Count, F, OuterRef, Q, Subquery
from django.utils import timezone

from tournaments import tiebreakers
from tournaments.kinds import GameKind
from tournaments.models import Entry, Event, Player, Round

from . import coalesce
from .models import STANDINGS_ORDER, Standing, StandingsSnapshot, StandingsStatus

log = logging.getLogger(__name__)

ADVISORY_LOCK_NAMESPACE = 7_040_121  # pg_advisory_xact_lock(namespace, event id)


@dataclass(slots=True)
class Line:
    """One entry's totals, for the Python tiebreakers."""

    entry_id: int
    name: str = ""
    game_points: int = 0
    games_won: int = 0
    games_lost: int = 0
    spread: int = 0
    skunks_won: int = 0
    skunks_suffered: int = 0
    chips: int = 0
    sessions_won: int = 0
    best_session: int = 0

    @property
    def games_played(self) -> int:
        return self.games_won + self.games_lost


def _queued_key(event_id: int) -> str:
    return f"standings:queued:{event_id}"


def queue_standings(event_id: int) -> None:
    """Recompute the event's standings once the current transaction commits.

    Queued on commit so the job always sees the result that triggered it. With no broker
    (the embedded default) the task runs eagerly, right after the commit.
    """

    connection_ = transaction.get_connection()
    # One recompute per event per transaction: a TD's bulk action must not queue 50 jobs.
    if connection_.in_atomic_block and any(
        getattr(callback, "standings_event_id", None) == event_id
        for _sids, callback, _robust in connection_.run_on_commit
    ):
        return

    def send() -> None:
        send_recompute(event_id)

    send.standings_event_id = event_id  # type: ignore[attr-defined]
    # robust: the result is committed; a broker hiccup is logged, never a 500 for the TD.
    transaction.on_commit(send, robust=True)


def send_recompute(event_id: int) -> bool:
    """Send the recompute task now, unless one is already queued; True if sent.

    Coalesces across transactions: while a run is queued and not yet started, further
    results ride on it (the run reads every result committed before it starts). Never
    raises: with the cache or the broker down the result is still committed, the event's
    results_version says the standings are behind, and the sweep sends the run later.
    """
    from .tasks import recompute_standings

    return coalesce.send_coalesced(_queued_key(event_id), recompute_standings, (event_id,))


def events_behind() -> list[int]:
    """Events whose results changed since the last complete recompute read them."""
    from django.db.models.functions import Coalesce

    return list(
        Event.objects.annotate(done=Coalesce("standings_status__version", 0))
        .filter(results_version__gt=F("done"))
        .values_list("pk", flat=True)
    )


def recompute_pending(event_id: int) -> bool:
    """Whether a recompute of the event is still to come or to finish: one is queued (sent
    with its gather countdown, not yet started), or the standings are behind its results."""
    return coalesce.queued(_queued_key(event_id)) or event_id in events_behind()


def sweep_standings(*, worker_started: bool = False) -> int:
    """Queue a recompute for every event whose standings are behind; the number queued.

    Run every few seconds by beat and when a worker starts: whatever was lost (a task killed
    with its worker, a message the broker dropped, an outage), the standings catch up
    without a new result and without anyone noticing. When a worker starts, the queued flags
    of the events behind are cleared first: a flag set for a run that died with a killed
    worker would otherwise hold the sweep off until it expires (a run too many is harmless).
    """
    behind = events_behind()
    if worker_started:
        coalesce.clear(*(_queued_key(event_id) for event_id in behind))
    return sum(send_recompute(event_id) for event_id in behind)


def _sql_prefix(chain: tuple[str, ...]) -> list[tiebreakers.Tiebreaker]:
    """The leading tiebreakers of the chain that SQL can rank by."""
    prefix = []
    for key in chain:
        breaker = tiebreakers.REGISTRY[key]
        if breaker.sql_column is None:
            break
        prefix.append(breaker)
    return prefix


# The totals a snapshot ranks, one line per entry of the event.
_SUMMED = (
    "game_points",
    "games_won",
    "games_lost",
    "spread",
    "skunks_won",
    "skunks_suffered",
    "byes",
)
_SUMMED_OR_NULL = ("chips", "sessions_won")  # NULL for a kind without them (cribbage)


def _totals_sql(kind: GameKind, previous: int | None) -> str:
    """SQL of every entry's totals after game ``%(n)s``, with ``listed``: true when the entry
    is already an entrant of the snapshot the totals start from.

    Without ``previous`` the kind's aggregate of games 1..n. With it, that snapshot's rows
    (the totals after game ``%(after)s``, kept up to date before this one is written) plus
    the kind's aggregate of games after..n alone: a result in the game in progress reads one
    game's results, not the event's.
    """
    if previous is None:
        return f"SELECT lines_.*, 0 = 1 AS listed FROM ({kind.lines_sql()}) lines_"
    summed = ", ".join(f"c.{col} + COALESCE(p.{col}, 0) AS {col}" for col in _SUMMED)
    or_null = ", ".join(
        f"CASE WHEN c.{col} IS NULL THEN NULL ELSE c.{col} + COALESCE(p.{col}, 0) END AS {col}"
        for col in _SUMMED_OR_NULL
    )
    # The best session of both spans, from the spans played only (a net can be negative).
    best = (
        "CASE WHEN p.games_played > 0 AND (c.games_won + c.games_lost = 0"
        " OR p.best_session > c.best_session) THEN p.best_session ELSE c.best_session END"
    )
    return f"""
        SELECT c.entry_id, {summed}, {or_null}, {best} AS best_session,
               p.entry_id IS NOT NULL AS listed
          FROM ({kind.lines_sql()}) c
          LEFT JOIN {Standing._meta.db_table} p
            ON p.snapshot_id = {int(previous)} AND p.entry_id = c.entry_id
    """


def insert_ranked_rows(
    snapshot_id: int,
    event_id: int,
    n: int,
    chain: tuple[str, ...],
    kind: GameKind,
    entrants: str = "played",
    *,
    previous: tuple[int, int] | None = None,
    replace: bool = False,
) -> int:
    """Write a snapshot's rows in one INSERT ... SELECT ranked by the chain's SQL prefix;
    the number of rows the snapshot has.

    Only entrants are ranked: entries seated in a game (a bye counts) by game ``n``, playing
    or played, and, when the event's ``entrants`` rule says so, the checked-in ones. The others
    are no-shows, listed apart (:func:`scoring.selectors.no_shows`).

    ``previous`` (snapshot id, its game), an up-to-date snapshot of an earlier game: the
    totals start from its rows and only the games after it are read (the same rows as
    without it). What placed a tied group below the row above is written on the group's
    first row by name, as the standings list it.

    ``replace`` (PostgreSQL only): the snapshot already has rows, to bring up to date in
    place (an upsert writing only the rows that changed) rather than after a delete.
    """
    prefix = _sql_prefix(chain)
    order = (
        ", ".join(f"{b.sql_column} {'DESC' if b.higher_is_better else 'ASC'}" for b in prefix)
        or "entry_id"
    )  # no SQL tiebreaker first: everyone ties until the Python passes
    keys = [b.sql_column for b in prefix if b.sql_column]
    partition = f"PARTITION BY {', '.join(keys)}" if keys else ""
    # Compared with the row listed above (rank, then name: STANDINGS_ORDER), so the mark
    # lands on the first row of a tied group without a second pass.
    separated = (
        "CASE "
        + " ".join(
            f"WHEN LAG({b.sql_column}) OVER listed <> {b.sql_column} THEN '{b.key}'" for b in prefix
        )
        + " ELSE '' END"
        if prefix
        else "''"
    )
    rank = "RANK() OVER w" if prefix else "1"
    columns = (
        "snapshot_id, event_id, entry_id, rank, tied, separated_by, game_points, games_played,"
        " games_won, games_lost, spread, skunks_won, skunks_suffered, byes,"
        " chips, sessions_won, best_session"
    )
    select = f"""
        SELECT %(snapshot)s, %(event)s, entry_id, {rank},
               COUNT(*) OVER ({partition}) > 1,
               {separated},
               game_points, games_won + games_lost, games_won, games_lost, spread,
               skunks_won, skunks_suffered, byes,
               chips, sessions_won,
               CASE WHEN games_won + games_lost > 0 THEN best_session END
          FROM ({_totals_sql(kind, previous[0] if previous else None)}) lines_
          JOIN {Entry._meta.db_table} entrant ON entrant.id = lines_.entry_id
          JOIN {Player._meta.db_table} player ON player.id = entrant.player_id
         WHERE lines_.games_won + lines_.games_lost > 0
            OR lines_.listed
            OR lines_.entry_id IN ({kind.seated_sql()})
            OR (%(checked_in_count)s AND entrant.checked_in)
        WINDOW w AS (ORDER BY {order}),
               listed AS (ORDER BY {order}, player.name_folded, entry_id)
    """
    table = Standing._meta.db_table
    if replace:
        # The snapshot's rows rewritten in place: a row whose values did not change is not
        # written (most rows, after one result), the rows of entries no longer listed go.
        # Five indexes make every written row dear: at 1,000 players the delete and insert
        # of every row cost twice the ranking's SELECT.
        updated = columns.split(", ")[3:]
        sets = ", ".join(f"{c.strip()} = EXCLUDED.{c.strip()}" for c in updated)
        mine = ", ".join(f"{table}.{c.strip()}" for c in updated)
        theirs = ", ".join(f"EXCLUDED.{c.strip()}" for c in updated)
        sql = f"""
            WITH new_ ({columns}) AS ({select}),
            gone_ AS (
                DELETE FROM {table} WHERE snapshot_id = %(snapshot)s
                   AND entry_id NOT IN (SELECT entry_id FROM new_)),
            written_ AS (
                INSERT INTO {table} ({columns}) SELECT * FROM new_
                ON CONFLICT (snapshot_id, entry_id) DO UPDATE SET {sets}
                WHERE ({mine}) IS DISTINCT FROM ({theirs}) RETURNING 1)
            SELECT COUNT(*) FROM new_
        """
    else:
        sql = f"INSERT INTO {table} ({columns}) {select}"
    params = {
        "snapshot": snapshot_id,
        "event": event_id,
        "n": n,
        "after": previous[1] if previous else 0,
        "checked_in_count": entrants == Event.Entrants.CHECKED_IN,
    }
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()[0] if replace else cursor.rowcount


def _python_passes(snapshot: StandingsSnapshot, chain: tuple[str, ...], seed: int) -> bool:
    """Re-rank the groups the SQL prefix left tied with the rest of the chain; True when
    rows were re-ranked."""
    from tournaments.models import GameResult

    prefix_len = len(_sql_prefix(chain))
    rest = chain[prefix_len:]
    if not rest:
        return False
    rows = list(snapshot.rows.select_related("entry__player", "entry__partner"))
    groups: dict[int, list[Standing]] = {}
    for row in rows:
        groups.setdefault(row.rank, []).append(row)
    tied_groups = [g for g in groups.values() if len(g) > 1]
    if not tied_groups:
        return False
    lines = {
        row.entry_id: Line(
            entry_id=row.entry_id,
            name=row.entry.name,
            game_points=row.game_points,
            games_won=row.games_won,
            games_lost=row.games_lost,
            spread=row.spread,
            skunks_won=row.skunks_won,
            skunks_suffered=row.skunks_suffered,
            chips=row.chips or 0,
            sessions_won=row.sessions_won or 0,
            best_session=row.best_session or 0,
        )
        for row in rows
    }
    games = [
        tiebreakers.Game(*values)
        for values in GameResult.objects.filter(
            table__round__event_id=snapshot.event_id, table__round__number__lte=snapshot.after_game
        ).values_list(
            "table__round__number", "winner_id", "loser_id", "winner_points", "loser_points"
        )
    ]
    context = tiebreakers.RankingContext(lines=lines, games=games, seed=seed)
    changed = []
    for group in tied_groups:
        base = group[0].rank
        # What placed the group below the row above sits on one row of it (SQL marks the
        # first row it met, not the first by name): the group's top row keeps it.
        inherited = next((row.separated_by for row in group if row.separated_by), "")
        by_entry = {row.entry_id: row for row in group}
        ranked = tiebreakers.rank(
            list(by_entry), rest, context, display_key=lambda e: lines[e].name.casefold()
        )
        for item in ranked:
            row = by_entry[item.entry]
            row.rank = base + item.rank - 1
            row.tied = item.tied
            row.separated_by = item.separated_by or (inherited if item.rank == 1 else "")
            changed.append(row)
    # One prepared UPDATE run for every row: bulk_update's CASE per column per row costs about
    # a second a snapshot at 1,000 players.
    with connection.cursor() as cursor:
        cursor.executemany(
            f"UPDATE {Standing._meta.db_table} SET rank = %s, tied = %s, separated_by = %s "
            "WHERE id = %s",
            [(row.rank, row.tied, row.separated_by, row.pk) for row in changed],
        )
    return True


def _mark_tied_groups(snapshot: StandingsSnapshot) -> None:
    """Put what placed a tied group below the row above on the group's first row as the
    standings list it (rank, then name), and nothing on the rows tied with the row above:
    the page and the API then say the same thing of the same row."""
    rows = (
        snapshot.rows.filter(tied=True)
        .order_by(*STANDINGS_ORDER)
        .values_list("pk", "rank", "separated_by")
    )
    groups: dict[int, list[tuple[int, str]]] = {}
    for pk, rank, separated_by in rows:
        groups.setdefault(rank, []).append((pk, separated_by))
    changes = []
    for group in groups.values():
        mark = next((separated_by for _pk, separated_by in group if separated_by), "")
        for i, (pk, separated_by) in enumerate(group):
            wanted = mark if i == 0 else ""
            if separated_by != wanted:
                changes.append((wanted, pk))
    if changes:
        with connection.cursor() as cursor:
            cursor.executemany(
                f"UPDATE {Standing._meta.db_table} SET separated_by = %s WHERE id = %s", changes
            )


def _games(event, existing: dict[int, StandingsSnapshot]) -> dict[int, tuple[str, bool]]:
    # ``event`` comes from :func:`_event_with_counts`, ``existing`` is its snapshots by game.
    """Per game N with results: (fingerprint of what snapshot N depends on, game complete);
    game 0 alone when no game has results.

    Snapshot N depends on the results versions of games 1..N (bumped by triggers on every
    write of a game's tables and results) and on what ranks them. One read of the event's
    games finds the first snapshot that changed; only the games from there on are counted
    (tables, results): normally just the game in progress, not every result of the event.
    """
    rounds = list(
        Round.objects.filter(event=event)
        .order_by("number")
        .values_list("number", "pk", "results_version")
    )
    # Who is an entrant depends on the entries, and on check-in under the checked-in rule.
    entries = f"{event.entries_n}/{event.checked_in_n}/{event.entrants}"
    chain = ",".join(event.ranking_chain)
    suffix = f"|{entries}|{chain}|{event.seed}"
    running = hashlib.sha1(usedforsecurity=False)
    fingerprints: dict[int, str] = {}
    stale_after = None  # games numbered above this are counted again
    for number, pk, version in rounds:
        # The game's id too: a game drawn again under its number starts its version anew.
        running.update(f"{number}:{pk}:{version};".encode())
        digest = running.copy()
        digest.update(suffix.encode())
        fingerprints[number] = digest.hexdigest()
        snapshot = existing.get(number)
        # A game never written (version 0) has no results; any other without an up-to-date
        # snapshot is counted (one whose results were all taken back is counted each run).
        if stale_after is None and (
            (snapshot is None and version)
            or (snapshot is not None and snapshot.fingerprint != fingerprints[number])
        ):
            stale_after = number - 1
    games: dict[int, tuple[str, bool]] = {
        n: (fingerprints[n], snapshot.complete)
        for n, snapshot in existing.items()
        if n in fingerprints
        and (stale_after is None or n <= stale_after)
        and snapshot.fingerprint == fingerprints[n]
    }
    if stale_after is not None:
        for number, tables_n, results_n, _latest in event.game_kind.round_stats(
            event, after=stale_after
        ):
            if results_n:
                games[number] = (fingerprints[number], tables_n == results_n)
    # No results yet: the snapshot lists the entrants (the seated, or the checked-in too).
    return games or {0: (f"none{suffix}", False)}


def _event_with_counts(event_id: int) -> Event | None:
    """The event with its entries counted (``entries_n``, ``checked_in_n``) in one query."""
    entries = Entry.objects.filter(event=OuterRef("pk")).order_by().values("event")
    return (
        Event.objects.filter(pk=event_id)
        .annotate(
            entries_n=Subquery(entries.annotate(n=Count("pk")).values("n")),
            checked_in_n=Subquery(
                entries.annotate(n=Count("pk", filter=Q(checked_in=True))).values("n")
            ),
        )
        .first()
    )


def recompute_standings(event_id: int, *, incremental: bool = True) -> int:
    """Bring every standings snapshot of an event up to date; returns the rows written.

    Concurrent runs for one event take turns under an advisory lock of their own (not the
    event's row, which result writers lock: intake never waits for the job), and the last to
    run reads every committed result (no lost update). Only snapshots whose results changed
    are rewritten (normally just the game in progress), each from the snapshot before it
    plus its own game's results (``incremental=False`` reads every game again: the same
    rows). Records the event's results_version it read, so the sweep knows it is up to
    date. Safe to repeat.
    """
    coalesce.clear(_queued_key(event_id))
    written = 0
    # Called inside a TD's action (the cut asks for the ranking), the commit is that action's.
    own_commit = not connection.in_atomic_block
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # Snapshots are derived: one lost in a crash is written again by the sweep (the
            # status row goes with it): the job's commit need not wait for the disk. Never
            # a caller's transaction, whose writes are not derived.
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_advisory_xact_lock(%s, %s), set_config('synchronous_commit', "
                    "CASE WHEN %s THEN 'off' ELSE current_setting('synchronous_commit') END, "
                    "true)",
                    [ADVISORY_LOCK_NAMESPACE, event_id, own_commit],
                )
        event = _event_with_counts(event_id)
        if event is None:
            log.info("standings: event %s no longer exists", event_id)
            return 0
        chain = event.game_kind.validate_chain(event.ranking_chain)
        existing = {s.after_game: s for s in StandingsSnapshot.objects.filter(event=event)}
        games = _games(event, existing)
        # Snapshots of games that no longer have results (a redraw) go.
        gone = [n for n in existing if n not in games]
        if gone:
            StandingsSnapshot.objects.filter(event=event, after_game__in=gone).delete()
        now = timezone.now()
        # The snapshot before the one being written, up to date by then (they go in order).
        previous: tuple[int, int] | None = None
        for n, (fingerprint, complete) in sorted(games.items()):
            snapshot = existing.get(n)
            if snapshot is not None and snapshot.fingerprint == fingerprint:
                if snapshot.complete != complete:
                    snapshot.complete = complete
                    snapshot.save(update_fields=["complete"])
                previous = (snapshot.pk, n) if n else None
                continue
            # PostgreSQL rewrites an existing snapshot's rows in place; SQLite (no DELETE in
            # a WITH) deletes them first.
            replace = snapshot is not None and connection.vendor == "postgresql"
            if snapshot is None:
                snapshot = StandingsSnapshot(event=event, after_game=n)
            elif not replace:
                Standing.objects.filter(snapshot=snapshot).delete()
            snapshot.version += 1
            snapshot.fingerprint = fingerprint
            snapshot.complete = complete
            snapshot.computed_at = now
            snapshot.save()
            written += insert_ranked_rows(
                snapshot.pk,
                event.pk,
                n,
                chain,
                event.game_kind,
                event.entrants,
                previous=previous if incremental else None,
                replace=replace,
            )
            if _python_passes(snapshot, chain, event.seed):
                _mark_tied_groups(snapshot)
            previous = (snapshot.pk, n) if n else None
        # One UPDATE in the usual case (update_or_create adds a savepoint and a read).
        status = {"version": event.results_version, "computed_at": now}
        if not StandingsStatus.objects.filter(event=event).update(**status):
            StandingsStatus.objects.create(event=event, **status)
    return written


def on_results_changed(sender, *, event_id: int, **kwargs) -> None:
    """Receiver of ``tournaments.hooks.results_changed_signal``: queue the recompute."""
    queue_standings(event_id)
