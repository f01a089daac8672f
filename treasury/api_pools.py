"""An event's side pools by API: the pools of the night with their stakes and winners, an
entry's stakes, a pool's winners. For the club's TDs and treasurers (``api.MoneyView``): 401
when not signed in, 404 for another club's event; a refused call is a 400 with its code.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api_td import TD_ERRORS, valid
from tournaments.limits import MAX_ID
from tournaments.models import Event

from . import selectors, services
from .api import MoneyView
from .api_club import StrictDecimal
from .models import EventPool


class StakeData(serializers.Serializer):
    """An entry's stakes in a pool (skunks, for a skunk pot)."""

    entry = serializers.IntegerField()
    player = serializers.CharField()
    count = serializers.IntegerField()


class WinnerData(serializers.Serializer):
    """A winner of a pool tonight and what the pool pays them."""

    entry = serializers.IntegerField()
    player = serializers.CharField()
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)


class PoolNightData(serializers.Serializer):
    """A pool of the night: run tonight (``fee``) or carrying a balance through it."""

    pool = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.CharField()
    fee = serializers.DecimalField(
        max_digits=12, decimal_places=2, allow_null=True, help_text="None: not run tonight."
    )
    count = serializers.IntegerField(help_text="Stakes tonight.")
    carried_in = serializers.DecimalField(max_digits=12, decimal_places=2)
    takings = serializers.DecimalField(max_digits=12, decimal_places=2)
    named = serializers.BooleanField(help_text="The winners were named (else derived).")
    winners = WinnerData(many=True)
    stakes = StakeData(many=True)
    carried_out = serializers.DecimalField(max_digits=12, decimal_places=2)


def pool_nights_data(event: Event) -> list[dict[str, Any]]:
    """The event's pools with their stakes and winners, as the API answers them."""
    names = selectors.entry_names(event)
    stakes = selectors.stakes(event)
    found = []
    for night in selectors.pool_nights(event):
        result = night.result
        found.append(
            {
                "pool": night.pool.pk,
                "name": night.pool.name,
                "kind": night.pool.kind,
                "fee": night.fee,
                "count": night.count,
                "carried_in": result.carried_in,
                "takings": result.takings,
                "named": night.named,
                "winners": [
                    {
                        "entry": share.entry_id,
                        "player": names.get(share.entry_id, ""),  # type: ignore[call-overload]
                        "amount": share.amount,
                    }
                    for share in result.shares
                ],
                "stakes": [
                    {"entry": entry_id, "player": names.get(entry_id, ""), "count": counts[pk]}
                    for entry_id, counts in sorted(
                        stakes.items(), key=lambda item: names.get(item[0], "")
                    )
                    for pk in counts
                    if pk == night.pool.pk
                ],
                "carried_out": result.carried_out,
            }
        )
    return found


class EventPoolsView(MoneyView):
    """The pools of the event's night with their stakes and winners."""

    @extend_schema(
        summary="Read an event's side pools (TD, treasurer)",
        description="Tonight's pools (`fee`) and the club's others carrying a balance through "
        "the night, each with its stakes, its winners (named, or derived: the Q-pool's "
        "qualifiers, the logged 28 and 29 hands) and what it pays. " + TD_ERRORS,
        responses={200: PoolNightData(many=True)},
    )
    def get(self, request: Request, event_id: int) -> Response:
        return Response(PoolNightData(pool_nights_data(self.event()), many=True).data)


class StakeInput(serializers.Serializer):
    """A pool run tonight and the entry's stakes in it (0: out of it)."""

    pool = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    count = serializers.IntegerField(min_value=0, max_value=999)


class StakesInput(serializers.Serializer):
    """The entry's stakes in tonight's pools; a pool run tonight and left out is 0."""

    stakes = StakeInput(many=True)


class StakesOutput(serializers.Serializer):
    """The entry's stakes in tonight's pools."""

    entry = serializers.IntegerField()
    player = serializers.CharField()
    stakes = StakeInput(many=True)


class EntryStakesView(MoneyView):
    """An entry's stakes in the night's pools."""

    @extend_schema(
        summary="Set an entry's stakes in the night's pools (TD, treasurer)",
        description="Each pool run tonight gets the count given, or 0 when left out (the "
        "entry is out of it); a count is 0-999 (skunks, for a skunk pot). Each change is "
        "audited. " + TD_ERRORS,
        request=StakesInput,
        responses={200: StakesOutput},
    )
    def put(self, request: Request, event_id: int, entry_id: int) -> Response:
        event = self.event()
        values = valid(StakesInput, request.data)
        wanted = {s["pool"]: s["count"] for s in values["stakes"]}
        running = set(EventPool.objects.filter(event=event).values_list("pool_id", flat=True))
        # The pools named first (an unknown one is refused before anything else changes),
        # then those left out go to 0; one transaction per stake, each audited.
        for pool_id, count in wanted.items():
            services.set_pool_stake(event, pool_id, entry_id, count, user=request.user)
        for pool_id in sorted(running - set(wanted)):
            services.set_pool_stake(event, pool_id, entry_id, 0, user=request.user)
        mine = selectors.stakes(event).get(entry_id, {})
        return Response(
            StakesOutput(
                {
                    "entry": entry_id,
                    "player": selectors.entry_names(event).get(entry_id, ""),
                    "stakes": [{"pool": pk, "count": n} for pk, n in sorted(mine.items())],
                }
            ).data
        )


class WinnersInput(serializers.Serializer):
    """A pool's winners in order; none: derived again."""

    entries = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), max_length=500
    )
    payout_percent = StrictDecimal(
        max_digits=5,
        decimal_places=2,
        required=False,
        allow_null=True,
        help_text="Paid of the pool, percent (a 28 takes half: 50).",
    )


class PoolWinnersView(MoneyView):
    """Name the winners of one of the night's pools."""

    @extend_schema(
        summary="Name a pool's winners (TD, treasurer)",
        description="In order (a 29 hand held, a draw won); an empty list: the winners are "
        "derived again. Audited. " + TD_ERRORS,
        request=WinnersInput,
        responses={200: PoolNightData},
    )
    def put(self, request: Request, event_id: int, pool_id: int) -> Response:
        event = self.event()
        values = valid(WinnersInput, request.data)
        services.set_pool_winners(
            event,
            pool_id,
            values["entries"],
            payout_percent=values.get("payout_percent"),
            user=request.user,
        )
        night = next(n for n in pool_nights_data(event) if n["pool"] == pool_id)
        return Response(PoolNightData(night).data)
