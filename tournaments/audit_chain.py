"""The audit log as a hash chain per event: nobody can quietly change a recorded result.

Each :class:`~tournaments.models.AuditEntry` carries ``digest``, the SHA-256 of its content
and of the previous entry's digest (``previous_digest``; "" for an event's first entry), and
the event keeps the last digest (``Event.audit_digest``, the chain's head, moved by a
trigger on every INSERT of audit rows). The chain's order
is the entries' id order within the event. A row changed or deleted behind the
application's back (raw SQL, the admin's database) no longer matches: :func:`verify_chain`
recomputes the chain and names the first entry that does not, and a deleted last entry
leaves the head pointing past the log.

Every writer of audit rows goes through :func:`append_audit`, the one place that chains.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import connection
from django.utils import timezone

from tournaments.models import AuditEntry, Event

GENESIS = ""  # the previous digest of an event's first entry


def _json(value: Any) -> Any:
    """A value as the database gives it back (a tuple as a list, a lazy string as text)."""
    return None if value is None else json.loads(json.dumps(value, default=str))


def _when(at: datetime) -> str:
    if timezone.is_naive(at):
        at = timezone.make_aware(at, UTC)
    return at.astimezone(UTC).isoformat(timespec="microseconds")


def canonical(entry: AuditEntry, previous: str) -> bytes:
    """The bytes an entry's digest is taken over: sorted-key JSON of its content (the
    event, table and user by id, as written; the time in ISO UTC) and the previous entry's
    digest."""
    content = {
        "event": entry.event_id,
        "table": entry.written_table_id,
        "user": entry.written_user_id,
        "actor": entry.actor,
        "action": entry.action,
        "old": _json(entry.old),
        "new": _json(entry.new),
        "reason": str(entry.reason),
        "at": _when(entry.at),
        "previous": previous,
    }
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def digest_of(entry: AuditEntry, previous: str) -> str:
    """The hex SHA-256 of ``entry`` chained onto ``previous``."""
    return hashlib.sha256(canonical(entry, previous)).hexdigest()


def chain(rows: Iterable[AuditEntry], previous: str) -> str:
    """Chain ``rows`` (in order) onto ``previous``: sets their time (when not set), the ids
    of their table and user as written, previous digest and digest; answers the last
    digest."""
    for row in rows:
        if row.at is None:
            row.at = timezone.now()
        row.written_table_id, row.written_user_id = row.table_id, row.user_id
        row.previous_digest = previous
        row.digest = previous = digest_of(row, previous)
    return previous


def _locked_head(event_id: int) -> str:
    """The event's chain head, read under a row lock that only one appender holds at a time.

    Concurrency: the TD's writers already hold the event ``FOR UPDATE`` (``locked_event``),
    but a player's report holds it only ``FOR KEY SHARE`` (``report_locks``,
    ``shared_event_lock``), so that reports at other tables do not wait for each other.
    Two reports could then chain onto the same head; ``FOR NO KEY UPDATE`` here makes the
    appenders of one event take turns for the last steps of their transactions only (append,
    commit). It conflicts with the TD's ``FOR UPDATE`` and with other
    appenders, not with the share locks of reports still checking their tables, and the
    re-read after a wait sees the head the previous appender committed (READ COMMITTED locks
    the row's newest version). A writer that already holds ``FOR UPDATE`` is granted it at
    once. SQLite takes its one write lock when the transaction begins (IMMEDIATE).
    """
    table = connection.ops.quote_name(Event._meta.db_table)
    sql = f"SELECT audit_digest FROM {table} WHERE id = %s"
    if connection.vendor == "postgresql":
        sql += " FOR NO KEY UPDATE"
    with connection.cursor() as cursor:
        cursor.execute(sql, [event_id])
        row = cursor.fetchone()
    return row[0] if row is not None else GENESIS


def append_audit(
    event: Event | int, rows: Sequence[AuditEntry], *, batch_size: int | None = None
) -> list[AuditEntry]:
    """Write ``rows`` (entries of ``event``, in order) at the end of the event's chain: in
    two statements whatever their number (lock and read the head, one INSERT; the INSERT's
    trigger, of migration 0015, moves the head to the last row's digest in that statement).
    The caller runs it in its transaction (the lock is held to its end)."""
    if not rows:
        return []
    event_id = event if isinstance(event, int) else event.pk
    head = chain(rows, _locked_head(event_id))
    made = AuditEntry.objects.bulk_create(list(rows), batch_size=batch_size)
    if isinstance(event, Event):
        event.audit_digest = head
    return made


@dataclass(frozen=True, slots=True)
class Mismatch:
    """The first entry that does not match its digest (or the head, when ``entry`` is None:
    the log ends before the last digest the event recorded)."""

    entry: AuditEntry | None
    expected: str
    found: str


@dataclass(frozen=True, slots=True)
class ChainCheck:
    """What :func:`verify_chain` found: the number of entries, the final digest recomputed,
    and the first mismatch (None: the log is intact)."""

    entries: int
    digest: str
    first_mismatch: Mismatch | None

    @property
    def intact(self) -> bool:
        return self.first_mismatch is None


def verify_chain(event: Event) -> ChainCheck:
    """Recompute ``event``'s chain in id order and compare it with the stored digests and
    the event's head; the first entry whose content, previous digest or digest differs is
    named (a changed row, or the one after a deleted row)."""
    previous, count, mismatch = GENESIS, 0, None
    rows = AuditEntry.objects.filter(event_id=event.pk).order_by("pk").iterator(chunk_size=2000)
    for row in rows:
        count += 1
        expected = digest_of(row, previous)
        if mismatch is None and (row.previous_digest != previous or row.digest != expected):
            mismatch = Mismatch(row, expected, row.digest)
        previous = expected
    head = Event.objects.filter(pk=event.pk).values_list("audit_digest", flat=True).first()
    if mismatch is None and (head or GENESIS) != previous:
        mismatch = Mismatch(None, head or GENESIS, previous)
    return ChainCheck(entries=count, digest=previous, first_mismatch=mismatch)
