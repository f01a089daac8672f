"""A table's nets reported from the table (a Stoppa session): one player sends the sheet,
every other player at the table confirms it, and the sheet all of them confirmed is recorded.
Each report and each confirmation crosses into tournaments once:
``tournaments.stoppa.services.settle_session_table`` locks, cleans and checks the nets, lets
this module store or confirm the sheet under its locks, and writes and audits what every
player agreed (the one write of a table's nets, as ``record_session_nets`` for the TD's entry
at the session page, which records the nets without the sheet).

A confirmation names the sheet it confirms: a sheet replaced meanwhile (another report) is
refused with a word saying who changed it, never confirmed in its stead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments.models import Entry, StoppaTable
from tournaments.stoppa import services as stoppa_services
from tournaments.stoppa.services import AgreedNets

from ..error_codes import ResultsError
from ..models import NetSheet
from ._common import _audit
from .keys import entry_for_key, throttle


def _player(key: str, entry: Entry | None) -> Entry:
    throttle(key)
    if entry is None or entry.key.key != key:
        entry = entry_for_key(key)
    return entry


def _admit(entry: Entry) -> Callable[[StoppaTable], None]:
    """The check of a player at the locked table, before their nets are looked at."""

    def admit(row: StoppaTable) -> None:
        if not row.seats.filter(entry=entry).exists():
            raise ServiceError(
                ResultsError.NOT_YOUR_TABLE, _("You did not play at this table."), field="table"
            )
        if row.has_result:
            raise ServiceError(
                ResultsError.ALREADY_RECORDED,
                _("This table's nets are recorded; ask the tournament director to correct them."),
            )

    return admit


def _settle(
    entry: Entry,
    table_id: int,
    step: Callable[[StoppaTable, dict[int, int] | None], NetSheet],
    *,
    nets: Mapping[Entry | int, Any] | None = None,
) -> NetSheet:
    """Hand the table down to tournaments, once: ``settle_session_table`` locks the event
    and then the table, admits the player, cleans and checks the ``nets`` reported, lets
    ``step`` store or confirm the sheet under the locks, and records and audits the nets
    once every player confirmed them (the sheet is then marked recorded)."""
    done: list[NetSheet] = []

    def settle(row: StoppaTable, clean: dict[int, int] | None) -> AgreedNets | None:
        sheet = step(row, clean)
        done.append(sheet)
        return _agreed(row, sheet)

    stoppa_services.settle_session_table(
        entry.event, table_id, nets=nets, admit=_admit(entry), settle=settle
    )
    return done[0]


def _names(row: StoppaTable, nets: Mapping[str, int]) -> dict[str, int]:
    names = dict(row.seats.values_list("entry_id", "entry__player__name"))
    return {names[int(pk)]: net for pk, net in nets.items()}


def _where(row: StoppaTable) -> dict[str, Any]:
    return {"session": row.round.number, "table": row.number}


@transaction.atomic
def report_nets(
    key: str, *, table: int, nets: Mapping[Entry | int, Any], entry: Entry | None = None
) -> NetSheet:
    """A player sends their table's nets (every player, summing to zero) for the others to
    confirm; it replaces the table's open sheet, whose confirmations no longer count. The
    same nets sent again (a double tap) keep the open sheet."""
    entry = _player(key, entry)
    return _settle(entry, table, lambda row, clean: _store(entry, row, clean or {}), nets=nets)


def _store(entry: Entry, row: StoppaTable, clean: dict[int, int]) -> NetSheet:
    """The sheet of the nets ``entry`` reported (checked): the open one, or a new one."""
    stored = {str(pk): net for pk, net in clean.items()}
    open_sheet = NetSheet.objects.filter(table=row, status=NetSheet.Status.OPEN).first()
    if open_sheet is not None and open_sheet.nets == stored:
        if entry.pk not in open_sheet.confirmed_by:
            return _confirm(entry, row, open_sheet)
        return open_sheet  # a double tap: nothing new to record
    if open_sheet is not None:
        open_sheet.status = NetSheet.Status.REPLACED
        open_sheet.save(update_fields=["status"])
    sheet = NetSheet.objects.create(table=row, by_entry=entry, nets=stored, confirmed_by=[entry.pk])
    _audit(
        row.round.event,
        None,
        action="nets_reported",
        entry=entry,
        old=_where(row) | {"nets": _names(row, open_sheet.nets)} if open_sheet else None,
        new=_where(row) | {"nets": _names(row, stored)},
    )
    return sheet


@transaction.atomic
def confirm_nets(key: str, *, table: int, sheet: int, entry: Entry | None = None) -> NetSheet:
    """A player confirms the sheet they were shown (``sheet``: its id). Refused when that
    sheet was replaced meanwhile; the last player's confirmation records the nets."""
    entry = _player(key, entry)
    return _settle(entry, table, lambda row, _clean: _confirm_shown(entry, row, sheet))


def _confirm_shown(entry: Entry, row: StoppaTable, sheet: int) -> NetSheet:
    current = NetSheet.objects.filter(table=row, status=NetSheet.Status.OPEN).first()
    if current is None or current.pk != sheet:
        shown = NetSheet.objects.filter(pk=sheet, table=row).select_related("by_entry").first()
        if current is not None:
            who = current.by_entry.name
            message = _("%(name)s changed the nets: check them again.") % {"name": who}
        elif shown is None:
            message = _("There is no such report at your table.")
        else:
            message = _("This report is no longer open: check the nets again.")
        raise ServiceError(ResultsError.SHEET_CHANGED, message, field="sheet")
    return _confirm(entry, row, current)


def _confirm(entry: Entry, row: StoppaTable, sheet: NetSheet) -> NetSheet:
    if entry.pk not in sheet.confirmed_by:
        sheet.confirmed_by = [*sheet.confirmed_by, entry.pk]
        sheet.save(update_fields=["confirmed_by"])
        _audit(
            row.round.event,
            None,
            action="nets_confirmed",
            entry=entry,
            new=_where(row) | {"nets": _names(row, sheet.nets)},
        )
    return sheet


def _agreed(row: StoppaTable, sheet: NetSheet) -> AgreedNets | None:
    """The sheet's nets once every player of the table has confirmed it (the sheet marked
    recorded: tournaments writes them next, in this transaction), else None."""
    players = list(row.seats.values_list("entry_id", flat=True))
    if any(pk not in sheet.confirmed_by for pk in players):
        return None
    sheet.status = NetSheet.Status.RECORDED
    sheet.save(update_fields=["status"])
    return AgreedNets(
        nets={int(pk): net for pk, net in sheet.nets.items()},
        actor=_("players of table %(table)s") % {"table": row.number},
    )


def on_table_nets_changed(sender, *, event_id: int, table_id: int, **kwargs) -> None:
    """A table's nets were written or cleared (by the TD, or by the players' sheet being
    recorded): its open sheet no longer counts, so an old sheet cannot be confirmed into a
    table the TD cleared. Runs in the writer's transaction."""
    NetSheet.objects.filter(table_id=table_id, status=NetSheet.Status.OPEN).update(
        status=NetSheet.Status.REPLACED
    )
