"""REST API of a table's numbers from the table (``ResultShape.TABLE_NETS``: Stoppa's nets;
``ResultShape.TABLE_SCORES``: three-handed cribbage's final scores, in the same ``nets`` field).

A player sends the table's nets with their key (``POST /api/v1/results/nets``); every other
player of the table confirms that sheet, naming it (``POST /api/v1/results/nets/confirm``).
The last confirmation records the nets. A confirmation of a sheet replaced meanwhile is
refused (HTTP 400, ``sheet_changed``, the message names who changed it); nets that do not
sum to zero are ``nets_not_zero``; nothing is written on a refusal.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.drf import as_validation_error
from core.errors import ServiceError
from tournaments.limits import MAX_ID, MAX_NET, MAX_NUMBER
from tournaments.models import StoppaTable

from . import services
from .api import KeyView
from .error_codes import ResultsError
from .models import NetSheet


class SheetKeyInput(serializers.Serializer):
    key = serializers.CharField(
        max_length=64, help_text="The player's private key (from the QR code)."
    )
    session = serializers.IntegerField(min_value=1, max_value=MAX_NUMBER)
    table = serializers.IntegerField(
        min_value=1, max_value=MAX_NUMBER, help_text="Table number within the session."
    )


class SheetNet(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="Entry id.")
    net = serializers.IntegerField(min_value=-MAX_NET, max_value=MAX_NET)


class NetsInput(SheetKeyInput):
    nets = SheetNet(many=True, help_text="Every player of the table; the nets sum to zero.")


class ConfirmNetsInput(SheetKeyInput):
    sheet = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="The sheet shown to the player (its id)."
    )


class SheetOutput(serializers.Serializer):
    sheet = serializers.IntegerField()
    state = serializers.ChoiceField(choices=NetSheet.Status.values)
    nets = serializers.DictField(child=serializers.IntegerField(), help_text="By entry id.")
    confirmed_by = serializers.ListField(child=serializers.IntegerField())


def _sheet(sheet: NetSheet) -> dict:
    return {
        "sheet": sheet.pk,
        "state": sheet.status,
        "nets": sheet.nets,
        "confirmed_by": sheet.confirmed_by,
    }


def _table(event_id: int, session: int, number: int) -> StoppaTable:
    table = StoppaTable.objects.filter(
        round__event_id=event_id, round__number=session, number=number
    ).first()
    if table is None:
        raise as_validation_error(
            ServiceError(ResultsError.UNKNOWN_TABLE, "No such session and table.", field="table")
        )
    return table


class NetsView(KeyView):
    """A player sends their table's nets for the others to confirm."""

    @extend_schema(request=NetsInput, responses={201: SheetOutput})
    def post(self, request: Request) -> Response:
        data = NetsInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        nets: dict[int, int] = {}
        for row in v["nets"]:
            if row["entry"] in nets:
                raise as_validation_error(
                    ServiceError(
                        ResultsError.DUPLICATE_ENTRY, "A player is listed twice.", field="nets"
                    )
                )
            nets[row["entry"]] = row["net"]
        entry = services.entry_for_key(v["key"])
        table = _table(entry.event_id, v["session"], v["table"])
        sheet = services.report_nets(v["key"], table=table.pk, nets=nets, entry=entry)
        return Response(_sheet(sheet), status=status.HTTP_201_CREATED)


class ConfirmNetsView(KeyView):
    """A player confirms the sheet they were shown; the last one records the nets."""

    @extend_schema(request=ConfirmNetsInput, responses={201: SheetOutput})
    def post(self, request: Request) -> Response:
        data = ConfirmNetsInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        entry = services.entry_for_key(v["key"])
        table = _table(entry.event_id, v["session"], v["table"])
        sheet = services.confirm_nets(v["key"], table=table.pk, sheet=v["sheet"], entry=entry)
        return Response(_sheet(sheet), status=status.HTTP_201_CREATED)
