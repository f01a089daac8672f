"""Cribbage: two seats a table, a bye for an odd field, a result is the winner and the
loser's score (game points, spread and skunks derived from the event's match-point format)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db.models import Count, Max
from django.utils.translation import gettext_lazy as _

from tournaments import hooks
from tournaments import pairing_bridge as bridge
from tournaments.models import Entry, Event, GameResult, Round, Table
from tournaments.tiebreakers import ACC_CHAIN, REGISTRY

from .base import GameKind, Messages, ResultShape, SeatLine, name_order


def _tables() -> dict[str, str]:
    return {
        "entry": Entry._meta.db_table,
        "result": GameResult._meta.db_table,
        "table": Table._meta.db_table,
        "round": Round._meta.db_table,
    }


class Cribbage(GameKind):
    """Two-player cribbage, scored the ACC way."""

    key = "cribbage"
    label = _("Cribbage")
    min_seats = max_seats = 2
    default_chain = ACC_CHAIN
    tiebreakers = frozenset(REGISTRY) - {"chips", "sessions_won", "best_session"}
    playoffs = True
    seasons = True
    acc_points = True
    result_shape = ResultShape.WINNER_SCORE
    paper_import = True
    hand_records = True
    round_page = "td-game"
    template = "kinds/cribbage.html"
    messages = Messages(
        round_n=_("Game %(n)s"),
        all_drawn=_("All %(n)s games of this event have been drawn."),
        previous_draft=_("Game %(n)s is still a draft: release it or draw it again first."),
        previous_open=_("Game %(n)s still has open tables: %(tables)s."),
        has_results=_("Game %(n)s already has results."),
        already_released=_("Game %(n)s is already released."),
        released=_("Game %(n)s is released."),
        field_changed=_(
            "The field changed since game %(n)s was drafted (a late entry, a withdrawal or "
            "a check-out): draw it again before releasing it."
        ),
        not_latest=_("Only the latest game can be drawn again."),
        too_few=_("At least %(n)s checked-in players are needed."),
    )

    def draw(self, event: Event, number: int, *, draft: bool, seed: int | None = None) -> Round:
        """Seat game ``number`` by the event's pairing method and write it (the bridge's job)."""
        active = bridge.active_entries(event)
        bridge.require_field(active, 2, self.messages)
        history = bridge.load_history(event)
        seed = bridge.pairs_seed(event, number, fresh=seed)
        seating = bridge.seat_game(event, number, [e.pk for e in active], seed, history)
        round_ = bridge.write_round(
            event, number=number, seed=seed, seating=seating, history=history, draft=draft
        )
        if not draft and bridge.score_byes(round_):
            hooks.results_changed(event.pk)
        return round_

    def seating(self, round_: Round) -> frozenset[frozenset[int]]:
        return frozenset(
            frozenset(pk for pk in pair if pk)
            for pair in round_.tables.values_list("seat_a_id", "seat_b_id")
        )

    def seed_matters(self, event: Event, round_: Round) -> bool:
        return bridge.seed_matters(event, round_)

    def same_draw_reason(self, event: Event, number: int) -> str:
        return bridge.same_draw_reason(event, number)

    def seated(self, round_: Round) -> set[int]:
        return {
            pk for pair in round_.tables.values_list("seat_a_id", "seat_b_id") for pk in pair if pk
        }

    def open_tables(self, round_: Round) -> list[Table]:
        return list(round_.tables.filter(result__isnull=True).order_by("number"))

    def has_results(self, round_: Round) -> bool:
        return (
            GameResult.objects.filter(table__round=round_)
            .exclude(kind=GameResult.Kind.BYE)
            .exists()
        )

    def public_rounds(
        self, event: Event, *, number: int | None = None, find: str = "", limit: int | None = None
    ) -> Iterable[Round]:
        from tournaments import selectors

        return selectors.rounds_with_tables(
            event, released_only=True, number=number, find=find, limit=limit
        )

    def seat_lines(self, event: Event, number: int) -> list[SeatLine]:
        tables = Table.objects.filter(
            round__event=event, round__number=number, round__status=Round.Status.RELEASED
        ).values_list(
            "number",
            "seat_a__player_id",
            "seat_a__player__name",
            "seat_b__player_id",
            "seat_b__player__name",
        )
        bye = str(_("bye"))
        lines = []
        for table, a_id, a_name, b_id, b_name in tables:
            lines.append(SeatLine(a_name, a_id, table, "" if b_id else bye))
            if b_id:
                lines.append(SeatLine(b_name, b_id, table))
        return sorted(lines, key=lambda line: name_order(line.name))

    def on_release(self, round_: Round) -> bool:
        return bridge.score_byes(round_)

    def lines_sql(self) -> str:
        t = _tables()
        return f"""
            SELECT e.id AS entry_id,
                   COALESCE(w.points, 0) + COALESCE(l.points, 0) AS game_points,
                   COALESCE(w.won, 0) AS games_won,
                   COALESCE(l.lost, 0) AS games_lost,
                   COALESCE(w.plus, 0) - COALESCE(l.minus, 0) AS spread,
                   COALESCE(w.skunks, 0) AS skunks_won,
                   COALESCE(l.skunked, 0) AS skunks_suffered,
                   COALESCE(w.byes, 0) AS byes,
                   CAST(NULL AS INTEGER) AS chips,
                   CAST(NULL AS INTEGER) AS sessions_won,
                   CAST(NULL AS INTEGER) AS best_session
              FROM {t["entry"]} e
              LEFT JOIN (
                    SELECT r.winner_id AS id, SUM(r.winner_points) AS points, COUNT(*) AS won,
                           SUM(r.margin) AS plus,
                           SUM(CASE WHEN r.skunk_level > 0 THEN 1 ELSE 0 END) AS skunks,
                           SUM(CASE WHEN r.kind = 'bye' THEN 1 ELSE 0 END) AS byes
                      FROM {t["result"]} r
                      JOIN {t["table"]} t ON t.id = r.table_id
                      JOIN {t["round"]} g ON g.id = t.round_id
                     WHERE g.event_id = %(event)s AND g.number > %(after)s AND g.number <= %(n)s
                     GROUP BY r.winner_id) w ON w.id = e.id
              LEFT JOIN (
                    SELECT r.loser_id AS id, SUM(r.loser_points) AS points, COUNT(*) AS lost,
                           SUM(r.margin) AS minus,
                           SUM(CASE WHEN r.skunk_level > 0 THEN 1 ELSE 0 END) AS skunked
                      FROM {t["result"]} r
                      JOIN {t["table"]} t ON t.id = r.table_id
                      JOIN {t["round"]} g ON g.id = t.round_id
                     WHERE g.event_id = %(event)s AND g.number > %(after)s AND g.number <= %(n)s
                       AND r.loser_id IS NOT NULL
                     GROUP BY r.loser_id) l ON l.id = e.id
             WHERE e.event_id = %(event)s
        """

    def seated_sql(self) -> str:
        t = _tables()
        seated = """
            SELECT t.{seat} FROM {table} t JOIN {round} g ON g.id = t.round_id
             WHERE g.event_id = %(event)s AND g.number > %(after)s AND g.number <= %(n)s
               AND g.status = '{released}'
               AND t.{seat} IS NOT NULL"""
        return " UNION ".join(
            seated.format(
                seat=seat, table=t["table"], round=t["round"], released=Round.Status.RELEASED.value
            )
            for seat in ("seat_a_id", "seat_b_id")
        )

    def round_stats(
        self, event: Event, *, after: int = 0
    ) -> Iterable[tuple[int, int, int, datetime | None]]:
        return (
            Round.objects.filter(event=event, number__gt=after)
            .annotate(
                tables_n=Count("tables"),
                results_n=Count("tables__result"),
                last=Max("tables__result__entered_at"),
            )
            .order_by("number")
            .values_list("number", "tables_n", "results_n", "last")
        )


CRIBBAGE = Cribbage()
