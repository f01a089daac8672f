"""The import of an event's games: every game's tables and results (two-player games) or
Stoppa tables and seats, their refs resolved (the schema has checked the rest) and written in
bulk."""

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
from .validate import _Check, text


def _clock(game: dict, check: _Check, path: str) -> dict[str, Any]:
    """The game's round clock as the archive keeps it (none in an archive made before it)."""
    clock = game.get("clock")
    if not isinstance(clock, dict):
        return {}
    return {
        "clock_state": clock["state"],
        "clock_minutes": clock.get("minutes"),
        "clock_started_at": check.when(clock, "started_at", path),
        "clock_ends_at": check.when(clock, "ends_at", path),
        "clock_left": clock.get("left"),
    }


def _import_games(data: dict, event: Event, ids: dict, check: _Check) -> dict[Any, Table]:
    """Every game's tables and results (two-player tables) or Stoppa tables and nets."""
    games = data["games"]
    rounds = []
    for i, game in enumerate(games):
        rounds.append(
            Round(
                event=event,
                number=game["number"],
                seed=game["seed"],
                status=game["status"],
                method=text(game, "method"),
                released_at=check.when(game, "released_at", f"games[{i}]"),
                notes=game.get("notes") if isinstance(game.get("notes"), list) else [],
                **_clock(game, check, f"games[{i}].clock"),
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
        for j, row in enumerate(game.get("tables", [])):
            path = f"games[{i}].tables[{j}]"
            b = check.ref(row, "b", path, ids, null=True)
            number = row.get("number")
            if (b is None) != (number is None):
                raise check.bad(path, _("should have a number exactly when it has two players"))
            tables.append(
                Table(
                    round=round_,
                    number=number,
                    seat_a_id=check.ref(row, "a", path, ids),
                    seat_b_id=b,
                    note=text(row, "note"),
                )
            )
            table_refs.append(row["ref"])
            if row.get("result") is not None:
                results.append((len(tables) - 1, row["result"], path))
        for j, row in enumerate(game.get("stoppa_tables", [])):
            stoppa.append((round_, row, f"games[{i}].stoppa_tables[{j}]"))
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
                kind=row["kind"],
                winner_id=check.ref(row, "winner", path, ids),
                loser_id=check.ref(row, "loser", path, ids, null=True),
                loser_score=row.get("loser_score"),
                winner_points=row["winner_points"],
                loser_points=row["loser_points"],
                margin=row["margin"],
                skunk_level=row["skunk_level"],
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
                number=row.get("number"),
                note=text(row, "note"),
                source=row.get("source", StoppaTable.Source.NONE),
                deals=row.get("deals") if isinstance(row.get("deals"), list) else [],
                entered_at=check.when(row, "entered_at", path),
            )
            for round_, row, path in stoppa
        ]
    )
    seats = []
    for (round_, row, path), table in zip(stoppa, made, strict=True):
        for k, seat in enumerate(row.get("seats", [])):
            seats.append(
                StoppaSeat(
                    table=table,
                    round=round_,
                    entry_id=check.ref(seat, "entry", f"{path}.seats[{k}]", ids),
                    position=seat["position"],
                    net=seat.get("net"),
                )
            )
    try:
        with transaction.atomic():
            StoppaSeat.objects.bulk_create(seats, batch_size=BATCH)
    except IntegrityError:
        raise check.bad("games", _("seat a player twice in one session")) from None
