"""Writes of the scoring app: standings snapshots of an event, and queueing their recompute.

A snapshot "after game N" ranks every entry on the results of games 1..N. The SQL part of
the ranking chain (game points, games won, spread, skunks) is one INSERT ... SELECT ranked by
a window function, so no result is loaded into Python; the Python tiebreakers (head-to-head,
Buchholz, ...) then re-rank only the groups the SQL left tied.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

from tournaments import tiebreakers

from .models import Standing, StandingsSnapshot

log = logging.getLogger(__name__)

QUEUED_FLAG_SECONDS = 300  # a lost message only delays the next run by this much


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


def _flags_shared() -> bool:
    """Whether the queued flag is seen by the worker too: eager mode, or a shared cache.

    A worker with a process-local cache would never clear the web process's flag, so without
    Redis as the cache every commit sends its own run (correct, just not coalesced).
    """
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    from pegboard.celery import app

    return app.conf.task_always_eager or not isinstance(caches["default"], LocMemCache)


def queue_standings(event_id: int) -> None:
    """Recompute the event's standings once the current transaction commits.

    Queued on commit so the job always sees the result that triggered it. With no broker
    (the embedded default) the task runs eagerly, right after the commit.
    """
    from .tasks import recompute_standings  # tasks import services: import here, not at top

    connection_ = transaction.get_connection()
    # One recompute per event per transaction: a TD's bulk action must not queue 50 jobs.
    if connection_.in_atomic_block and any(
        getattr(callback, "standings_event_id", None) == event_id
        for _sids, callback, _robust in connection_.run_on_commit
    ):
        return

    def send() -> None:
        # Coalesce across transactions: while a run is queued and not yet started, further
        # results ride on it (the run reads every result committed before it starts).
        if not _flags_shared():
            recompute_standings.delay(event_id)
        elif cache.add(_queued_key(event_id), 1, timeout=QUEUED_FLAG_SECONDS):
            try:
                recompute_standings.delay(event_id)
            except Exception:
                cache.delete(_queued_key(event_id))  # let the next result try again
                raise

    send.standings_event_id = event_id  # type: ignore[attr-defined]
    # robust: the result is committed; a broker hiccup is logged, never a 500 for the TD.
    transaction.on_commit(send, robust=True)


def _tables() -> dict[str, str]:
    from tournaments.models import Entry, GameResult, Round, StoppaSeat, StoppaTable, Table

    return {
        "entry": Entry._meta.db_table,
        "result": GameResult._meta.db_table,
        "table": Table._meta.db_table,
        "round": Round._meta.db_table,
        "standing": Standing._meta.db_table,
        "stoppa_table": StoppaTable._meta.db_table,
        "stoppa_seat": StoppaSeat._meta.db_table,
    }


def lines_sql(game: str = "cribbage") -> str:
    """SQL for every entry's totals over games 1..%(n)s of event %(event)s.

    The lines source depends on the event's game: two-player results for cribbage,
    chip nets per seat for Stoppa (:func:`stoppa_lines_sql`). Both give the same columns.
    """
    if game == "stoppa":
        return stoppa_lines_sql()
    t = _tables()
    return f"""
        SELECT e.id AS entry_id,
               COALESCE(w.points, 0) + COALESCE(l.points, 0) AS game_points,
               COALESCE(w.won, 0) AS games_won,
               COALESCE(l.lost, 0) AS games_lost,
               COALESCE(w.plus, 0) - COALESCE(l.minus, 0) AS spread,
               COALESCE(w.skunks, 0) AS skunks_won,
               COALESCE(l.skunked, 0) AS skunks_suffered,
               COALESCE(w.byes, 0) AS byes,
               CAST(NULL AS INTEGER) AS chips,
               CAST(NULL AS INTEGER) AS sessions_won,
               CAST(NULL AS INTEGER) AS best_session
          FROM {t["entry"]} e
          LEFT JOIN (
                SELECT r.winner_id AS id, SUM(r.winner_points) AS points, COUNT(*) AS won,
                       SUM(r.margin) AS plus,
                       SUM(CASE WHEN r.skunk_level > 0 THEN 1 ELSE 0 END) AS skunks,
                       SUM(CASE WHEN r.kind = 'bye' THEN 1 ELSE 0 END) AS byes
                  FROM {t["result"]} r
                  JOIN {t["table"]} t ON t.id = r.table_id
                  JOIN {t["round"]} g ON g.id = t.round_id
                 WHERE g.event_id = %(event)s AND g.number <= %(n)s
                 GROUP BY r.winner_id) w ON w.id = e.id
          LEFT JOIN (
                SELECT r.loser_id AS id, SUM(r.loser_points) AS points, COUNT(*) AS lost,
                       SUM(r.margin) AS minus,
                       SUM(CASE WHEN r.skunk_level > 0 THEN 1 ELSE 0 END) AS skunked
                  FROM {t["result"]} r
                  JOIN {t["table"]} t ON t.id = r.table_id
                  JOIN {t["round"]} g ON g.id = t.round_id
                 WHERE g.event_id = %(event)s AND g.number <= %(n)s AND r.loser_id IS NOT NULL
                 GROUP BY r.loser_id) l ON l.id = e.id
         WHERE e.event_id = %(event)s
    """


def stoppa_lines_sql() -> str:
    """SQL for every entry's Stoppa totals over sessions 1..%(n)s of event %(event)s.

    One aggregate over the seats with a net (tables of 3 to 6, no pairs assumed): total
    chips, sessions played, sessions won (the best net at the table, a shared best counting for
    each) and the best single session (0 for an entry that has not played yet).
    """
    t = _tables()
    return f"""
        SELECT e.id AS entry_id,
               0 AS game_points,
               COALESCE(s.won, 0) AS games_won,
               COALESCE(s.played, 0) - COALESCE(s.won, 0) AS games_lost,
               0 AS spread,
               0 AS skunks_won,
               0 AS skunks_suffered,
               0 AS byes,
               COALESCE(s.chips, 0) AS chips,
               COALESCE(s.won, 0) AS sessions_won,
               COALESCE(s.best, 0) AS best_session
          FROM {t["entry"]} e
          LEFT JOIN (
                SELECT st.entry_id AS id, SUM(st.net) AS chips, COUNT(*) AS played,
                       MAX(st.net) AS best,
                       SUM(CASE WHEN st.net = m.top THEN 1 ELSE 0 END) AS won
                  FROM {t["stoppa_seat"]} st
                  JOIN {t["stoppa_table"]} t ON t.id = st.table_id
                  JOIN {t["round"]} g ON g.id = t.round_id
                  JOIN (SELECT table_id, MAX(net) AS top
                          FROM {t["stoppa_seat"]}
                         WHERE net IS NOT NULL
                         GROUP BY table_id) m ON m.table_id = st.table_id
                 WHERE g.event_id = %(event)s AND g.number <= %(n)s AND st.net IS NOT NULL
                 GROUP BY st.entry_id) s ON s.id = e.id
         WHERE e.event_id = %(event)s
    """


def _sql_prefix(chain: tuple[str, ...]) -> list[tiebreakers.Tiebreaker]:
    """The leading tiebreakers of the chain that SQL can rank by."""
    prefix = []
    for key in chain:
        breaker = tiebreakers.REGISTRY[key]
        if breaker.sql_column is None:
            break
        prefix.append(breaker)
    return prefix


def insert_ranked_rows(
    snapshot_id: int, event_id: int, n: int, chain: tuple[str, ...], game: str = "cribbage"
) -> int:
    """Write a snapshot's rows in one INSERT ... SELECT ranked by the chain's SQL prefix."""
    prefix = _sql_prefix(chain)
    order = (
        ", ".join(f"{b.sql_column} {'DESC' if b.higher_is_better else 'ASC'}" for b in prefix)
        or "entry_id"
    )  # no SQL tiebreaker first: everyone ties until the Python passes
    keys = [b.sql_column for b in prefix]
    partition = f"PARTITION BY {', '.join(keys)}" if keys else ""
    separated = (
        "CASE "
        + " ".join(
            f"WHEN LAG({b.sql_column}) OVER w <> {b.sql_column} THEN '{b.key}'" for b in prefix
        )
        + " ELSE '' END"
        if prefix
        else "''"
    )
    rank = "RANK() OVER w" if prefix else "1"
    t = _tables()
    sql = f"""
        INSERT INTO {t["standing"]} (
            snapshot_id, event_id, entry_id, rank, tied, separated_by, game_points, games_played,
            games_won, games_lost, spread, skunks_won, skunks_suffered, byes,
            chips, sessions_won, best_session)
        SELECT %(snapshot)s, %(event)s, entry_id, {rank},
               COUNT(*) OVER ({partition}) > 1,
               {separated},
               game_points, games_won + games_lost, games_won, games_lost, spread,
               skunks_won, skunks_suffered, byes,
               chips, sessions_won,
               CASE WHEN games_won + games_lost > 0 THEN best_session END
          FROM ({lines_sql(game)}) lines_
        WINDOW w AS (ORDER BY {order})
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, {"snapshot": snapshot_id, "event": event_id, "n": n})
        return cursor.rowcount


def _python_passes(snapshot: StandingsSnapshot, chain: tuple[str, ...], seed: int) -> None:
    """Re-rank the groups the SQL prefix left tied with the rest of the chain."""
    from tournaments.models import GameResult

    prefix_len = len(_sql_prefix(chain))
    rest = chain[prefix_len:]
    if not rest:
        return
    rows = list(snapshot.rows.select_related("entry__player"))
    groups: dict[int, list[Standing]] = {}
    for row in rows:
        groups.setdefault(row.rank, []).append(row)
    tied_groups = [g for g in groups.values() if len(g) > 1]
    if not tied_groups:
        return
    lines = {
        row.entry_id: Line(
            entry_id=row.entry_id,
            name=row.entry.player.name,
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
        inherited = group[0].separated_by
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
    Standing.objects.bulk_update(changed, ["rank", "tied", "separated_by"])


def _games(event) -> dict[int, tuple[str, bool]]:
    """Per game N with results: (fingerprint of what snapshot N depends on, game complete).

    One query over the event's games: tables, results and the latest entry time per game.
    """
    from tournaments.models import Round

    if event.game == "stoppa":
        played = Q(stoppa_tables__number__isnull=False)
        per_game = (
            Round.objects.filter(event=event)
            .annotate(
                tables_n=Count("stoppa_tables", filter=played),
                results_n=Count(
                    "stoppa_tables", filter=played & Q(stoppa_tables__entered_at__isnull=False)
                ),
                last=Max("stoppa_tables__entered_at"),
            )
            .order_by("number")
            .values_list("number", "tables_n", "results_n", "last")
        )
    else:
        per_game = (
            Round.objects.filter(event=event)
            .annotate(
                tables_n=Count("tables"),
                results_n=Count("tables__result"),
                last=Max("tables__result__entered_at"),
            )
            .order_by("number")
            .values_list("number", "tables_n", "results_n", "last")
        )
    entries = event.entries.count()
    chain = ",".join(event.tiebreakers or tiebreakers.default_chain(event.game))
    games: dict[int, tuple[str, bool]] = {}
    count, last = 0, None
    for number, tables_n, results_n, latest in per_game:
        if not results_n:
            continue
        count += results_n
        last = max(filter(None, (last, latest)), default=None)
        stamp = last.isoformat() if last else "-"
        fingerprint = f"{count}|{stamp}|{entries}|{chain}|{event.seed}"
        games[number] = (fingerprint, tables_n == results_n)
    return games


def recompute_standings(event_id: int) -> int:
    """Bring every standings snapshot of an event up to date; returns the rows written.

    Runs under a lock on the event row, so concurrent runs for one event take turns and the
    last one to run reads every committed result (no lost update). Only snapshots whose
    results changed are rewritten (normally just the game in progress). Safe to repeat.
    """
    from tournaments.models import Event

    # From here on a new result queues a new run: this one may already have read past it.
    cache.delete(_queued_key(event_id))
    written = 0
    with transaction.atomic():
        event = Event.objects.select_for_update().filter(pk=event_id).first()
        if event is None:
            log.info("standings: event %s no longer exists", event_id)
            return 0
        chain = tiebreakers.validate_chain(
            event.tiebreakers or tiebreakers.default_chain(event.game)
        )
        games = _games(event) or {0: (f"none|{event.entries.count()}", False)}
        existing = {s.after_game: s for s in StandingsSnapshot.objects.filter(event=event)}
        # Snapshots of games that no longer have results (a redraw) go.
        gone = [n for n in existing if n not in games]
        if gone:
            StandingsSnapshot.objects.filter(event=event, after_game__in=gone).delete()
        now = timezone.now()
        for n, (fingerprint, complete) in sorted(games.items()):
            snapshot = existing.get(n)
            if snapshot is not None and snapshot.fingerprint == fingerprint:
                if snapshot.complete != complete:
                    snapshot.complete = complete
                    snapshot.save(update_fields=["complete"])
                continue
            if snapshot is None:
                snapshot = StandingsSnapshot(event=event, after_game=n)
            else:
                Standing.objects.filter(snapshot=snapshot).delete()
            snapshot.version += 1
            snapshot.fingerprint = fingerprint
            snapshot.complete = complete
            snapshot.computed_at = now
            snapshot.save()
            written += insert_ranked_rows(snapshot.pk, event.pk, n, chain, event.game)
            _python_passes(snapshot, chain, event.seed)
    return written


def on_results_changed(sender, *, event_id: int, **kwargs) -> None:
    """Receiver of ``tournaments.hooks.results_changed_signal``: queue the recompute."""
    queue_standings(event_id)
