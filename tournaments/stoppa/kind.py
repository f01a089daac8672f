"""Stoppa: tables of 3 to 6 players reseated every session; a table's result is every
player's chip net, summing to zero. Ranked by chips, sessions won and the best session."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import datetime

from django.db.models import Count, Max, Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.errors import ServiceError
from tournaments.error_codes import TournamentsError
from tournaments.kinds.base import CrossCell, GameKind, Messages, ResultShape, SeatLine, name_order
from tournaments.models import Entry, Event, Round, StoppaSeat, StoppaTable
from tournaments.tiebreakers import STOPPA_CHAIN


def _tables() -> dict[str, str]:
    return {
        "entry": Entry._meta.db_table,
        "round": Round._meta.db_table,
        "stoppa_table": StoppaTable._meta.db_table,
        "stoppa_seat": StoppaSeat._meta.db_table,
    }


class Stoppa(GameKind):
    """The Italian game Stoppa, played in sessions at tables of 3 to 6."""

    key = "stoppa"
    label = _("Stoppa")
    min_seats, max_seats = 3, 6
    default_chain = STOPPA_CHAIN
    # Head-to-head and Buchholz need two-player games; a Stoppa table has 3 to 6 players.
    tiebreakers = frozenset({*STOPPA_CHAIN, "draw"})
    playoffs = False
    seasons = False
    # The players of a table report its nets as one sheet that every one of them confirms
    # (or the TD enters it): no W/L paper cards, no cribbage hand records.
    result_shape = ResultShape.TABLE_NETS
    crosstable_legend = _(
        "Each session: everyone at the player's table, with their rank and chip net."
    )
    group_tables = True
    sheet_action = "stoppa_nets"
    # Chips decide a Stoppa table: no target, muggins, match points, pairing of two, or
    # confirmation policy (every player confirms the table's sheet, or the TD enters it).
    unused_settings = frozenset(
        {
            "target",
            "muggins",
            "match_point_format",
            "pairing",
            "meetings_per_opponent",
            "confirmation",
        }
    )
    round_page = "td-session"
    template = "kinds/stoppa.html"
    messages = Messages(
        round_n=_("Session %(n)s"),
        all_drawn=_("All %(n)s sessions of this event have been drawn."),
        previous_draft=_("Session %(n)s is still a draft: release it or draw it again first."),
        previous_open=_("Session %(n)s still has tables without chip nets: %(tables)s."),
        has_results=_("Session %(n)s already has results."),
        already_released=_("Session %(n)s is already released."),
        released=_("Session %(n)s is released."),
        field_changed=_(
            "The field changed since session %(n)s was drafted (a late entry, a withdrawal "
            "or a check-out): draw it again before releasing it."
        ),
        not_latest=_("Only the latest session can be drawn again."),
        too_few=_("At least %(n)s checked-in players are needed for a Stoppa table."),
    )

    def draw(self, event: Event, number: int, *, draft: bool, seed: int | None = None) -> Round:
        from tournaments.stoppa import services as stoppa

        return stoppa.draw_tables(event, number, draft=draft, seed=seed)

    def seating(self, round_: Round) -> frozenset[frozenset[int]]:
        tables: dict[int, set[int]] = {}
        for table, entry in StoppaSeat.objects.filter(round=round_).values_list(
            "table_id", "entry_id"
        ):
            tables.setdefault(table, set()).add(entry)
        return frozenset(frozenset(members) for members in tables.values())

    def seated(self, round_: Round) -> set[int]:
        return set(StoppaSeat.objects.filter(round=round_).values_list("entry_id", flat=True))

    def open_tables(self, round_: Round) -> list[StoppaTable]:
        from tournaments.stoppa import services as stoppa

        return stoppa.open_tables(round_)

    def has_results(self, round_: Round) -> bool:
        from tournaments.stoppa import services as stoppa

        return stoppa.has_results(round_)

    def public_rounds(
        self, event: Event, *, number: int | None = None, find: str = "", limit: int | None = None
    ) -> Iterable[Round]:
        from tournaments import selectors

        # A session's tables are few (3 to 6 players each): the whole session is shown.
        sessions = selectors.stoppa_sessions(event, released_only=True)
        return sessions if number is None else sessions.filter(number=number)

    def seat_lines(self, event: Event, number: int) -> list[SeatLine]:
        seats = StoppaSeat.objects.filter(
            round__event=event, round__number=number, round__status=Round.Status.RELEASED
        ).values_list("table__number", "entry__player_id", "entry__player__name")
        out = str(_("sitting out"))
        lines = [
            SeatLine(name, player_id, table, "" if table is not None else out)
            for table, player_id, name in seats
        ]
        return sorted(lines, key=lambda line: name_order(line.name))

    def crosstable_cells(
        self, event: Event, entry_ids: Collection[int] | None = None
    ) -> dict[int, list[CrossCell]]:
        """A session's cell is the player's table: everyone at it and their nets, in seat
        order (a session sat out is a cell without a table). One query over the seats."""
        seats = StoppaSeat.objects.filter(round__event=event, round__status=Round.Status.RELEASED)
        if entry_ids is not None:
            # The tables of the wanted entries, with all their seats (the other players' nets).
            mine = StoppaSeat.objects.filter(
                round__event=event, entry_id__in=list(entry_ids)
            ).values("table_id")
            seats = seats.filter(table_id__in=mine)
        tables: dict[int, list[tuple[int, int, int | None, bool]]] = {}
        for number, table, entry, net, out in seats.order_by(
            "round__number", "table_id", "position"
        ).values_list("round__number", "table_id", "entry_id", "net", "table__number"):
            tables.setdefault(table, []).append((number, entry, net, out is None))
        wanted = None if entry_ids is None else set(entry_ids)
        cells: dict[int, list[CrossCell]] = {}
        for at_table in tables.values():
            nets = tuple((entry, net) for _n, entry, net, _out in at_table)
            done = all(net is not None for _entry, net in nets)
            top = max((net for _e, net in nets if net is not None), default=None)
            for number, entry, net, out in at_table:
                if wanted is not None and entry not in wanted:
                    continue
                cells.setdefault(entry, []).append(
                    CrossCell(number, bye=True, note=str(_("sitting out")))
                    if out
                    else CrossCell(
                        number,
                        opponents=tuple(e for e, _net in nets if e != entry),
                        won=(net == top) if done else None,
                        own=net,
                        nets=nets,
                    )
                )
        for row in cells.values():
            row.sort(key=lambda cell: cell.number)
        return cells

    def waiting(self, round_: Round) -> set[int]:
        return set(
            StoppaSeat.objects.filter(
                round=round_, table__number__isnull=False, table__entered_at__isnull=True
            ).values_list("entry_id", flat=True)
        )

    def check_sheet(
        self, event: Event, table: int, values: Sequence[tuple[str, int | None]]
    ) -> ServiceError | None:
        """Every player's chip net, summing to zero (``net_missing``, ``nets_not_zero``)."""
        missing = [name for name, value in values if value is None]
        if missing:
            return ServiceError(
                TournamentsError.NET_MISSING,
                gettext(
                    "Enter a chip net for every player of table %(table)s (missing: %(names)s)."
                )
                % {"table": table, "names": ", ".join(missing)},
                field="nets",
            )
        total = sum(value or 0 for _name, value in values)
        if total != 0:
            return ServiceError(
                TournamentsError.NETS_NOT_ZERO,
                gettext(
                    "The nets of table %(table)s sum to %(total)+d, not 0: every chip one "
                    "player wins another loses. Check the numbers and enter them again."
                )
                % {"table": table, "total": total},
                field="nets",
            )
        return None

    def lines_sql(self) -> str:
        """Every entry's Stoppa totals over sessions %(after)s+1..%(n)s of event %(event)s.

        One aggregate over the seats with a net (tables of 3 to 6, no pairs assumed): total
        chips, sessions played, sessions won (the best net at the table, a shared best
        counting for each) and the best single session (0 for an entry yet to play).
        """
        t = _tables()
        return f"""
            SELECT e.id AS entry_id,
                   0 AS game_points,
                   COALESCE(s.won, 0) AS games_won,
                   COALESCE(s.played, 0) - COALESCE(s.won, 0) AS games_lost,
                   0 AS spread,
                   0 AS skunks_won,
                   0 AS skunks_suffered,
                   0 AS byes,
                   COALESCE(s.chips, 0) AS chips,
                   COALESCE(s.won, 0) AS sessions_won,
                   COALESCE(s.best, 0) AS best_session
              FROM {t["entry"]} e
              LEFT JOIN (
                    SELECT st.entry_id AS id, SUM(st.net) AS chips, COUNT(*) AS played,
                           MAX(st.net) AS best,
                           SUM(CASE WHEN st.net = m.top THEN 1 ELSE 0 END) AS won
                      FROM {t["stoppa_seat"]} st
                      JOIN {t["stoppa_table"]} t ON t.id = st.table_id
                      JOIN {t["round"]} g ON g.id = t.round_id
                      JOIN (SELECT table_id, MAX(net) AS top
                              FROM {t["stoppa_seat"]}
                             WHERE net IS NOT NULL
                             GROUP BY table_id) m ON m.table_id = st.table_id
                     WHERE g.event_id = %(event)s AND g.number > %(after)s AND g.number <= %(n)s
                       AND st.net IS NOT NULL
                     GROUP BY st.entry_id) s ON s.id = e.id
             WHERE e.event_id = %(event)s
        """

    def seated_sql(self) -> str:
        t = _tables()
        return f"""
            SELECT s.entry_id FROM {t["stoppa_seat"]} s JOIN {t["round"]} g ON g.id = s.round_id
             WHERE g.event_id = %(event)s AND g.number > %(after)s AND g.number <= %(n)s
               AND g.status = '{Round.Status.RELEASED.value}'"""

    def round_stats(
        self, event: Event, *, after: int = 0
    ) -> Iterable[tuple[int, int, int, datetime | None]]:
        played = Q(stoppa_tables__number__isnull=False)
        return (
            Round.objects.filter(event=event, number__gt=after)
            .annotate(
                tables_n=Count("stoppa_tables", filter=played),
                results_n=Count(
                    "stoppa_tables", filter=played & Q(stoppa_tables__entered_at__isnull=False)
                ),
                last=Max("stoppa_tables__entered_at"),
            )
            .order_by("number")
            .values_list("number", "tables_n", "results_n", "last")
        )


STOPPA = Stoppa()
