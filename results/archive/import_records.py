"""The import of what happened around the games: the players' reports, the audit trail, the
disputes, the playoff bracket with its matches and games, the special hands and the master
points."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from results.models import Dispute, Submission
from scoring.models import MasterPoints, SpecialHand
from tournaments.models import (
    AuditEntry,
    Bracket,
    Event,
    PlayoffGame,
    PlayoffMatch,
)

from .import_setup import _keep_times
from .schema import BATCH, MATCH_FIELDS, MAX_PLAYERS, SMALL
from .validate import _Check


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
