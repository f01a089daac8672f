"""A Stoppa session's nets from its deal records: each record verified claim by claim by the
engine (``games.stoppa.verify_deal``), its players matched to the table's seats, and the nets
summed. Read-only: ``stoppa.services.record_session_deals`` writes what this returns."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from core.engine_messages.stoppa import describe_error
from core.errors import ServiceError
from games.stoppa import verify_deal
from tournaments.error_codes import TournamentsError


def _name_key(name: str) -> str:
    return " ".join(str(name).split()).casefold()


def nets_from_deals(seats: Sequence[tuple[int, str]], deals: Sequence[Any]) -> dict[int, int]:
    """Sum the nets of a session's deal records, each verified claim by claim.

    ``seats`` are the table's (entry id, player name) pairs. Each record's players must be the
    table's players (by name, or by entry id as text); the session is one full rotation, so
    there is one deal per player and each player deals once. Raises ServiceError naming the
    first deal and the first problem found.
    """
    if not isinstance(deals, (list, tuple)) or not deals:
        raise ServiceError(
            TournamentsError.NO_DEALS,
            _("Give the session's deal records (a JSON list)."),
            field="deals",
        )
    lookup: dict[str, int] = {}
    for pk, name in seats:
        lookup[_name_key(name)] = pk
        lookup[str(pk)] = pk
    if len(deals) != len(seats):
        raise ServiceError(
            TournamentsError.INCOMPLETE_SESSION,
            _(
                "A session is one full rotation of the deal: %(n)s deals at this table, "
                "%(given)s given."
            )
            % {"n": len(seats), "given": len(deals)},
            field="deals",
        )
    totals: Counter = Counter()
    dealers: list[int] = []
    for i, record in enumerate(deals, start=1):
        report = verify_deal(record)
        if not report.ok or report.settlement is None:
            issue = report.first_error
            where = f" ({issue.where})" if issue is not None and issue.where else ""
            raise ServiceError(
                TournamentsError.DEAL_REJECTED,
                _("Deal %(n)s is rejected%(where)s: %(message)s")
                % {"n": i, "where": where, "message": describe_error(issue) if issue else ""},
                field="deals",
            )
        settled = report.settlement
        who: dict[str, int] = {}
        for name in settled.players:
            found = lookup.get(_name_key(name))
            if found is None:
                raise ServiceError(
                    TournamentsError.DEAL_WRONG_TABLE,
                    _("Deal %(n)s names %(name)s, who is not at this table.")
                    % {"n": i, "name": name},
                    field="deals",
                )
            who[name] = found
        if sorted(who.values()) != sorted(pk for pk, _name in seats):
            raise ServiceError(
                TournamentsError.DEAL_WRONG_TABLE,
                _("Deal %(n)s does not seat exactly the players of this table.") % {"n": i},
                field="deals",
            )
        dealers.append(who[settled.dealer])
        for name, net in settled.nets.items():
            totals[who[name]] += net
    if len(set(dealers)) != len(dealers):
        raise ServiceError(
            TournamentsError.INCOMPLETE_SESSION,
            _("In a session every player deals once; a player dealt twice."),
            field="deals",
        )
    return {pk: totals[pk] for pk, _name in seats}
