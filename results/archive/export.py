"""The archive's export: an event, with everything it is, as one JSON-ready dict.

A few ``values()`` reads per kind of object, whatever the size of the event. Entries, players,
tables and reports get the archive's own ``ref`` numbers, never database ids; users appear only
by name; private player keys are never exported."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from django.db.models import F
from django.utils import timezone

from results.models import Dispute, Submission
from scoring.models import MasterPoints, MrpAward, SpecialHand
from scoring.selectors import placed_standings, snapshot_for_event
from tournaments.models import (
    AuditEntry,
    Bracket,
    Entry,
    Event,
    ForbiddenPair,
    GameResult,
    Player,
    PlayoffGame,
    PlayoffMatch,
    Round,
    StoppaSeat,
    StoppaTable,
    Table,
)
from treasury.models import EventPool, NightLedger, Payment, PoolEntry, PoolWin
from treasury.selectors import club_money, event_fees, takings

from .door import export_registrations
from .schema import EVENT_FIELDS, FORMAT_FIELDS, MATCH_FIELDS, SCHEMA, STANDING_FIELDS, VERSION


def _when(value: datetime.datetime | datetime.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _username(user_id: int | None, names: dict[int, str]) -> str:
    return names.get(user_id, "") if user_id is not None else ""


def export_event(event: Event) -> dict[str, Any]:
    """The whole event as a JSON-ready dict (schema ``pegboard.event-archive`` v1).

    A few queries per kind of object, whatever the size of the event (``values()`` reads, no
    model instances: a 1,000-player event's 4,500 results export in a fraction of a second).
    """
    from django.contrib.auth import get_user_model

    # The names of the users who entered something in this event (not every user's).
    user_ids = (
        set(
            GameResult.objects.filter(table__round__event=event).values_list(
                "entered_by_id", flat=True
            )
        )
        | set(
            StoppaTable.objects.filter(round__event=event).values_list("entered_by_id", flat=True)
        )
        | set(Submission.objects.filter(event=event).values_list("by_user_id", flat=True))
        | set(Dispute.objects.filter(event=event).values_list("ruled_by_id", flat=True))
        | set(
            PlayoffGame.objects.filter(match__bracket__event=event).values_list(
                "entered_by_id", flat=True
            )
        )
    ) - {None}
    users = dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username"))
    entries = list(
        Entry.objects.filter(event=event)
        .order_by("pk")
        .values("pk", "player_id", "partner_id", "checked_in", "checked_in_how", "withdrawn")
    )
    entry_ref = {row["pk"]: n for n, row in enumerate(entries, start=1)}
    # A team's partner (partners' cribbage) is a player of the archive too, after its player.
    player_ids = [
        pk for row in entries for pk in (row["player_id"], row["partner_id"]) if pk is not None
    ]
    players = Player.objects.in_bulk(player_ids)
    player_ref = {pk: n for n, pk in enumerate(player_ids, start=1)}

    def ref(entry_id: int | None) -> int | None:
        return entry_ref[entry_id] if entry_id is not None else None

    rounds = list(Round.objects.filter(event=event).order_by("number"))
    tables = list(
        Table.objects.filter(round__event=event)
        .order_by("round__number", F("number").asc(nulls_last=True), "pk")
        .values("pk", "round_id", "number", "seat_a_id", "seat_b_id", "note")
    )
    table_ref = {row["pk"]: n for n, row in enumerate(tables, start=1)}
    results = {
        row["table_id"]: row
        for row in GameResult.objects.filter(table__round__event=event).values(
            "table_id",
            "kind",
            "winner_id",
            "loser_id",
            "loser_score",
            "winner_points",
            "loser_points",
            "margin",
            "skunk_level",
            "entered_by_id",
            "entered_at",
        )
    }
    by_round: dict[int, list[dict]] = {}
    for row in tables:
        result = results.get(row["pk"])
        by_round.setdefault(row["round_id"], []).append(
            {
                "ref": table_ref[row["pk"]],
                "number": row["number"],
                "a": ref(row["seat_a_id"]),
                "b": ref(row["seat_b_id"]),
                "note": row["note"],
                "result": None
                if result is None
                else {
                    "kind": result["kind"],
                    "winner": ref(result["winner_id"]),
                    "loser": ref(result["loser_id"]),
                    "loser_score": result["loser_score"],
                    "winner_points": result["winner_points"],
                    "loser_points": result["loser_points"],
                    "margin": result["margin"],
                    "skunk_level": result["skunk_level"],
                    "entered_by": _username(result["entered_by_id"], users),
                    "entered_at": _when(result["entered_at"]),
                },
            }
        )
    stoppa: dict[int, list[dict]] = {}
    seats: dict[int, list[dict]] = {}
    for seat in StoppaSeat.objects.filter(round__event=event).order_by("table_id", "position"):
        seats.setdefault(seat.table_id, []).append(
            {"entry": ref(seat.entry_id), "position": seat.position, "net": seat.net}
        )
    for st in StoppaTable.objects.filter(round__event=event).order_by(
        "round_id", F("number").asc(nulls_last=True)
    ):
        stoppa.setdefault(st.round_id, []).append(
            {
                "number": st.number,
                "note": st.note,
                "source": st.source,
                "deals": st.deals,
                "entered_by": _username(st.entered_by_id, users),
                "entered_at": _when(st.entered_at),
                "seats": seats.get(st.pk, []),
            }
        )
    games = [
        {
            "number": r.number,
            "seed": r.seed,
            "status": r.status,
            "method": r.method,
            "released_at": _when(r.released_at),
            "notes": r.notes,
            "tables": by_round.get(r.pk, []),
            "stoppa_tables": stoppa.get(r.pk, []),
            "clock": {
                "state": r.clock_state,
                "minutes": r.clock_minutes,
                "started_at": _when(r.clock_started_at),
                "ends_at": _when(r.clock_ends_at),
                "left": r.clock_left,
            },
        }
        for r in rounds
    ]
    submissions = list(Submission.objects.filter(event=event).order_by("created_at", "pk"))
    submission_ref = {s.pk: n for n, s in enumerate(submissions, start=1)}
    fmt = event.match_point_format
    final = snapshot_for_event(event.pk)
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "exported_at": _when(timezone.now()),
        "club": {"name": event.club.name, "slug": event.club.slug, "city": event.club.city},
        "match_point_format": {name: getattr(fmt, name) for name in FORMAT_FIELDS},
        "event": {
            name: _when(value) if isinstance(value, datetime.date) else value
            for name in EVENT_FIELDS
            for value in [getattr(event, name)]
        },
        "players": [
            {
                "ref": player_ref[pk],
                "name": players[pk].name,
                "acc_number": players[pk].acc_number,
                "status": players[pk].status,
            }
            for pk in player_ids
        ],
        "entries": [
            {
                "ref": entry_ref[row["pk"]],
                "player": player_ref[row["player_id"]],
                "checked_in": row["checked_in"],
                "checked_in_how": row["checked_in_how"],
                "withdrawn": row["withdrawn"],
            }
            # Only a team has the key: one-player archives read as they always did.
            | ({"partner": player_ref[row["partner_id"]]} if row["partner_id"] else {})
            for row in entries
        ],
        "forbidden_pairs": [
            {"a": ref(p.entry_a_id), "b": ref(p.entry_b_id), "reason": p.reason}
            for p in ForbiddenPair.objects.filter(event=event).order_by("pk")
        ],
        "registrations": export_registrations(event, ref),
        "games": games,
        "audit": [
            {
                "table": table_ref.get(a.table_id) if a.table_id else None,
                "actor": a.actor,
                "action": a.action,
                "old": a.old,
                "new": a.new,
                "reason": a.reason,
                "at": _when(a.at),
                "previous_digest": a.previous_digest,
                "digest": a.digest,
            }
            # The chain's order (tournaments.audit_chain), which the import keeps.
            for a in AuditEntry.objects.filter(event=event).order_by("pk")
        ],
        "audit_digest": event.audit_digest,
        "submissions": [
            {
                "ref": submission_ref[s.pk],
                "table": table_ref[s.table_id],
                "source": s.source,
                "by_entry": ref(s.by_entry_id),
                "by_user": _username(s.by_user_id, users),
                "winner": ref(s.winner_id),
                "loser_score": s.loser_score,
                "forfeit": s.forfeit,
                "record": s.record,
                "report": s.report,
                "status": s.status,
                "created_at": _when(s.created_at),
            }
            for s in submissions
        ],
        "disputes": [
            {
                "table": table_ref[d.table_id],
                "opened_at": _when(d.opened_at),
                "reason": d.reason,
                "ruling": submission_ref.get(d.ruling_id) if d.ruling_id else None,
                "ruled_by": _username(d.ruled_by_id, users),
                "ruled_at": _when(d.ruled_at),
                "note": d.note,
            }
            for d in Dispute.objects.filter(event=event).order_by("opened_at", "pk")
        ],
        "playoff": _export_bracket(event, ref, users),
        "special_hands": [
            {"entry": ref(h.entry_id), "points": h.points, "game": h.game_number, "note": h.note}
            for h in SpecialHand.objects.filter(event=event).order_by("pk")
        ],
        "master_points": [
            {"place": m.place, "points": str(m.points)}
            for m in MasterPoints.objects.filter(event=event).order_by("place")
        ],
        # The computed MRPs (issue 27), for readers: the import does not read them (they are
        # computed again from the rules by the TD's button or manage.py compute_mrp).
        "mrp_awards": [
            {
                "entry": ref(a.entry_id),
                "qualifying_rank": a.qualifying_rank,
                "game_points": a.game_points,
                "points": str(a.points),
                "basis": a.basis,
                "provisional": a.provisional,
                "rules_effective": a.rules_effective.isoformat(),
            }
            for a in MrpAward.objects.filter(event=event).order_by("qualifying_rank")
        ],
        "money": _export_money(event, ref),
        # What the standings were when exported: for people reading the file, and for the
        # import to tell whether it rebuilt the same table.
        "final_standings": None
        if final is None
        else {
            "after_game": final.after_game,
            # In final places (the playoff's first, once decided), each row with its place.
            "rows": [
                {
                    "entry": ref(row["entry_id"]),
                    "place": row["place"],
                    **{k: row[k] for k in STANDING_FIELDS},
                }
                for row in placed_standings(event.pk, final.after_game)[0].values(
                    "entry_id", "place", *STANDING_FIELDS
                )
            ],
        },
    }


def _export_money(event: Event, ref: Callable[[int | None], int | None]) -> dict[str, Any]:
    """The night's money (issue 27), for readers: the entry fee, the door, the side pools'
    stakes and winners, and the closed ledger. The import does not read it: the carried
    balances belong to the club's books where the night was played, and restoring them in
    another database would move that club's pots."""
    money = club_money(event.club)
    ledger = NightLedger.objects.filter(event=event).first()
    return {
        "currency": money.currency,
        "entry_fee": str(event_fees(event).entry_fee),
        "takings": str(takings(event)),
        "payments": [
            {
                "entry": ref(p.entry_id),
                "status": p.status,
                "amount": str(p.amount),
                "reason": p.reason,
            }
            for p in Payment.objects.filter(event=event).order_by("entry_id")
        ],
        "pools": [
            {
                "name": night.pool.name,
                "kind": night.pool.kind,
                "fee": str(night.fee),
                "stakes": [
                    {"entry": ref(stake.entry_id), "count": stake.count}
                    for stake in PoolEntry.objects.filter(event=event, pool=night.pool).order_by(
                        "entry_id"
                    )
                ],
                "winners": [
                    {"entry": ref(win.entry_id), "payout_percent": str(win.payout_percent)}
                    for win in PoolWin.objects.filter(event=event, pool=night.pool).order_by(
                        "order", "pk"
                    )
                ],
            }
            for night in EventPool.objects.filter(event=event).select_related("pool")
        ],
        "ledger": None
        if ledger is None
        else {
            "closed_at": _when(ledger.closed_at),
            "closed_by": ledger.closed_by,
            "takings": str(ledger.takings),
            "carried_in": str(ledger.carried_in),
            "payouts": str(ledger.payouts),
            "held_back": str(ledger.held_back),
            "carried_out": str(ledger.carried_out),
            "lines": [
                {
                    "pot": line.pot,
                    "item": line.item,
                    "amount": str(line.amount),
                    "entry": ref(line.entry_id) if line.entry_id else None,
                    "name": line.name,
                    "label": line.label,
                }
                for line in ledger.lines.order_by("order")
            ],
        },
    }


def _export_bracket(
    event: Event, ref: Callable[[int | None], int | None], users: dict[int, str]
) -> dict | None:
    bracket = Bracket.objects.filter(event=event).first()
    if bracket is None:
        return None
    games: dict[int, list[dict]] = {}
    for g in PlayoffGame.objects.filter(match__bracket=bracket).order_by("match_id", "number"):
        games.setdefault(g.match_id, []).append(
            {
                "number": g.number,
                "winner": ref(g.winner_id),
                "loser_score": g.loser_score,
                "forfeit": g.forfeit,
                "entered_by": _username(g.entered_by_id, users),
                "entered_at": _when(g.entered_at),
            }
        )
    return {
        "source": bracket.source,
        "seeds": [ref(pk) for pk in bracket.seeds],
        "entrants": bracket.entrants,
        "best_of": bracket.best_of,
        "side_best_of": bracket.side_best_of,
        "third_place": bracket.third_place,
        "consolation": bracket.consolation,
        "double_elimination": bracket.double_elimination,
        "seed": bracket.seed,
        "places": {str(ref(int(pk))): place for pk, place in (bracket.places or {}).items()},
        "cut_lots": [
            draw | {"entries": [item | {"entry": ref(item["entry"])} for item in draw["entries"]]}
            for draw in bracket.cut_lots or []
        ],
        "champion": ref(bracket.champion_id),
        "matches": [
            {
                **{name: getattr(m, name) for name in MATCH_FIELDS},
                "a": ref(m.seat_a_id),
                "b": ref(m.seat_b_id),
                "winner": ref(m.winner_id),
                "games": games.get(m.pk, []),
            }
            for m in PlayoffMatch.objects.filter(bracket=bracket).order_by("position")
        ],
    }
