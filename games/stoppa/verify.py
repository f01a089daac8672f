"""``verify_deal``: replay a documented deal record and check it claim by claim
(stoppa.md section 10.3). Bad records give a report naming the problem with its code, never a trace.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import Issue, StoppaError
from .game import GameSettlement, settle_game
from .settings import NO_BETS_RULES, NO_STOP_RULES
from .stop import DECLARATIONS

_CARDS: dict[str, Any] = {
    "description": "cards as one string ('Kc Jc 3c') or a list (['Kc', 'Jc', '3c'])",
    "oneOf": [
        {"type": "string"},
        {"type": "array", "items": {"type": "string"}},
    ],
}
_NAME: dict[str, Any] = {"type": "string", "minLength": 1}
_CHIPS: dict[str, Any] = {"type": "object", "additionalProperties": {"type": "integer"}}
_CONTEST: dict[str, Any] = {
    "type": "object",
    "properties": {
        "contributions": {
            "description": "chips each player put in (missing = never bet)",
            "type": "object",
            "additionalProperties": {"type": "integer", "minimum": 0},
        },
        "showdown": {"description": "players still in at the end", "type": "array", "items": _NAME},
        "winner": {"description": "claimed winner (checked)", **_NAME},
    },
    "additionalProperties": False,
}

#: JSON Schema (draft 2020-12) of one deal record; ``verify_deal`` checks the same rules and more.
RECORD_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://pegboard.example/schemas/stoppa-deal.json",
    "title": "Stoppa deal record",
    "type": "object",
    "required": ["players", "dealer", "deal", "piccoli", "grosso"],
    "properties": {
        "version": {"const": 1},
        "players": {
            "description": "seats in the direction of play (counter-clockwise)",
            "type": "array",
            "items": _NAME,
            "minItems": 3,
            "maxItems": 6,
            "uniqueItems": True,
        },
        "dealer": _NAME,
        "removed_king": {
            "description": "3 players only: the King out of play ('Kd' or 'd')",
            "type": ["string", "null"],
        },
        "settings": {
            "type": "object",
            "properties": {
                "ante": {"type": "integer", "minimum": 1},
                "piccolo_value": {"type": "integer", "minimum": 1},
                "stop_unit": {"type": ["integer", "null"], "minimum": 1},
                "cards_per_payment": {"enum": [2, 3]},
                "no_stop_rule": {"enum": list(NO_STOP_RULES)},
                "three_aces_free": {"type": "boolean"},
                "grosso_no_bets": {"enum": list(NO_BETS_RULES)},
            },
            "additionalProperties": False,
        },
        "deal": {
            "description": "the cards per iteration, or the deck order dealt one at a time",
            "oneOf": [
                {
                    "type": "object",
                    "required": ["iterations"],
                    "additionalProperties": False,
                    "properties": {
                        "iterations": {
                            "type": "array",
                            "minItems": 2,
                            "maxItems": 5,
                            "items": {"type": "object", "additionalProperties": _CARDS},
                        }
                    },
                },
                {
                    "type": "object",
                    "required": ["deck_order"],
                    "additionalProperties": False,
                    "properties": {"deck_order": _CARDS},
                },
            ],
        },
        "piccoli": {"type": "array", "items": _CONTEST, "minItems": 2, "maxItems": 5},
        "grosso": _CONTEST,
        "declarations": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["player", "kind"],
                "additionalProperties": False,
                "properties": {"player": _NAME, "kind": {"enum": list(DECLARATIONS)}},
            },
        },
        "stop": {
            "description": "absent or null when a declaration cancelled the stop phase",
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["log"],
                    "additionalProperties": False,
                    "properties": {
                        "log": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["player", "cards"],
                                "additionalProperties": False,
                                "properties": {"player": _NAME, "cards": _CARDS},
                            },
                        },
                        "closer": {"description": "claimed closer (checked)", **_NAME},
                        "payments": {"description": "claimed stop payments (checked)", **_CHIPS},
                    },
                },
                {
                    "type": "object",
                    "required": ["closer", "cards_left"],
                    "additionalProperties": False,
                    "properties": {
                        "closer": _NAME,
                        "cards_left": {
                            "type": "object",
                            "additionalProperties": {"type": "integer", "minimum": 0},
                        },
                        "payments": {"description": "claimed stop payments (checked)", **_CHIPS},
                    },
                },
            ],
        },
        "nets": {"description": "claimed net chips per player (checked)", **_CHIPS},
    },
    "additionalProperties": False,
}

_TOP_KEYS = frozenset(RECORD_SCHEMA["properties"])


@dataclass(frozen=True, slots=True)
class Check:
    """One claim compared: ``item`` is its place in the record."""

    item: str
    claimed: Any
    actual: Any
    ok: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"item": self.item, "claimed": self.claimed, "actual": self.actual, "ok": self.ok}


@dataclass(frozen=True, slots=True)
class DealReport:
    """The verdict on a deal record: ``ok`` when there is no error (warnings allowed).

    ``errors[0]`` is the first disagreeing item; ``settlement`` is the recomputed deal (None when
    the record could not be settled).
    """

    ok: bool
    errors: tuple[Issue, ...]
    warnings: tuple[Issue, ...]
    checks: tuple[Check, ...]
    settlement: GameSettlement | None

    @property
    def first_error(self) -> Issue | None:
        """The first problem found, or None."""
        return self.errors[0] if self.errors else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "ok": self.ok,
            "errors": [e.to_dict() for e in self.errors],
            "warnings": [w.to_dict() for w in self.warnings],
            "checks": [c.to_dict() for c in self.checks],
            "settlement": self.settlement.to_dict() if self.settlement is not None else None,
        }


MAX_RECORD_TEXT = 1_000_000  # one deal's record is a few kilobytes


def verify_deal(record: Mapping[str, Any] | str | bytes) -> DealReport:
    """Replay one deal record (a dict, or its JSON text) and check every claim in it: each
    contest's winner, the closer, the stop payments, the nets (and that claimed nets sum to 0).

    Never raises for a bad record: the report's ``errors`` name the problem, its code and where.
    """
    if isinstance(record, (str, bytes)) and len(record) > MAX_RECORD_TEXT:
        return _failed(
            Issue(
                "bad_record",
                f"the record is over {MAX_RECORD_TEXT} characters",
                params={"limit": MAX_RECORD_TEXT},
            )
        )
    try:
        data = json.loads(record) if isinstance(record, (str, bytes)) else record
    except (ValueError, RecursionError) as e:  # RecursionError: JSON nested too deep
        return _failed(
            Issue(
                "bad_record",
                f"the record is not valid JSON: {str(e)[:200]}",
                params={"error": str(e)[:200]},
            )
        )
    try:
        if not isinstance(data, Mapping):
            raise StoppaError("bad_record", "a deal record is a JSON object")
        unknown = sorted(set(data) - _TOP_KEYS)
        if unknown:
            raise StoppaError(
                "bad_record",
                f"unknown field(s): {', '.join(unknown)}",
                unknown[0],
                params={"fields": ", ".join(unknown)},
            )
        settled = settle_game(data)
    except StoppaError as e:
        return _failed(e.to_issue())
    except Exception as e:
        return _failed(
            Issue(
                "bad_record",
                f"the record could not be read ({type(e).__name__}: {e})",
                params={"error": f"{type(e).__name__}: {e}"},
            )
        )
    checks: list[Check] = []
    errors: list[Issue] = []

    def compare(
        item: str,
        claimed: Any,
        actual: Any,
        code: str,
        what: str,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        ok = claimed == actual
        checks.append(Check(item, claimed, actual, ok))
        if not ok:
            params = {**(extra or {}), "claimed": claimed, "actual": actual}
            message = f"{what}: claimed {claimed!r}, actually {actual!r}"
            errors.append(Issue(code, message, item, params))

    for i, contest in enumerate(data["piccoli"]):
        if "winner" in contest:
            r = settled.contests[i]
            compare(
                f"piccoli[{i}].winner",
                contest["winner"],
                r.winner,
                "winner_mismatch",
                f"punto piccolo {i + 1} winner ({_why(r.decided_by)})",
                {"contest": "piccolo", "iteration": i + 1, "decided_by": r.decided_by},
            )
    if "winner" in data["grosso"]:
        r = settled.grosso
        compare(
            "grosso.winner",
            data["grosso"]["winner"],
            r.winner,
            "winner_mismatch",
            f"punto grosso winner ({_why(r.decided_by)})",
            {"contest": "grosso", "decided_by": r.decided_by},
        )
    stop = data.get("stop")
    if isinstance(stop, Mapping):
        if "log" in stop and "closer" in stop:
            compare("stop.closer", stop["closer"], settled.closer, "closer_mismatch", "closer")
        claimed_pay = stop.get("payments")
        if isinstance(claimed_pay, Mapping):
            _compare_map(
                compare,
                "stop.payments",
                claimed_pay,
                settled.stop_payments,
                "payment_mismatch",
                "stop payment of",
            )
    claimed_nets = data.get("nets")
    if isinstance(claimed_nets, Mapping):
        total = sum(v for v in claimed_nets.values() if isinstance(v, int))
        if total != 0:
            errors.append(
                Issue(
                    "nets_not_zero",
                    f"the claimed nets sum to {total}, not 0",
                    "nets",
                    params={"total": total},
                )
            )
        _compare_map(compare, "nets", claimed_nets, settled.nets, "net_mismatch", "net of")
    return DealReport(not errors, tuple(errors), settled.warnings, tuple(checks), settled)


def _compare_map(
    compare: Any,
    item: str,
    claimed: Mapping[str, Any],
    actual: Mapping[str, int],
    code: str,
    what: str,
) -> None:
    for p in list(actual) + sorted(set(claimed) - set(actual)):
        if p in claimed or actual.get(p, 0) != 0:
            compare(
                f"{item}.{p}", claimed.get(p, 0), actual.get(p), code, f"{what} {p}", {"player": p}
            )


def _why(decided_by: str) -> str:
    return {
        "no_bets": "nobody bet: the dealer takes it",
        "uncontested": "only one player left",
        "count": "decided by most cards of one suit",
        "points": "decided by points",
        "priority": "decided by priority",
    }.get(decided_by, decided_by)


def _failed(issue: Issue) -> DealReport:
    return DealReport(False, (issue,), (), (), None)
