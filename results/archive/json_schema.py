"""The archive's declared JSON Schema (draft 2020-12): every object's keys, types, text
lengths, number ranges, choices and list sizes, checked in one pass by ``jsonschema``
(``validate.check_shape``). What a schema cannot say stays in Python: that a ref names an
object of the archive (and refs are unique), dates and times that are real moments, texts the
database can store (no lone surrogates) and the rules between fields.

Each leaf carries a ``title`` (``text``, ``int``, ``bool``, ``choice``, ``ref``, ``when``,
``date``, ``list``, ``object``) that ``validate`` turns into the message the importer has always
given for that kind of value. The choices are read from the models and the game-kind registry,
so the schema is built on first use (``archive_schema``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .schema import MAX_PLAYERS, SCHEMA, SMALL

BIG = 2**62  # seeds and refs
LIST = MAX_PLAYERS * 40  # the longest list an archive may hold


def _text(max_length: int, *, blank: bool = True) -> dict:
    if blank:  # missing or null reads as ""
        return {"title": "text", "type": ["string", "null"], "maxLength": max_length}
    return {"title": "text", "type": "string", "minLength": 1, "maxLength": max_length}


def _int(low: int = 0, high: int = 2**31 - 1, *, null: bool = False) -> dict:
    kind = ["integer", "null"] if null else "integer"
    return {"title": "int", "type": kind, "minimum": low, "maximum": high}


def _choice(values: list) -> dict:
    return {"title": "choice", "enum": list(values)}


def _ref(*, null: bool = False) -> dict:
    return {"title": "ref", "type": ["integer", "null"] if null else "integer"}


BOOL = {"title": "bool", "type": "boolean"}
WHEN = {"title": "when", "type": ["string", "null"]}
# A hex SHA-256 of the audit chain ("" before the first entry).
DIGEST = {"title": "digest", "type": ["string", "null"], "pattern": "^([0-9a-f]{64})?$"}


def _list(items: dict, limit: int = LIST) -> dict:
    return {"title": "list", "type": "array", "maxItems": limit, "items": items}


def _obj(properties: dict, required: tuple[str, ...] = (), **more: Any) -> dict:
    return {
        "title": "object",
        "type": "object",
        "required": list(required),
        "properties": properties,
        **more,
    }


def _nullable(schema: dict) -> dict:
    return {**schema, "type": [schema["type"], "null"]}


@cache
def archive_schema() -> dict:
    """The archive's JSON Schema (``pegboard.event-archive`` version 1), built once."""
    from django.conf import settings

    from results.models import Submission
    from tournaments import kinds
    from tournaments.models import (
        Bracket,
        Entry,
        Event,
        GameResult,
        Player,
        Round,
        StoppaTable,
    )

    from .schema import FORMAT_FIELDS

    points = {name: _int(high=1000) for name in FORMAT_FIELDS}
    points.update(code=_text(40, blank=False), name=_text(100, blank=False))
    points["triple_skunk_wins_match"] = BOOL
    match_point_format = _obj(
        points, tuple(n for n in FORMAT_FIELDS if n != "triple_skunk_wins_match")
    )
    event = _obj(
        {
            "name": _text(120, blank=False),
            "date": {"title": "date", "type": "string"},
            "game": _choice([k.key for k in kinds.all_kinds()]),
            "kind": _choice(Event.Kind.values),
            "games_planned": _int(1, 40),
            "target": _choice(Event.Target.values),
            "muggins": BOOL,
            "pairing": _choice(Event.Pairing.values),
            "meetings_per_opponent": _choice([1, 2]),
            "status": _choice(Event.Status.values),
            "seed": _int(-BIG, BIG),
            "standings_published": BOOL,
            "confirmation": _choice(Event.Confirmation.values),
            "entrants": _choice(Event.Entrants.values),
            "language": _choice(["", *(code for code, _name in settings.LANGUAGES)]),
            "seed_by_rating": BOOL,
            "qualifiers": _int(2, 4_096, null=True),
            "tiebreakers": {"title": "list", "type": ["array", "null"]},
            "table_size": _int(3, 6),
            "min_table_size": _int(3, 6),
            # Three-handed cribbage's place points (archives made before them have none).
            "points_first": _int(0, 20),
            "points_second": _int(0, 20),
            "points_third": _int(0, 20),
            "registration_open": BOOL,
            "cap": _int(2, 5000, null=True),
            "door_closed": BOOL,
        },
        (
            "name",
            "date",
            "game",
            "kind",
            "games_planned",
            "target",
            "pairing",
            "meetings_per_opponent",
            "status",
            "seed",
            "table_size",
            "min_table_size",
        ),
    )
    player = _obj(
        {
            "ref": _int(0, BIG),
            "name": _text(120, blank=False),
            "acc_number": _text(20),
            "status": _choice(Player.Status.values),
        },
        ("ref", "name"),
    )
    entry = _obj(
        {
            "ref": _int(0, BIG),
            "player": _ref(),
            "partner": _ref(null=True),
            "checked_in": BOOL,
            "checked_in_how": _choice(["", *Entry.CheckIn.values]),
            "withdrawn": BOOL,
        },
        ("ref", "player"),
    )
    # Online registrations (issue 28): the entry's ref while in, else the waiting place.
    registration = _obj(
        {
            "name": _text(120, blank=False),
            "acc_number": _text(20),
            "partner_name": _text(120),  # a team's (partners): "" or null for one player
            "partner_acc_number": _text(20),
            "entry": _ref(null=True),
            "email": _text(254),
            "phone": _text(30),
            "created_at": WHEN,
            "moved_up_at": WHEN,
            "left_at": WHEN,
            "waiting_position": _int(1, MAX_PLAYERS * 40, null=True),
        },
        ("name",),
    )
    forbidden_pair = _obj({"a": _ref(), "b": _ref(), "reason": _text(120)}, ("a", "b"))
    result = _obj(
        {
            "kind": _choice(GameResult.Kind.values),
            "winner": _ref(),
            "loser": _ref(null=True),
            "loser_score": _int(high=1000, null=True),
            "winner_points": _int(high=1000),
            "loser_points": _int(high=1000),
            "margin": _int(1, 1000),
            "skunk_level": _int(high=10),
            "entered_at": WHEN,
        },
        ("kind", "winner", "winner_points", "loser_points", "margin", "skunk_level"),
    )
    table = _obj(
        {
            "ref": _int(0, BIG),
            "number": _int(1, 10_000, null=True),
            "a": _ref(),
            "b": _ref(null=True),
            "note": _text(200),
            "result": _nullable(result),
        },
        ("ref", "a"),
    )
    seat = _obj(
        {
            "entry": _ref(),
            "position": _int(1, 6),
            "net": _int(-(10**6), 10**6, null=True),
        },
        ("entry", "position"),
    )
    stoppa_table = _obj(
        {
            "number": _int(1, 10_000, null=True),
            "note": _text(300),
            "source": _choice(StoppaTable.Source.values),
            "entered_at": WHEN,
            "seats": _list(seat, limit=6),
        }
    )
    game = _obj(
        {
            "number": _int(1, 40),
            "seed": _int(-BIG, BIG),
            "status": _choice(Round.Status.values),
            "method": _text(20),
            "released_at": WHEN,
            "tables": _list(table),
            "stoppa_tables": _list(stoppa_table),
            # The round clock (issue 28); left out by archives made before it.
            "clock": _obj(
                {
                    "state": _choice([v for v in Round.Clock.values if v != Round.Clock.TIME]),
                    "minutes": _int(1, 10_000, null=True),
                    "started_at": WHEN,
                    "ends_at": WHEN,
                    "left": _int(0, 10_000_000, null=True),
                },
                ("state",),
            ),
        },
        ("number", "seed", "status"),
    )
    submission = _obj(
        {
            "ref": _int(0, BIG),
            "table": _ref(),
            "source": _choice(Submission.Source.values),
            "by_entry": _ref(null=True),
            "winner": _ref(),
            "loser_score": _int(high=1000, null=True),
            "forfeit": BOOL,
            "status": _choice(Submission.Status.values),
            "created_at": WHEN,
        },
        ("ref", "table", "source", "winner", "status"),
    )
    audit = _obj(
        {
            "table": _ref(null=True),
            "actor": _text(150),
            "action": _text(40, blank=False),
            "reason": _text(300),
            "at": WHEN,
            # The entry's place in the event's hash chain as exported (tournaments.
            # audit_chain); an import chains the entries anew (the ids they cover are new).
            "previous_digest": DIGEST,
            "digest": DIGEST,
        },
        ("action",),
    )
    dispute = _obj(
        {
            "table": _ref(),
            "reason": _text(300),
            "ruling": _ref(null=True),
            "ruled_at": WHEN,
            "note": _text(300),
            "opened_at": WHEN,
        },
        ("table",),
    )
    match_fields: dict[str, dict] = {
        "code": _text(16, blank=False),
        "section": _text(20, blank=False),
        "winner_to": _text(16),
        "loser_to": _text(16),
        "seed_a": _int(high=SMALL, null=True),
        "seed_b": _int(high=SMALL, null=True),
        **{name: BOOL for name in ("empty_a", "empty_b", "decided", "walkover")},
        **{
            name: _int(high=SMALL)
            for name in ("position", "round", "number", "best_of", "wins_a", "wins_b")
        },
    }
    playoff_game = _obj(
        {
            "number": _int(1, 99),
            "winner": _ref(),
            "loser_score": _int(high=1000, null=True),
            "forfeit": BOOL,
            "entered_at": WHEN,
        },
        ("number", "winner"),
    )
    match = _obj(
        {
            **match_fields,
            "a": _ref(null=True),
            "b": _ref(null=True),
            "winner": _ref(null=True),
            "games": _list(playoff_game, limit=99),
        },
        ("code", "section", "position", "round", "number", "best_of", "wins_a", "wins_b"),
    )
    lot = _obj({"entry": _ref(), "lot": _int(1, MAX_PLAYERS), "qualified": BOOL}, ("entry", "lot"))
    cut_lot = _obj(
        {"rank": _int(1, MAX_PLAYERS), "straddles": BOOL, "entries": _list(lot)},
        ("rank", "entries"),
    )
    playoff = _obj(
        {
            "source": _choice(Bracket.Source.values),
            "seeds": _list(_ref(), limit=MAX_PLAYERS),
            "entrants": _int(high=MAX_PLAYERS),
            "best_of": {"title": "list", "type": "array", "items": _int(1, 99)},
            "side_best_of": _int(1, 99, null=True),
            "third_place": BOOL,
            "consolation": BOOL,
            "double_elimination": BOOL,
            "seed": _int(-BIG, BIG),
            "places": {
                "title": "object",
                "type": "object",
                "additionalProperties": _int(1, MAX_PLAYERS),  # keys: entry refs (Python)
            },
            "cut_lots": _list(cut_lot),
            "champion": _ref(null=True),
            "matches": _list(match),
        },
        ("source", "seeds", "entrants", "best_of", "seed"),
    )
    special_hand = _obj(
        {
            "entry": _ref(),
            "points": _choice([28, 29]),
            "game": _int(1, 40, null=True),
            "note": _text(200),
        },
        ("entry", "points"),
    )
    master_points = _obj({"place": _int(1, MAX_PLAYERS)}, ("place",))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://pegboard.invalid/schemas/event-archive-1.json",
        **_obj(
            {
                "schema": {"title": "choice", "const": SCHEMA},
                "version": {"title": "choice", "const": 1},
                "club": _obj(
                    {
                        "name": _text(120, blank=False),
                        "slug": _text(60, blank=False),
                        "city": _text(120),
                    },
                    ("name", "slug"),
                ),
                "match_point_format": match_point_format,
                "event": event,
                "players": _list(player, limit=MAX_PLAYERS),
                "entries": _list(entry, limit=MAX_PLAYERS),
                "forbidden_pairs": _list(forbidden_pair),
                "registrations": _list(registration, limit=MAX_PLAYERS * 40),
                "games": _list(game, limit=40),
                "submissions": _list(submission),
                "audit": _list(audit),
                # The final digest of the audit log (its chain's head) when it was exported.
                "audit_digest": DIGEST,
                "disputes": _list(dispute),
                "playoff": _nullable(playoff),
                "special_hands": _list(special_hand),
                "master_points": _list(master_points),
            },
            ("schema", "version", "match_point_format", "event", "players", "entries", "games"),
        ),
    }
