"""A table's nets reported from the table (a Stoppa session): one player sends the sheet,
every other player at the table confirms it, and the sheet all of them confirmed is recorded
by ``tournaments.stoppa.services.record_session_nets`` (the one write of a table's nets,
audited). A TD's entry at the session page records the nets without the sheet.

A confirmation names the sheet it confirms: a sheet replaced meanwhile (another report) is
refused with a word saying who changed it, never confirmed in its stead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments.models import Entry, StoppaTable
from tournaments.stoppa import services as stoppa_services

from ..error_codes import ResultsError
from ..models import NetSheet
from ._common import _audit
from .keys import entry_for_key, throttle


def _my_table(key: str, table_id: int, entry: Entry | None) -> tuple[Entry, StoppaTable]:
    throttle(key)
    if entry is None or entry.key.key != key:
        entry = entry_for_key(key)
    row = stoppa_services.locked_session_table(entry.event, table_id)
    if not row.seats.filter(entry=entry).exists():
        raise ServiceError(
            ResultsError.NOT_YOUR_TABLE, _("You did not play at this table."), field="table"
        )
    if row.has_result:
        raise ServiceError(
            ResultsError.ALREADY_RECORDED,
            _("This table's nets are recorded; ask the tournament director to correct them."),
        )
    return entry, row


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
    entry, row = _my_table(key, table, entry)
    clean = stoppa_services.clean_nets(nets)
    stoppa_services.check_nets(row, clean)
    stored = {str(pk): net for pk, net in clean.items()}
    open_sheet = NetSheet.objects.filter(table=row, status=NetSheet.Status.OPEN).first()
    if open_sheet is not None and open_sheet.nets == stored:
        if entry.pk not in open_sheet.confirmed_by:
            return _confirm(entry, row, open_sheet)
        return open_sheet
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
    return _record_if_all(entry, row, sheet)


@transaction.atomic
def confirm_nets(key: str, *, table: int, sheet: int, entry: Entry | None = None) -> NetSheet:
    """A player confirms the sheet they were shown (``sheet``: its id). Refused when that
    sheet was replaced meanwhile; the last player's confirmation records the nets."""
    entry, row = _my_table(key, table, entry)
    current = NetSheet.objects.filter(table=row, status=NetSheet.Status.OPEN).first()
    if current is None or current.pk != sheet:
        shown = NetSheet.objects.filter(pk=sheet, table=row).select_related("by_entry").first()
        if current is not None:
            who = current.by_entry.player.name
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
    return _record_if_all(entry, row, sheet)


def _record_if_all(entry: Entry, row: StoppaTable, sheet: NetSheet) -> NetSheet:
    """Record the sheet once every player of the table has confirmed it."""
    players = list(row.seats.order_by("position").values_list("entry_id", "entry__player__name"))
    if any(pk not in sheet.confirmed_by for pk, _name in players):
        return sheet
    stoppa_services.record_session_nets(
        row.round.event,
        table=row,
        nets={int(pk): net for pk, net in sheet.nets.items()},
        actor=_("players of table %(table)s") % {"table": row.number},
    )
    sheet.status = NetSheet.Status.RECORDED
    sheet.save(update_fields=["status"])
    return sheet


def on_table_nets_changed(sender, *, event_id: int, table_id: int, **kwargs) -> None:
    """A table's nets were written or cleared (by the TD, or by the players' sheet being
    recorded): its open sheet no longer counts, so an old sheet cannot be confirmed into a
    table the TD cleared. Runs in the writer's transaction."""
    NetSheet.objects.filter(table_id=table_id, status=NetSheet.Status.OPEN).update(
        status=NetSheet.Status.REPLACED
    )
