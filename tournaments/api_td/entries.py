"""The TD API on entries: register a player, import a roster, check in, check out,
withdraw and reinstate an entry.

Each entry action is a small view of its own (its own summary in the schema) over
``EntryAction``, which finds the entry, calls the service and answers the entry.
"""

from __future__ import annotations

from collections.abc import Callable

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response

from .. import api, services
from ..models import Entry, Event
from .base import TD_AUTHENTICATION, TD_ERRORS, TDView, td_event, td_on_writes, valid
from .serializers import (
    CheckInAllOutput,
    ImportInput,
    ImportOutput,
    NoInput,
    RegisterInput,
    TDEntrySerializer,
    WithdrawInput,
)


class CheckInAll(TDView):
    """Check in every entry that has not withdrawn."""

    @extend_schema(
        summary="Check in every entry that has not withdrawn",
        description=TD_ERRORS,
        request=NoInput,
        responses={200: CheckInAllOutput},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        return Response({"checked_in": services.check_in_all(event)})


class EventEntriesTD(api.EventEntries):
    """The entries of an event (GET: anyone for a public event, its TD for a draft too);
    register one (POST, the club's TD)."""

    authentication_classes = TD_AUTHENTICATION

    def get_permissions(self) -> list[permissions.BasePermission]:
        return td_on_writes(self)

    @extend_schema(
        summary="Register a player (or a team of two)",
        description="A club player by `player` id, or by `name` (and `acc_number`): found by "
        "ACC number, else by exact name among the club's players, else added as a new one. "
        "In a game played in teams of two, the team's partner by `partner` id or "
        "`partner_name` too (one entry, named by both). " + TD_ERRORS,
        request=RegisterInput,
        responses={201: TDEntrySerializer},
    )
    def post(self, request: Request, event_id: int) -> Response:
        return register_entry(td_event(request, event_id), request)


def register_entry(event: Event, request: Request) -> Response:
    """Enter a club player by id, or a player by name (and ACC number)."""
    values = valid(RegisterInput, request.data)
    if values.get("partner") or values.get("partner_name", "").strip():
        entry = services.register_team(
            event,
            name=values.get("name", ""),
            player=values.get("player"),
            partner=values.get("partner"),
            partner_name=values.get("partner_name", ""),
            checked_in=values["checked_in"],
            same_as_waiting=values.get("same_as_waiting"),
        )
    elif values.get("player"):
        entry = services.enter_club_player(
            event,
            values["player"],
            checked_in=values["checked_in"],
            same_as_waiting=values.get("same_as_waiting"),
        )
    else:
        entry = services.register_player(
            event,
            name=values.get("name", ""),
            acc_number=values.get("acc_number", ""),
            status=values["status"],
            checked_in=values["checked_in"],
            same_as_waiting=values.get("same_as_waiting"),
        )
    entry = Entry.objects.select_related("player", "partner").get(pk=entry.pk)
    return Response(TDEntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class ImportEntries(TDView):
    @extend_schema(
        summary="Import a roster (a pasted list of players)",
        description="Each line is matched by ACC number, else by name among the club's "
        "players, else a new member is added; skipped lines say why. " + TD_ERRORS,
        request=ImportInput,
        responses={201: ImportOutput},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.event()
        values = self.valid(ImportInput, request.data)
        report = services.import_roster(event, values["text"], checked_in=values["checked_in"])
        body = {
            "added": len(report.added),
            "matched": len(report.matched),
            "skipped": len(report.skipped),
            "lines": [
                {
                    "line": line.line,
                    "name": line.name,
                    "acc_number": line.acc_number,
                    "outcome": line.outcome,
                    "reason": line.reason,
                }
                for line in report.lines
            ],
        }
        return Response(body, status=status.HTTP_201_CREATED)


class EntryAction(TDView):
    """Check an entry in or out, withdraw or reinstate it: each a subclass with its own schema."""

    def change_entry(self, entry_id: int, change: Callable[[Entry], Entry]) -> Response:
        """Find the entry in the TD's event (else 404), change it through the service (a
        refusal is a 400) and answer the entry as it is now."""
        event = self.event()
        entry = get_object_or_404(event.entries.select_related("player", "partner"), pk=entry_id)
        done = change(entry)
        done = Entry.objects.select_related("player", "partner").get(pk=done.pk)
        return Response(TDEntrySerializer(done).data)


class CheckInEntry(EntryAction):
    """Check an entry in."""

    @extend_schema(
        summary="Check an entry in",
        description="Present for the next draw. " + TD_ERRORS,
        request=NoInput,
        responses={200: TDEntrySerializer},
    )
    def post(self, request: Request, event_id: int, entry_id: int) -> Response:
        return self.change_entry(
            entry_id, lambda entry: services.set_checked_in(entry, True, user=request.user)
        )


class CheckOutEntry(EntryAction):
    """Check an entry out."""

    @extend_schema(
        summary="Check an entry out",
        description="Left out of the next draw. " + TD_ERRORS,
        request=NoInput,
        responses={200: TDEntrySerializer},
    )
    def post(self, request: Request, event_id: int, entry_id: int) -> Response:
        return self.change_entry(
            entry_id, lambda entry: services.set_checked_in(entry, False, user=request.user)
        )


class WithdrawEntry(EntryAction):
    """Withdraw an entry from later games."""

    @extend_schema(
        summary="Withdraw an entry",
        description="From later games; games played stand; a draft seating them is drawn "
        "again; in a playoff their matches are walked over. A released table they sit at "
        "without a result stays open unless `forfeit_open`. " + TD_ERRORS,
        request=WithdrawInput,
        responses={200: TDEntrySerializer},
    )
    def post(self, request: Request, event_id: int, entry_id: int) -> Response:
        # A bad body is a 400 before the event or the entry is looked up.
        forfeit_open = self.valid(WithdrawInput, request.data)["forfeit_open"]
        return self.change_entry(
            entry_id,
            lambda entry: services.withdraw_entry(
                entry, forfeit_open=forfeit_open, user=request.user
            ),
        )


class ReinstateEntry(EntryAction):
    """Reinstate a withdrawn entry."""

    @extend_schema(
        summary="Reinstate a withdrawn entry",
        description="Back for the games still to be drawn, checked in; refused once they are "
        "in the playoff bracket. " + TD_ERRORS,
        request=NoInput,
        responses={200: TDEntrySerializer},
    )
    def post(self, request: Request, event_id: int, entry_id: int) -> Response:
        return self.change_entry(entry_id, services.reinstate_entry)
