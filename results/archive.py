"""The event archive: one JSON document with everything an event is (its club, players, settings,
every game's seating, every result with its audit trail, the reports and disputes, the playoff
and the final places), and the import that rebuilds the event from it in another Pegboard.

Schema ``pegboard.event-archive``, version 1, documented in ``docs/archive-schema.md``.
Objects inside the archive refer to each other by small numbers of their own (``ref``), never
by database ids, so an archive imports into a database whose ids are all different. Users are
not carried over (their names are kept in the audit trail as written); private player keys are
never exported.

The results app holds this module because it is the top layer: an archive reads every app
below it (the tournaments' results and audit, the scoring's hands and awards, and this app's
reports and disputes).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.db import DataError, IntegrityError, transaction
from django.db.models import F, Model
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _

from pegboard.errors import ServiceError
from scoring.models import MasterPoints, SpecialHand
from scoring.selectors import placed_standings, snapshot_for_event
from tournaments import kinds
from tournaments.models import (
    AuditEntry,
    Bracket,
    Club,
    Entry,
    Event,
    ForbiddenPair,
    GameResult,
    MatchPointFormat,
    Player,
    PlayoffGame,
    PlayoffMatch,
    Round,
    StoppaSeat,
    StoppaTable,
    Table,
)

from .models import Dispute, Submission

SCHEMA = "pegboard.event-archive"
VERSION = 1
MAX_ARCHIVE_BYTES = settings.ARCHIVE_MAX_BYTES  # the page, the command and the middleware
MAX_PLAYERS = 50_000  # an archive larger than any event a club runs is refused, not read
BATCH = 2_000
SMALL = 32_767  # the largest value of a small-integer column

FORMAT_FIELDS = (
    "code",
    "name",
    "win",
    "skunk",
    "double_skunk",
    "triple_skunk",
    "triple_skunk_wins_match",
    "forfeit_points",
    "forfeit_spread",
    "bye_points",
    "bye_spread",
)
EVENT_FIELDS = (
    "name",
    "date",
    "game",
    "kind",
    "games_planned",
    "target",
    "muggins",
    "pairing",
    "meetings_per_opponent",
    "status",
    "seed",
    "standings_published",
    "confirmation",
    "entrants",
    "language",
    "seed_by_rating",
    "qualifiers",
    "tiebreakers",
    "table_size",
    "min_table_size",
)
MATCH_FIELDS = (
    "code",
    "position",
    "section",
    "round",
    "number",
    "best_of",
    "seed_a",
    "seed_b",
    "empty_a",
    "empty_b",
    "wins_a",
    "wins_b",
    "decided",
    "walkover",
    "winner_to",
    "loser_to",
)
STANDING_FIELDS = (
    "rank",
    "tied",
    "separated_by",
    "game_points",
    "games_played",
    "games_won",
    "games_lost",
    "spread",
    "skunks_won",
    "skunks_suffered",
    "byes",
    "chips",
    "sessions_won",
    "best_session",
)


def _when(value: datetime.datetime | datetime.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _username(user_id: int | None, names: dict[int, str]) -> str:
    return names.get(user_id, "") if user_id is not None else ""


# --- Export ----------------------------------------------------------------------------------


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
        .values("pk", "player_id", "checked_in", "withdrawn")
    )
    entry_ref = {row["pk"]: n for n, row in enumerate(entries, start=1)}
    player_ids = [row["player_id"] for row in entries]
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
                "withdrawn": row["withdrawn"],
            }
            for row in entries
        ],
        "forbidden_pairs": [
            {"a": ref(p.entry_a_id), "b": ref(p.entry_b_id), "reason": p.reason}
            for p in ForbiddenPair.objects.filter(event=event).order_by("pk")
        ],
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
            }
            for a in AuditEntry.objects.filter(event=event).order_by("at", "pk")
        ],
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


# --- Validation ------------------------------------------------------------------------------


def parse_archive(raw: bytes | str) -> Any:
    """The archive file's JSON, or a ServiceError (``bad_archive``) saying why it is not one.

    One parser for the page and the command. JSON nested thousands deep makes Python's parser
    raise RecursionError, not ValueError; no real archive nests more than a few levels.
    """
    if len(raw) > MAX_ARCHIVE_BYTES:
        raise ServiceError(
            "archive_too_large",
            _("The file is over %(mb)s MB, the limit for an event archive.")
            % {"mb": MAX_ARCHIVE_BYTES // (1024 * 1024)},
            field="archive",
        )
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw.removeprefix("\ufeff")
        return json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ServiceError(
            "bad_archive", _("The file is not JSON (UTF-8)."), field="archive"
        ) from None


class _Check:
    """Reads one archive value after another, raising a ServiceError that names the place
    (``games[3].tables[7].result.winner``) of the first value that is wrong."""

    def bad(self, path: str, what: str) -> ServiceError:
        return ServiceError(
            "bad_archive",
            _("This is not a valid event archive: %(path)s %(what)s.")
            % {"path": path, "what": what},
            field="archive",
        )

    def obj(self, value: Any, path: str) -> dict:
        if not isinstance(value, dict):
            raise self.bad(path, _("should be an object"))
        return value

    def items(self, value: Any, path: str, *, limit: int = MAX_PLAYERS * 40) -> list:
        if not isinstance(value, list):
            raise self.bad(path, _("should be a list"))
        if len(value) > limit:
            raise self.bad(path, _("has too many items"))
        return value

    def text(self, parent: dict, key: str, path: str, *, max_length: int, blank=True) -> str:
        value = parent.get(key, "")
        if value is None:
            value = ""
        if not isinstance(value, str) or len(value) > max_length or (not blank and not value):
            raise self.bad(
                f"{path}.{key}",
                _("should be a text of at most %(n)s characters") % {"n": max_length},
            )
        if not _encodable(value):
            # "\ud800" is valid JSON but no character: the database cannot store it.
            raise self.bad(f"{path}.{key}", _("holds a character that is not valid Unicode"))
        return value

    def int(self, parent: dict, key: str, path: str, *, low=0, high=2**31 - 1, null=False):
        value = parent.get(key)
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.bad(
                f"{path}.{key}",
                _("should be a whole number from %(low)s to %(high)s") % {"low": low, "high": high},
            )
        return value

    def bool(self, parent: dict, key: str, path: str, default: bool = False) -> bool:
        value = parent.get(key, default)
        if not isinstance(value, bool):
            raise self.bad(f"{path}.{key}", _("should be true or false"))
        return value

    def choice(self, parent: dict, key: str, path: str, choices: Iterable[Any], default=None):
        value = parent.get(key, default)
        if isinstance(value, bool) or value not in list(choices):
            raise self.bad(f"{path}.{key}", _("is not one of the known values"))
        return value

    def when(self, parent: dict, key: str, path: str, *, null=True):
        value = parent.get(key)
        if value is None and null:
            return None
        try:
            parsed = parse_datetime(value) if isinstance(value, str) else None
        except ValueError:  # well formed, but no such moment (month 13)
            parsed = None
        if parsed is None:
            raise self.bad(f"{path}.{key}", _("should be a date and time (ISO 8601)"))
        return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed)

    def new_ref(self, row: dict, path: str) -> Any:
        """An object's own ``ref``: a whole number (unique among its kind, checked by the
        caller)."""
        return self.int(row, "ref", path, high=2**62)

    def ref(self, parent: dict, key: str, path: str, refs: dict, *, null=False):
        value = parent.get(key)
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int | str) or value not in refs:
            raise self.bad(f"{path}.{key}", _("does not name one of the archive's entries"))
        return refs[value]


# --- Import ----------------------------------------------------------------------------------


def _encodable(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _keep_times(model: type[Model], objs: list, field: str, times: list) -> None:
    """Put back the archive's timestamps that ``auto_now``/``auto_now_add`` replaced on
    insert (``bulk_update`` writes the values as given)."""
    for obj, when in zip(objs, times, strict=True):
        if when is not None:
            setattr(obj, field, when)
    keep = [obj for obj, when in zip(objs, times, strict=True) if when is not None]
    if keep:
        model._default_manager.bulk_update(keep, [field], batch_size=BATCH)


def _match_format(data: dict, club: Club, check: _Check) -> MatchPointFormat:
    """The format the archive's event was scored with: the one with its code when its points
    are the same, else a club format with those points (created if there is none)."""
    path = "match_point_format"
    values = {
        name: (
            check.bool(data, name, path)
            if name == "triple_skunk_wins_match"
            else check.text(data, name, path, max_length=100 if name == "name" else 40, blank=False)
            if name in ("code", "name")
            else check.int(data, name, path, high=1000)
        )
        for name in FORMAT_FIELDS
    }
    points = {k: v for k, v in values.items() if k not in ("code", "name")}
    same = MatchPointFormat.objects.filter(code=values["code"], **points).first()
    if same is None:
        same = MatchPointFormat.objects.filter(club=club, **points).order_by("pk").first()
    if same is None:
        code = str(values["code"])[:30]
        n = 1
        while MatchPointFormat.objects.filter(code=f"{code}-{n}").exists():
            n += 1
        same = MatchPointFormat.objects.create(
            code=f"{code}-{n}", name=values["name"], club=club, **points
        )
    return same


def _target_club(data: dict, club: Club | None, check: _Check) -> Club:
    if club is not None:
        return club
    info = check.obj(data.get("club"), "club")
    name = check.text(info, "name", "club", max_length=120, blank=False)
    slug = check.text(info, "slug", "club", max_length=60, blank=False)
    # get_or_create: two imports of one club's archive at once make one club, not a clash.
    found, _created = Club.objects.get_or_create(
        slug=slug, defaults={"name": name, "city": check.text(info, "city", "club", max_length=120)}
    )
    return found


def _players(data: dict, club: Club, check: _Check) -> dict[int, Player]:
    """The archive's players as players of this Pegboard: the one with the same ACC number
    (a member number is one person everywhere), else the club's player of that name, else a
    new player of the club. Two archived players never become one."""
    rows = check.items(data.get("players"), "players", limit=MAX_PLAYERS)
    wanted = []
    for i, row in enumerate(rows):
        path = f"players[{i}]"
        check.obj(row, path)
        wanted.append(
            (
                check.new_ref(row, path),
                check.text(row, "name", path, max_length=120, blank=False),
                check.text(row, "acc_number", path, max_length=20),
                check.choice(row, "status", path, Player.Status.values, Player.Status.MEMBER),
            )
        )
    refs = [r for r, *_rest in wanted]
    if len(set(map(repr, refs))) != len(refs):
        raise check.bad("players", _("has two players with the same ref"))
    from tournaments.selectors import club_players

    by_acc = {
        p.acc_number: p
        for p in Player.objects.filter(acc_number__in=[acc for _r, _n, acc, _s in wanted if acc])
    }
    by_name: dict[str, list[Player]] = {}
    for p in club_players(club).filter(name__in=[n for _r, n, _a, _s in wanted]):
        by_name.setdefault(p.name, []).append(p)
    used: set[int] = set()
    found: dict[Any, Player] = {}
    new: list[tuple[Any, Player]] = []
    for ref, name, acc, status in wanted:
        player = by_acc.get(acc) if acc else None
        if player is None:
            player = next(
                (
                    p
                    for p in by_name.get(name, [])
                    if p.pk not in used and (not acc or not p.acc_number)
                ),
                None,
            )
        if player is not None and player.pk not in used:
            used.add(player.pk)
            found[ref] = player
        else:
            new.append(
                (
                    ref,
                    Player(
                        name=name,
                        acc_number=acc if acc not in by_acc else "",
                        home_club=club,
                        status=status,
                    ),
                )
            )
    try:
        with transaction.atomic():
            created = Player.objects.bulk_create([p for _r, p in new], batch_size=BATCH)
    except IntegrityError:
        raise check.bad("players", _("gives two players one ACC number")) from None
    for (ref, _p), player in zip(new, created, strict=True):
        found[ref] = player
    return found


def import_event(data: Any, club: Club | None = None) -> Event:
    """Rebuild an archived event (``export_event``'s dict) in ``club`` (by default the
    archive's club, found by its slug or created), in one transaction; returns the new event
    with its standings recomputed. Players are matched by ACC number, then by name within the
    club, and created otherwise. A bad archive is a ServiceError naming the first wrong value;
    nothing is written then.

    Imports into one club take turns (a lock on the club's row): two imports of one archive
    at once would otherwise both find a player missing and both create them.
    """
    try:
        with transaction.atomic():
            return _import(data, club)
    except UnicodeEncodeError:
        # Text the checks do not read one by one (the audit's details) may still hold a lone
        # surrogate; the database refuses it and nothing is written.
        raise ServiceError(
            "bad_archive",
            _("This is not a valid event archive: it holds a character that is not valid Unicode."),
            field="archive",
        ) from None
    except (IntegrityError, DataError):
        # The checks before each insert name the usual faults; this is the net under them.
        raise ServiceError(
            "bad_archive",
            _("This is not a valid event archive: its values break the database's rules."),
            field="archive",
        ) from None


def _import(data: Any, club: Club | None) -> Event:
    check = _Check()
    data = check.obj(data, "archive")
    if data.get("schema") != SCHEMA:
        raise check.bad("schema", _("should be %(schema)s") % {"schema": SCHEMA})
    if data.get("version") != VERSION:
        raise ServiceError(
            "archive_version",
            _("This archive is version %(found)s; this Pegboard reads version %(version)s.")
            % {"found": data.get("version"), "version": VERSION},
            field="archive",
        )
    club = _target_club(data, club, check)
    # Imports into one club take turns: both would find a player missing and both create them.
    Club.objects.select_for_update().filter(pk=club.pk).first()
    fmt = _match_format(
        check.obj(data.get("match_point_format"), "match_point_format"), club, check
    )
    event = _import_settings(check.obj(data.get("event"), "event"), club, fmt, check)
    players = _players(data, club, check)

    entry_rows = check.items(data.get("entries"), "entries", limit=MAX_PLAYERS)
    entries_new = []
    refs = []
    for i, row in enumerate(entry_rows):
        path = f"entries[{i}]"
        check.obj(row, path)
        player = check.ref(row, "player", path, players)
        entries_new.append(
            Entry(
                event=event,
                player=player,
                checked_in=check.bool(row, "checked_in", path),
                withdrawn=check.bool(row, "withdrawn", path),
            )
        )
        refs.append(check.new_ref(row, path))
    if len(set(map(repr, refs))) != len(refs):
        raise check.bad("entries", _("has two entries with the same ref"))
    try:
        with transaction.atomic():
            created = Entry.objects.bulk_create(entries_new, batch_size=BATCH)
    except IntegrityError:
        raise check.bad("entries", _("enter one player twice")) from None
    entries: dict[Any, Entry] = dict(zip(refs, created, strict=True))
    ids = {ref: e.pk for ref, e in entries.items()}

    for i, row in enumerate(check.items(data.get("forbidden_pairs", []), "forbidden_pairs")):
        path = f"forbidden_pairs[{i}]"
        check.obj(row, path)
        a, b = sorted((check.ref(row, "a", path, ids), check.ref(row, "b", path, ids)))
        ForbiddenPair.objects.get_or_create(
            event=event,
            entry_a_id=a,
            entry_b_id=b,
            defaults={"reason": check.text(row, "reason", path, max_length=120)},
        )

    tables = _import_games(data, event, ids, check)
    submissions = _import_reports(data, event, ids, tables, check)
    _import_audit(data, event, tables, check)
    _import_disputes(data, event, tables, submissions, check)
    _import_bracket(data.get("playoff"), event, ids, check)
    _import_scoring(data, event, ids, check)

    # The standings are computed here, from the imported results: never copied from the file.
    from scoring.services import recompute_standings

    recompute_standings(event.pk)
    return event


def _import_settings(data: dict, club: Club, fmt: MatchPointFormat, check: _Check) -> Event:
    path = "event"
    game = check.choice(data, "game", path, [k.key for k in kinds.all_kinds()])
    try:
        date = parse_date(data["date"]) if isinstance(data.get("date"), str) else None
    except ValueError:  # well formed, but no such day
        date = None
    if date is None:
        raise check.bad("event.date", _("should be a date (YYYY-MM-DD)"))
    chain = data.get("tiebreakers") or []
    try:
        chain = list(kinds.get(game).validate_chain(chain)) if chain else []
    except (TypeError, ValueError):
        raise check.bad("event.tiebreakers", _("is not a ranking chain of this game")) from None
    return Event.objects.create(
        club=club,
        name=check.text(data, "name", path, max_length=120, blank=False),
        date=date,
        game=game,
        kind=check.choice(data, "kind", path, Event.Kind.values),
        games_planned=check.int(data, "games_planned", path, low=1, high=40),
        target=check.choice(data, "target", path, Event.Target.values),
        match_point_format=fmt,
        muggins=check.bool(data, "muggins", path),
        pairing=check.choice(data, "pairing", path, Event.Pairing.values),
        meetings_per_opponent=check.choice(data, "meetings_per_opponent", path, [1, 2]),
        status=check.choice(data, "status", path, Event.Status.values),
        seed=check.int(data, "seed", path, low=-(2**62), high=2**62),
        standings_published=check.bool(data, "standings_published", path, True),
        confirmation=check.choice(
            data, "confirmation", path, Event.Confirmation.values, Event.Confirmation.OWN_KEYS
        ),
        entrants=check.choice(data, "entrants", path, Event.Entrants.values, Event.Entrants.PLAYED),
        language=check.choice(
            data, "language", path, ["", *(code for code, _name in settings.LANGUAGES)], ""
        ),
        seed_by_rating=check.bool(data, "seed_by_rating", path, False),
        qualifiers=check.int(data, "qualifiers", path, low=2, high=4_096, null=True),
        tiebreakers=chain,
        table_size=check.int(data, "table_size", path, low=3, high=6),
        min_table_size=check.int(data, "min_table_size", path, low=3, high=6),
    )


def _import_games(data: dict, event: Event, ids: dict, check: _Check) -> dict[Any, Table]:
    """Every game's tables and results (two-player tables) or Stoppa tables and nets."""
    games = check.items(data.get("games"), "games", limit=40)
    rounds = []
    for i, game in enumerate(games):
        path = f"games[{i}]"
        check.obj(game, path)
        rounds.append(
            Round(
                event=event,
                number=check.int(game, "number", path, low=1, high=40),
                seed=check.int(game, "seed", path, low=-(2**62), high=2**62),
                status=check.choice(game, "status", path, Round.Status.values),
                method=check.text(game, "method", path, max_length=20),
                released_at=check.when(game, "released_at", path),
                notes=game.get("notes") if isinstance(game.get("notes"), list) else [],
            )
        )
    if len({r.number for r in rounds}) != len(rounds):
        raise check.bad("games", _("has two games with the same number"))
    Round.objects.bulk_create(rounds)
    tables: list[Table] = []
    table_refs: list[Any] = []
    results: list[tuple[int, dict, str]] = []
    stoppa: list[tuple[Round, dict, str]] = []
    for i, (game, round_) in enumerate(zip(games, rounds, strict=True)):
        for j, row in enumerate(check.items(game.get("tables", []), f"games[{i}].tables")):
            path = f"games[{i}].tables[{j}]"
            check.obj(row, path)
            b = check.ref(row, "b", path, ids, null=True)
            number = check.int(row, "number", path, low=1, high=10_000, null=True)
            if (b is None) != (number is None):
                raise check.bad(path, _("should have a number exactly when it has two players"))
            tables.append(
                Table(
                    round=round_,
                    number=number,
                    seat_a_id=check.ref(row, "a", path, ids),
                    seat_b_id=b,
                    note=check.text(row, "note", path, max_length=200),
                )
            )
            table_refs.append(check.new_ref(row, path))
            if row.get("result") is not None:
                results.append((len(tables) - 1, check.obj(row["result"], f"{path}.result"), path))
        for j, row in enumerate(
            check.items(game.get("stoppa_tables", []), f"games[{i}].stoppa_tables")
        ):
            stoppa.append(
                (
                    round_,
                    check.obj(row, f"games[{i}].stoppa_tables[{j}]"),
                    f"games[{i}].stoppa_tables[{j}]",
                )
            )
    try:
        with transaction.atomic():
            Table.objects.bulk_create(tables, batch_size=BATCH)
    except IntegrityError:
        raise check.bad(
            "games", _("seat a player twice in one game, or number two tables alike")
        ) from None
    game_results, times = [], []
    for index, row, path in results:
        path = f"{path}.result"
        table = tables[index]
        game_results.append(
            GameResult(
                table=table,
                kind=check.choice(row, "kind", path, GameResult.Kind.values),
                winner_id=check.ref(row, "winner", path, ids),
                loser_id=check.ref(row, "loser", path, ids, null=True),
                loser_score=check.int(row, "loser_score", path, high=1000, null=True),
                winner_points=check.int(row, "winner_points", path, high=1000),
                loser_points=check.int(row, "loser_points", path, high=1000),
                margin=check.int(row, "margin", path, low=1, high=1000),
                skunk_level=check.int(row, "skunk_level", path, high=10),
            )
        )
        seated = {table.seat_a_id, table.seat_b_id}
        if not {game_results[-1].winner_id, game_results[-1].loser_id} <= seated | {None}:
            raise check.bad(path, _("names a player who is not at this table"))
        times.append(check.when(row, "entered_at", path))
    try:
        with transaction.atomic():
            GameResult.objects.bulk_create(game_results, batch_size=BATCH)
    except IntegrityError:
        raise check.bad("games", _("has a result that breaks the rules of results")) from None
    _keep_times(GameResult, game_results, "entered_at", times)
    _import_stoppa(stoppa, ids, check)
    return dict(zip(table_refs, tables, strict=True))


def _import_stoppa(stoppa: list[tuple[Round, dict, str]], ids: dict, check: _Check) -> None:
    if not stoppa:
        return
    made = StoppaTable.objects.bulk_create(
        [
            StoppaTable(
                round=round_,
                number=check.int(row, "number", path, low=1, high=10_000, null=True),
                note=check.text(row, "note", path, max_length=300),
                source=check.choice(row, "source", path, StoppaTable.Source.values, ""),
                deals=row.get("deals") if isinstance(row.get("deals"), list) else [],
                entered_at=check.when(row, "entered_at", path),
            )
            for round_, row, path in stoppa
        ]
    )
    seats = []
    for (round_, row, path), table in zip(stoppa, made, strict=True):
        for k, seat in enumerate(check.items(row.get("seats", []), f"{path}.seats", limit=6)):
            spath = f"{path}.seats[{k}]"
            check.obj(seat, spath)
            seats.append(
                StoppaSeat(
                    table=table,
                    round=round_,
                    entry_id=check.ref(seat, "entry", spath, ids),
                    position=check.int(seat, "position", spath, low=1, high=6),
                    net=check.int(seat, "net", spath, low=-(10**6), high=10**6, null=True),
                )
            )
    try:
        with transaction.atomic():
            StoppaSeat.objects.bulk_create(seats, batch_size=BATCH)
    except IntegrityError:
        raise check.bad("games", _("seat a player twice in one session")) from None


def _import_reports(
    data: dict, event: Event, ids: dict, tables: dict, check: _Check
) -> dict[Any, Submission]:
    rows = check.items(data.get("submissions", []), "submissions")
    made, refs, times = [], [], []
    for i, row in enumerate(rows):
        path = f"submissions[{i}]"
        check.obj(row, path)
        made.append(
            Submission(
                event=event,
                table=check.ref(row, "table", path, tables),
                source=check.choice(row, "source", path, Submission.Source.values),
                by_entry_id=check.ref(row, "by_entry", path, ids, null=True),
                winner_id=check.ref(row, "winner", path, ids),
                loser_score=check.int(row, "loser_score", path, high=1000, null=True),
                forfeit=check.bool(row, "forfeit", path),
                record=row.get("record"),
                report=row.get("report"),
                status=check.choice(row, "status", path, Submission.Status.values),
            )
        )
        refs.append(check.new_ref(row, path))
        times.append(check.when(row, "created_at", path))
    try:
        with transaction.atomic():
            Submission.objects.bulk_create(made, batch_size=BATCH)
    except IntegrityError:
        raise check.bad("submissions", _("confirm two versions of one table")) from None
    _keep_times(Submission, made, "created_at", times)
    return dict(zip(refs, made, strict=True))


def _import_audit(data: dict, event: Event, tables: dict, check: _Check) -> None:
    made, times = [], []
    for i, row in enumerate(check.items(data.get("audit", []), "audit")):
        path = f"audit[{i}]"
        check.obj(row, path)
        made.append(
            AuditEntry(
                event=event,
                table=check.ref(row, "table", path, tables, null=True),
                actor=check.text(row, "actor", path, max_length=150),
                action=check.text(row, "action", path, max_length=40, blank=False),
                old=row.get("old"),
                new=row.get("new"),
                reason=check.text(row, "reason", path, max_length=300),
            )
        )
        times.append(check.when(row, "at", path))
    AuditEntry.objects.bulk_create(made, batch_size=BATCH)
    _keep_times(AuditEntry, made, "at", times)


def _import_disputes(
    data: dict, event: Event, tables: dict, submissions: dict, check: _Check
) -> None:
    made, times = [], []
    for i, row in enumerate(check.items(data.get("disputes", []), "disputes")):
        path = f"disputes[{i}]"
        check.obj(row, path)
        made.append(
            Dispute(
                event=event,
                table=check.ref(row, "table", path, tables),
                reason=check.text(row, "reason", path, max_length=300),
                ruling=check.ref(row, "ruling", path, submissions, null=True),
                ruled_at=check.when(row, "ruled_at", path),
                note=check.text(row, "note", path, max_length=300),
            )
        )
        times.append(check.when(row, "opened_at", path))
    try:
        with transaction.atomic():
            Dispute.objects.bulk_create(made)
    except IntegrityError:
        raise check.bad("disputes", _("open two disputes on one table")) from None
    _keep_times(Dispute, made, "opened_at", times)


def _import_bracket(data: Any, event: Event, ids: dict, check: _Check) -> None:
    if data is None:
        return
    path = "playoff"
    check.obj(data, path)
    seeds = [
        check.ref({"seed": s}, "seed", f"{path}.seeds[{i}]", ids)
        for i, s in enumerate(check.items(data.get("seeds"), f"{path}.seeds", limit=MAX_PLAYERS))
    ]
    places = {}
    for key, place in check.obj(data.get("places", {}), f"{path}.places").items():
        key = str(key)
        entry = ids.get(int(key)) if key.isascii() and key.isdigit() else None
        if entry is None or isinstance(place, bool) or not isinstance(place, int):
            raise check.bad(f"{path}.places", _("names an entry the archive does not have"))
        places[str(entry)] = place
    best_of = data.get("best_of")
    if not isinstance(best_of, list) or not all(isinstance(n, int) for n in best_of):
        raise check.bad(f"{path}.best_of", _("should be a list of whole numbers"))
    cut_lots = []
    for i, draw in enumerate(check.items(data.get("cut_lots", []), f"{path}.cut_lots")):
        dpath = f"{path}.cut_lots[{i}]"
        check.obj(draw, dpath)
        entries = []
        for j, item in enumerate(check.items(draw.get("entries"), f"{dpath}.entries")):
            ipath = f"{dpath}.entries[{j}]"
            check.obj(item, ipath)
            entries.append(
                {
                    "entry": check.ref(item, "entry", ipath, ids),
                    "lot": check.int(item, "lot", ipath, low=1, high=MAX_PLAYERS),
                    "qualified": check.bool(item, "qualified", ipath),
                }
            )
        cut_lots.append(
            {
                "rank": check.int(draw, "rank", dpath, low=1, high=MAX_PLAYERS),
                "straddles": check.bool(draw, "straddles", dpath),
                "entries": entries,
            }
        )
    bracket = Bracket.objects.create(
        event=event,
        source=check.choice(data, "source", path, Bracket.Source.values),
        seeds=seeds,
        entrants=check.int(data, "entrants", path, high=MAX_PLAYERS),
        best_of=best_of,
        side_best_of=check.int(data, "side_best_of", path, low=1, high=99, null=True),
        third_place=check.bool(data, "third_place", path),
        consolation=check.bool(data, "consolation", path),
        double_elimination=check.bool(data, "double_elimination", path),
        seed=check.int(data, "seed", path, low=-(2**62), high=2**62),
        places=places,
        cut_lots=cut_lots,
        champion_id=check.ref(data, "champion", path, ids, null=True),
    )
    matches, game_rows = [], []
    for i, row in enumerate(check.items(data.get("matches", []), f"{path}.matches")):
        mpath = f"{path}.matches[{i}]"
        check.obj(row, mpath)
        values: dict[str, Any] = {}
        for name in MATCH_FIELDS:
            if name in ("code", "section", "winner_to", "loser_to"):
                values[name] = check.text(
                    row,
                    name,
                    mpath,
                    max_length=20 if name == "section" else 16,
                    blank=name in ("winner_to", "loser_to"),
                )
            elif name in ("empty_a", "empty_b", "decided", "walkover"):
                values[name] = check.bool(row, name, mpath)
            else:
                values[name] = check.int(
                    row, name, mpath, high=SMALL, null=name.startswith("seed_")
                )
        matches.append(
            PlayoffMatch(
                bracket=bracket,
                seat_a_id=check.ref(row, "a", mpath, ids, null=True),
                seat_b_id=check.ref(row, "b", mpath, ids, null=True),
                winner_id=check.ref(row, "winner", mpath, ids, null=True),
                **values,
            )
        )
        game_rows.append((row.get("games", []), mpath))
    try:
        with transaction.atomic():
            PlayoffMatch.objects.bulk_create(matches)
    except IntegrityError:
        raise check.bad(f"{path}.matches", _("has two matches with the same code")) from None
    games, times = [], []
    for match, (rows, mpath) in zip(matches, game_rows, strict=True):
        for k, row in enumerate(check.items(rows, f"{mpath}.games", limit=99)):
            gpath = f"{mpath}.games[{k}]"
            check.obj(row, gpath)
            games.append(
                PlayoffGame(
                    match=match,
                    number=check.int(row, "number", gpath, low=1, high=99),
                    winner_id=check.ref(row, "winner", gpath, ids),
                    loser_score=check.int(row, "loser_score", gpath, high=1000, null=True),
                    forfeit=check.bool(row, "forfeit", gpath),
                )
            )
            times.append(check.when(row, "entered_at", gpath))
    try:
        with transaction.atomic():
            PlayoffGame.objects.bulk_create(games)
    except IntegrityError:
        raise check.bad(f"{path}.matches", _("has two games with one number")) from None
    _keep_times(PlayoffGame, games, "entered_at", times)


def _import_scoring(data: dict, event: Event, ids: dict, check: _Check) -> None:
    from decimal import Decimal, InvalidOperation

    hands = []
    for i, row in enumerate(check.items(data.get("special_hands", []), "special_hands")):
        path = f"special_hands[{i}]"
        check.obj(row, path)
        hands.append(
            SpecialHand(
                event=event,
                entry_id=check.ref(row, "entry", path, ids),
                points=check.choice(row, "points", path, [28, 29]),
                game_number=check.int(row, "game", path, low=1, high=40, null=True),
                note=check.text(row, "note", path, max_length=200),
            )
        )
    SpecialHand.objects.bulk_create(hands)
    awards = []
    for i, row in enumerate(check.items(data.get("master_points", []), "master_points")):
        path = f"master_points[{i}]"
        check.obj(row, path)
        try:
            points = Decimal(str(row.get("points")))
        except InvalidOperation:
            raise check.bad(f"{path}.points", _("should be a number")) from None
        if not points.is_finite() or abs(points) >= 10_000:
            raise check.bad(f"{path}.points", _("should be a number"))
        awards.append(
            MasterPoints(
                event=event,
                place=check.int(row, "place", path, low=1, high=MAX_PLAYERS),
                points=points,
            )
        )
    try:
        with transaction.atomic():
            MasterPoints.objects.bulk_create(awards)
    except IntegrityError:
        raise check.bad("master_points", _("awards one place twice")) from None
