"""The import of an event's games: every game's tables and results (two-player games) or
Stoppa tables and seats, checked value by value and written in bulk."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.models import (
    Event,
    GameResult,
    Round,
    StoppaSeat,
    StoppaTable,
    Table,
)

from .import_setup import _keep_times
from .schema import BATCH
from .validate import _Check


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
