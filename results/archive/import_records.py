"""The import of what happened around the games: the players' reports, the audit trail, the
disputes, the playoff bracket with its matches and games, the special hands and the master
points."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from results.models import Dispute, Submission
from scoring.models import MasterPoints, SpecialHand
from tournaments.audit_chain import append_audit
from tournaments.models import (
    AuditEntry,
    Bracket,
    Event,
    PlayoffGame,
    PlayoffMatch,
)

from .import_setup import _keep_times
from .schema import BATCH, MATCH_FIELDS
from .validate import _Check, text


def _import_reports(
    data: dict, event: Event, ids: dict, tables: dict, check: _Check
) -> dict[Any, Submission]:
    made, refs, times = [], [], []
    for i, row in enumerate(data.get("submissions", [])):
        path = f"submissions[{i}]"
        made.append(
            Submission(
                event=event,
                table=check.ref(row, "table", path, tables),
                source=row["source"],
                by_entry_id=check.ref(row, "by_entry", path, ids, null=True),
                winner_id=check.ref(row, "winner", path, ids),
                loser_score=row.get("loser_score"),
                forfeit=row.get("forfeit", False),
                record=row.get("record"),
                report=row.get("report"),
                status=row["status"],
            )
        )
        refs.append(row["ref"])
        times.append(check.when(row, "created_at", path))
    try:
        with transaction.atomic():
            Submission.objects.bulk_create(made, batch_size=BATCH)
    except IntegrityError:
        raise check.bad("submissions", _("confirm two versions of one table")) from None
    _keep_times(Submission, made, "created_at", times)
    return dict(zip(refs, made, strict=True))


def _import_audit(data: dict, event: Event, tables: dict, check: _Check) -> None:
    made = []
    for i, row in enumerate(data.get("audit", [])):
        path = f"audit[{i}]"
        made.append(
            AuditEntry(
                event=event,
                table=check.ref(row, "table", path, tables, null=True),
                actor=text(row, "actor"),
                action=row["action"],
                old=row.get("old"),
                new=row.get("new"),
                reason=text(row, "reason"),
                at=check.when(row, "at", path) or timezone.now(),
            )
        )
    # Chained anew, in the archive's order: the digests cover the event's, tables' and
    # users' ids, which are new here, so the archive's digests cannot be kept (the export
    # says which digests it had; verify_audit vouches for this database's chain from here).
    append_audit(event, made, batch_size=BATCH)


def _import_disputes(
    data: dict, event: Event, tables: dict, submissions: dict, check: _Check
) -> None:
    made, times = [], []
    for i, row in enumerate(data.get("disputes", [])):
        path = f"disputes[{i}]"
        made.append(
            Dispute(
                event=event,
                table=check.ref(row, "table", path, tables),
                reason=text(row, "reason"),
                ruling=check.ref(row, "ruling", path, submissions, null=True),
                ruled_at=check.when(row, "ruled_at", path),
                note=text(row, "note"),
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
    seeds = [
        check.ref({"seed": s}, "seed", f"{path}.seeds[{i}]", ids)
        for i, s in enumerate(data["seeds"])
    ]
    places = {}
    for key, place in data.get("places", {}).items():
        entry = ids.get(int(key)) if key.isascii() and key.isdigit() else None
        if entry is None:
            raise check.bad(f"{path}.places", _("names an entry the archive does not have"))
        places[str(entry)] = place
    cut_lots = []
    for i, draw in enumerate(data.get("cut_lots", [])):
        dpath = f"{path}.cut_lots[{i}]"
        entries = [
            {
                "entry": check.ref(item, "entry", f"{dpath}.entries[{j}]", ids),
                "lot": item["lot"],
                "qualified": item.get("qualified", False),
            }
            for j, item in enumerate(draw["entries"])
        ]
        cut_lots.append(
            {"rank": draw["rank"], "straddles": draw.get("straddles", False), "entries": entries}
        )
    bracket = Bracket.objects.create(
        event=event,
        source=data["source"],
        seeds=seeds,
        entrants=data["entrants"],
        best_of=data["best_of"],
        side_best_of=data.get("side_best_of"),
        third_place=data.get("third_place", False),
        consolation=data.get("consolation", False),
        double_elimination=data.get("double_elimination", False),
        seed=data["seed"],
        places=places,
        cut_lots=cut_lots,
        champion_id=check.ref(data, "champion", path, ids, null=True),
    )
    matches, game_rows = [], []
    for i, row in enumerate(data.get("matches", [])):
        mpath = f"{path}.matches[{i}]"
        values: dict[str, Any] = {}
        for name in MATCH_FIELDS:
            if name in ("winner_to", "loser_to"):
                values[name] = text(row, name)
            elif name in ("empty_a", "empty_b", "decided", "walkover"):
                values[name] = row.get(name, False)
            else:
                values[name] = row.get(name)  # required or nullable: the schema says which
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
        for k, row in enumerate(rows):
            gpath = f"{mpath}.games[{k}]"
            games.append(
                PlayoffGame(
                    match=match,
                    number=row["number"],
                    winner_id=check.ref(row, "winner", gpath, ids),
                    loser_score=row.get("loser_score"),
                    forfeit=row.get("forfeit", False),
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
    for i, row in enumerate(data.get("special_hands", [])):
        hands.append(
            SpecialHand(
                event=event,
                entry_id=check.ref(row, "entry", f"special_hands[{i}]", ids),
                points=row["points"],
                game_number=row.get("game"),
                note=text(row, "note"),
            )
        )
    SpecialHand.objects.bulk_create(hands)
    awards = []
    for i, row in enumerate(data.get("master_points", [])):
        path = f"master_points[{i}]"
        try:
            points = Decimal(str(row.get("points")))
        except InvalidOperation:
            raise check.bad(f"{path}.points", _("should be a number")) from None
        if not points.is_finite() or abs(points) >= 10_000:
            raise check.bad(f"{path}.points", _("should be a number"))
        awards.append(
            MasterPoints(
                event=event,
                place=row["place"],
                points=points,
            )
        )
    try:
        with transaction.atomic():
            MasterPoints.objects.bulk_create(awards)
    except IntegrityError:
        raise check.bad("master_points", _("awards one place twice")) from None
