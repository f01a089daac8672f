"""Writes for Stoppa events: drawing sessions at tables of 3 to 6, and recording chip nets.

A session is a :class:`Round` of a Stoppa event: one full rotation of the deal around each
table (each player deals once), the players reseated between sessions by
:func:`tournaments.pairing.draw_group_round` so they meet as evenly as possible. A table's
result is each player's chip net for the session, typed by the TD or summed from verified deal
records (``games.stoppa.verify_deal``); the nets of a table must sum to zero.

Every public function is one transaction (``settle_session_table`` runs in its caller's,
results' sheet of nets) and raises :class:`ServiceError` for input the rules refuse, having
written nothing. ``tournaments.services`` dispatches to the draw, redraw and
release here through the game-kind registry (``tournaments.stoppa.kind``), so the TD's
usual buttons work for every kind.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments import hooks, pairing
from tournaments import pairing_bridge as bridge
from tournaments.audit_chain import append_audit
from tournaments.error_codes import TournamentsError
from tournaments.limits import MAX_NET
from tournaments.models import AuditEntry, Entry, Event, Round, StoppaSeat, StoppaTable
from tournaments.services._common import UserLike, acting_user, actor_name, locked_event
from tournaments.stoppa.deals import nets_from_deals
from tournaments.stoppa.kind import STOPPA

METHOD = "stoppa"


def _require_stoppa(event: Event, *, only: bool = False) -> None:
    """Refuse an event whose tables are not of several seats (Stoppa, three-handed
    cribbage), or (``only``: chip sizes, deal records) not Stoppa's own."""
    if not (STOPPA.owns(event) if only else event.game_kind.group_tables):
        raise ServiceError(TournamentsError.NOT_STOPPA, _("This is not a Stoppa event."))


def open_tables(round_: Round) -> list[StoppaTable]:
    """The tables of a session that still have no result (the players sitting out excluded)."""
    return list(
        round_.stoppa_tables.filter(number__isnull=False, entered_at__isnull=True).order_by(
            "number"
        )
    )


def has_results(round_: Round) -> bool:
    return round_.stoppa_tables.filter(entered_at__isnull=False).exists()


# --- History and drawing -------------------------------------------------------------------------


def shared_tables(event: Event, *, exclude: Round | None = None) -> tuple[Counter, Counter]:
    """How often each pair of entries shared a Stoppa table, and how often each sat out."""
    seats = StoppaSeat.objects.filter(round__event=event)
    if exclude is not None:
        seats = seats.exclude(round=exclude)
    tables: dict[int, list[int]] = {}
    sat_out: Counter = Counter()
    for table_id, number, entry_id in seats.values_list(
        "table_id", "table__number", "entry_id"
    ).order_by("table_id", "position"):
        if number is None:
            sat_out[entry_id] += 1
        else:
            tables.setdefault(table_id, []).append(entry_id)
    met: Counter = Counter()
    for members in tables.values():
        for a, b in combinations(members, 2):
            met[pairing.pair_key(a, b)] += 1
    return met, sat_out


def draw_tables(event: Event, number: int, *, draft: bool, seed: int | None = None) -> Round:
    """Seat session ``number`` at tables of ``min_table_size`` to ``table_size`` players,
    reseating everyone so pairs who already shared a table meet again as little as possible
    (``seed``: a new seed for a session drawn again; by default the session's own)."""
    active = bridge.active_entries(event)
    bridge.require_field(active, event.min_table_size, STOPPA.messages)
    met, sat_out = shared_tables(event)
    seed = bridge.round_seed(event, number) if seed is None else seed
    try:
        drawn = pairing.draw_group_round(
            [e.pk for e in active],
            table_size=event.table_size,
            min_table_size=event.min_table_size,
            seed=seed,
            round_number=number,
            met=met,
            sat_out=sat_out,
            forbidden=bridge.forbidden_for(event),
        )
    except pairing.PairingError as exc:
        if exc.code == "bad_table_size":
            raise ServiceError(
                TournamentsError.BAD_TABLE_SIZE,
                _("Stoppa tables hold 3 to 6 players."),
                field="table_size",
            ) from None
        raise bridge.service_error(exc) from None
    names = bridge.names_of(event)
    notes = [
        _("%(a)s and %(b)s share a table for time %(n)s: no better spread was found.")
        % {
            "a": names.get(c.players[0], ""),
            "b": names.get(c.players[1], ""),
            "n": met.get(pairing.pair_key(*c.players), 0) + 1,
        }
        for c in drawn.compromises
        if c.kind == "repeat"
    ]
    if drawn.sitting_out:
        notes.append(
            _("Sitting out this session: %(names)s.")
            % {"names": ", ".join(names.get(pk, "") for pk in drawn.sitting_out)}
        )
    round_ = Round.objects.create(
        event=event,
        number=number,
        seed=seed,
        notes=notes,
        method=METHOD,
        status=Round.Status.DRAFT if draft else Round.Status.RELEASED,
        released_at=None if draft else timezone.now(),
    )
    _write_tables(round_, drawn.tables, drawn.sitting_out, met)
    return round_


def _write_tables(
    round_: Round,
    tables: Sequence[Sequence[Hashable]],
    sitting_out: Iterable[Hashable],
    met: Mapping[frozenset[Hashable], int],
) -> None:
    rows = []
    for number, members in enumerate(tables, start=1):
        repeat = any(met.get(pairing.pair_key(a, b), 0) for a, b in combinations(members, 2))
        rows.append(
            (
                StoppaTable(
                    round=round_,
                    number=number,
                    note=_("Some players here have shared a table before.") if repeat else "",
                ),
                list(members),
            )
        )
    out = list(sitting_out)
    if out:
        rows.append((StoppaTable(round=round_, number=None), out))
    StoppaTable.objects.bulk_create([t for t, _members in rows])
    StoppaSeat.objects.bulk_create(
        StoppaSeat(table=t, round=round_, entry_id=bridge.entry_id(pk), position=position)
        for t, members in rows
        for position, pk in enumerate(members, start=1)
    )


@transaction.atomic
def set_table_sizes(event: Event, *, table_size: int, min_table_size: int) -> Event:
    """Set the largest and the smallest Stoppa table (3 to 6 players), for the next draw."""
    event = locked_event(event)
    _require_stoppa(event, only=True)
    if not 3 <= min_table_size <= table_size <= 6:
        raise ServiceError(
            TournamentsError.BAD_TABLE_SIZE,
            _("Stoppa tables hold 3 to 6 players, the smallest no larger than the largest."),
            field="table_size",
        )
    event.table_size, event.min_table_size = table_size, min_table_size
    event.save(update_fields=["table_size", "min_table_size"])
    return event


# --- Results -------------------------------------------------------------------------------------


def _locked_table(event: Event, table: StoppaTable | int, session: int | None) -> StoppaTable:
    table_id = table.pk if isinstance(table, StoppaTable) else table
    rows = StoppaTable.objects.select_for_update().filter(pk=table_id, round__event=event)
    if session is not None:
        rows = rows.filter(round__number=session)
    row = rows.select_related("round__event").first()
    if row is None:
        raise ServiceError(
            TournamentsError.UNKNOWN_TABLE,
            _("There is no such table in this event."),
            field="table",
        )
    if row.number is None:
        raise ServiceError(
            TournamentsError.SITTING_OUT,
            _("The players sitting out have no result to enter."),
            field="table",
        )
    if row.round.is_draft:
        raise ServiceError(
            TournamentsError.ROUND_DRAFT,
            _("Session %(n)s is a draft: release it before entering results.")
            % {"n": row.round.number},
            field="table",
        )
    return row


@dataclass(frozen=True)
class AgreedNets:
    """What a table's players agreed (``results``' sheet all of them confirmed): each
    player's net by entry id, and who recorded them, for the audit."""

    nets: Mapping[int, int]
    actor: str


def settle_session_table(
    event: Event,
    table_id: int,
    *,
    nets: Mapping[Entry | int, Any] | None = None,
    admit: Callable[[StoppaTable], None] | None = None,
    settle: Callable[[StoppaTable, dict[int, int] | None], AgreedNets | None],
) -> StoppaTable | None:
    """Lock a table of a released session, check the nets reported at it and record what
    the players agreed: the one call a player's sheet of nets (reported or confirmed) makes
    into tournaments.

    The event is locked first, then the table (the one lock order of every writer of a
    result). ``admit(row)`` may refuse the player before anything else is looked at (not at
    this table, nets already recorded). ``nets`` (as typed, when a player reports them) are
    cleaned and checked (``bad_net``, ``not_at_table``, ``net_missing``, ``nets_not_zero``)
    and handed to ``settle(row, clean)``, which stores or confirms the sheet and returns the
    :class:`AgreedNets` once every player agreed, else None. Agreed nets are checked (once:
    the reported nets' check is reused), written and audited as ``record_session_nets``
    does, and the table returned; nothing agreed returns None. The caller runs this in its
    transaction, which an error rolls back whole.
    """
    event = locked_event(event)
    _require_stoppa(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError(TournamentsError.EVENT_FINISHED, _("The event has finished."))
    row = _locked_table(event, table_id, None)
    if admit is not None:
        admit(row)
    clean: dict[int, int] | None = None
    seats: list[StoppaSeat] | None = None
    if nets is not None:
        clean = clean_nets(nets)
        seats = check_nets(row, clean)
    agreed = settle(row, clean)
    if agreed is None:
        return None
    agreed_nets = {int(pk): net for pk, net in agreed.nets.items()}
    return _write_nets(
        event,
        row,
        agreed_nets,
        source=StoppaTable.Source.TABLE,
        deals=None,
        user=None,
        actor=agreed.actor,
        seats=seats if agreed_nets == clean else None,
    )


def check_nets(row: StoppaTable, nets: Mapping[int, int]) -> list[StoppaSeat]:
    """The table's seats (in order, with their players) once ``nets`` (entry id -> number) is
    checked: every player of the table and no one else, and the numbers the event's kind
    allows (``check_sheet``: Stoppa's nets sum to zero). Raises ServiceError
    (``not_at_table``, ``net_missing``, ``nets_not_zero``, ...) otherwise."""
    seats = list(row.seats.select_related("entry__player").order_by("position"))
    by_entry = {s.entry_id: s for s in seats}
    unknown = [pk for pk in nets if pk not in by_entry]
    if unknown:
        raise ServiceError(
            TournamentsError.NOT_AT_TABLE,
            _("Player %(entry)s is not at table %(table)s.")
            % {"entry": unknown[0], "table": row.number},
            field="nets",
        )
    kind = row.round.event.game_kind
    error = kind.check_sheet(
        row.round.event,
        row.number or 0,
        [(s.entry.player.name, nets.get(s.entry_id)) for s in seats],
    )
    if error is not None:
        raise error
    return seats


def clean_nets(nets: Mapping[Entry | int, Any]) -> dict[int, int]:
    """Nets as typed (``+12``, ``-7``) as whole numbers by entry id; an empty one is left
    out (``check_nets`` names it missing). ``bad_net`` for anything else."""
    clean: dict[int, int] = {}
    for key, value in nets.items():
        pk = key.pk if isinstance(key, Entry) else int(key)
        if value is None or value == "":
            continue
        try:
            clean[pk] = _as_int(value, str(pk))
        except ValueError:
            raise ServiceError(
                TournamentsError.BAD_NET,
                _("A chip net is a whole number, e.g. 12 or -7."),
                field="nets",
            ) from None
    return clean


def _write_nets(
    event: Event,
    row: StoppaTable,
    nets: Mapping[int, int],
    *,
    source: str,
    deals: list | None,
    user: UserLike,
    actor: str | None = None,
    seats: list[StoppaSeat] | None = None,
    reason: str | None = None,
) -> StoppaTable:
    """Write and audit a table's nets (``seats``: the table's seats as ``check_nets``
    returned them for these very nets in this transaction; checked here otherwise).

    ``reason``: None for the players' own agreed sheet; a TD's entry gives a string, which
    must not be empty to change nets already recorded (``reason_required``). The same nets
    (and the same source and deal records) again change nothing and write no audit row.
    """
    if seats is None:
        seats = check_nets(row, nets)
    before = {s.entry.player.name: s.net for s in seats} if row.has_result else None
    after: dict[str, int | None] = {s.entry.player.name: int(nets[s.entry_id]) for s in seats}
    if before is not None and before == after:
        if row.source == source and list(row.deals or []) == list(deals or []):
            return row  # retyped as saved (a double tap, a check): no change, no audit
    elif before is not None and reason is not None:
        reason = _correction_reason(row, reason)
    for seat in seats:
        seat.net = int(nets[seat.entry_id])
    StoppaSeat.objects.bulk_update(seats, ["net"])
    _audit_nets(
        event,
        row,
        user,
        event.game_kind.sheet_action,
        before,
        after,
        actor=actor,
        reason=reason or "",
    )
    row.source = source
    row.deals = list(deals or [])
    row.entered_by = acting_user(user)
    row.entered_at = timezone.now()
    row.save(update_fields=["source", "deals", "entered_by", "entered_at"])
    hooks.table_nets_changed(event.pk, row.pk)
    hooks.results_changed(event.pk)
    return row


def _correction_reason(row: StoppaTable, reason: str) -> str:
    """The reason for changing a table's recorded nets, trimmed as the audit keeps it;
    ``reason_required`` (cribbage's code and words) when none is given."""
    reason = (reason or "").strip()[:300]
    if not reason:
        raise ServiceError(
            TournamentsError.REASON_REQUIRED,
            _("Table %(table)s already has a result: give a reason to change it.")
            % {"table": row.number},
            field="reason",
        )
    return reason


def _audit_nets(
    event: Event,
    row: StoppaTable,
    user: UserLike,
    action: str,
    old: dict[str, int | None] | None,
    new: dict[str, int | None] | None,
    *,
    actor: str | None = None,
    reason: str = "",
) -> None:
    """The audit row of a Stoppa table's nets, by player name, with the session and table
    (``actor``: who, when not the signed-in user, e.g. the players who confirmed them;
    ``reason``: why recorded nets were changed)."""
    where = {"session": row.round.number, "table": row.number}
    append_audit(
        event,
        [
            AuditEntry(
                event=event,
                table=None,
                user=acting_user(user),
                actor=actor or actor_name(user),
                action=action,
                old=where | {"nets": old} if old is not None else None,
                new=where | {"nets": new} if new is not None else None,
                reason=reason,
            )
        ],
    )


def _as_int(value: Any, name: str) -> int:
    """A chip net as typed (``+12``, ``-7``, ``\u22127``), within the bounds a session allows."""
    if isinstance(value, bool):
        raise ValueError(name)
    if isinstance(value, int):
        number = value
    else:
        text = str(value).strip().replace("\u2212", "-")
        digits = text.lstrip("+-")
        if len(text) > 12 or not digits.isdigit() or not digits.isascii():
            raise ValueError(name)
        number = int(text)
    if abs(number) > MAX_NET:
        raise ValueError(name)
    return number


@transaction.atomic
def record_session_nets(
    event: Event,
    *,
    table: StoppaTable | int,
    nets: Mapping[Entry | int, int],
    session: int | None = None,
    user: UserLike = None,
    actor: str | None = None,
    reason: str = "",
) -> StoppaTable:
    """Record (or correct) a table's session: each player's chip net, as the table agreed it.

    ``nets`` maps every player at the table (entry or entry id) to their net in chips. The nets
    must sum to zero; a missing player, a player of another table or a sum other than zero
    is refused and nothing is written. ``actor`` names who recorded them for the audit when
    nobody signed in did (the players who all confirmed the table's sheet). Other nets than
    those recorded need a ``reason`` (``reason_required``), kept in the audit row with the
    old and new nets; the same nets again change nothing.
    """
    event = locked_event(event)
    _require_stoppa(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError(TournamentsError.EVENT_FINISHED, _("The event has finished."))
    row = _locked_table(event, table, session)
    clean = clean_nets(nets)
    return _write_nets(
        event,
        row,
        clean,
        source=StoppaTable.Source.TABLE,
        deals=None,
        user=user,
        actor=actor,
        reason=reason,
    )


@transaction.atomic
def record_session_deals(
    event: Event,
    *,
    table: StoppaTable | int,
    deals: Sequence[Any],
    session: int | None = None,
    user: UserLike = None,
    reason: str = "",
) -> StoppaTable:
    """Record a table's session from its deal records: each is replayed and checked by
    ``verify_deal``, the nets summed per player (they sum to zero by construction, and are
    checked again), and the records kept with the result. Nets other than those recorded
    need a ``reason``, as in ``record_session_nets``."""
    event = locked_event(event)
    _require_stoppa(event, only=True)
    if event.status == Event.Status.FINISHED:
        raise ServiceError(TournamentsError.EVENT_FINISHED, _("The event has finished."))
    row = _locked_table(event, table, session)
    seats = [
        (pk, name)
        for pk, name in row.seats.order_by("position").values_list(
            "entry_id", "entry__player__name"
        )
    ]
    nets = nets_from_deals(seats, deals)
    return _write_nets(
        event,
        row,
        nets,
        source=StoppaTable.Source.DEALS,
        deals=list(deals),
        user=user,
        reason=reason,
    )


@transaction.atomic
def clear_session_nets(event: Event, *, table: StoppaTable | int) -> StoppaTable:
    """Remove a table's nets (entered at the wrong table); the standings follow."""
    event = locked_event(event)
    _require_stoppa(event)
    row = _locked_table(event, table, None)
    before = dict(row.seats.values_list("entry__player__name", "net"))
    _audit_nets(event, row, None, "stoppa_cleared", before, None)
    row.seats.update(net=None)
    row.source, row.deals, row.entered_by, row.entered_at = StoppaTable.Source.NONE, [], None, None
    row.save(update_fields=["source", "deals", "entered_by", "entered_at"])
    hooks.table_nets_changed(event.pk, row.pk)
    hooks.results_changed(event.pk)
    return row
