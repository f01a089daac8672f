"""Three-handed cribbage: tables of three reseated every game, a result is every player's final
score (the winner's at the target), places and match points derived from the scores."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.errors import ServiceError
from games.cribbage.rules import SKUNK_LINES
from tournaments.error_codes import TournamentsError
from tournaments.kinds.base import CrossCell, Messages, ResultShape
from tournaments.models import Entry, Event, Round, StoppaSeat, StoppaTable
from tournaments.stoppa.kind import Stoppa
from tournaments.tiebreakers import ACC_CHAIN

KEY = "cribbage3"


def places(scores: Sequence[int]) -> list[int]:
    """Each score's place at its table: 1 + the number of higher scores. A tie shares the
    better place (two players on 80 behind a 121 are both second)."""
    return [1 + sum(1 for other in scores if other > score) for score in scores]


def place_points(event: Event, place: int, seats: int) -> int:
    """The match points of ``place`` at a table of ``seats`` (the event's setting): first,
    second, last; a table of two has a first and a last."""
    if place == 1:
        return event.points_first
    if place == 2 and seats > 2:
        return event.points_second
    return event.points_third


def skunk_line(target: int) -> int:
    """The highest score of a skunked loser in a game to ``target`` (spec: 90 for 121, 30
    for 61); every loser at or below it is skunked."""
    return SKUNK_LINES[target][0]


class ThreeHanded(Stoppa):
    """Three-handed cribbage: three players a table, the first to the target wins."""

    key = KEY
    label = _("Three-handed cribbage")
    min_seats, max_seats = 2, 3
    default_chain = ACC_CHAIN
    # Head-to-head, Buchholz and the latest games need two-player games.
    tiebreakers = frozenset({*ACC_CHAIN, "skunks_won", "skunks_suffered", "draw"})
    result_shape = ResultShape.TABLE_SCORES
    crosstable_legend = _(
        "Each game: everyone at the player's table, with their rank and final score, * a skunk."
    )
    sheet_action = "table_scores"
    # Places decide the points (the event's place points), the kind seats the tables, and
    # every player confirms the table's sheet (or the TD enters it).
    unused_settings = frozenset(
        {"match_point_format", "pairing", "meetings_per_opponent", "confirmation"}
    )
    round_page = "td-three-game"
    template = "kinds/threehanded.html"
    messages = Messages(
        round_n=_("Game %(n)s"),
        all_drawn=_("All %(n)s games of this event have been drawn."),
        previous_draft=_("Game %(n)s is still a draft: release it or draw it again first."),
        previous_open=_("Game %(n)s still has tables without scores: %(tables)s."),
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

    def crosstable_cells(
        self, event: Event, entry_ids: Collection[int] | None = None
    ) -> dict[int, list[CrossCell]]:
        """Stoppa's cells (everyone at the table, here with their scores), with the skunks:
        a loser at or below the skunk line is skunked; the winner's cell counts a skunk when
        a loser was, a loser's when they were."""
        line = skunk_line(event.target)
        cells = super().crosstable_cells(event, entry_ids)
        for row in cells.values():
            for i, cell in enumerate(row):
                if cell.won is None:  # no scores yet, or a table sat out
                    continue
                skunked = tuple(e for e, score in cell.nets if score is not None and score <= line)
                if skunked:
                    mine = cell.won or (cell.own is not None and cell.own <= line)
                    row[i] = replace(cell, skunked=skunked, skunk=int(mine))
        return cells

    def draw(self, event: Event, number: int, *, draft: bool, seed: int | None = None) -> Round:
        from . import services

        return services.draw_game(event, number, draft=draft, seed=seed)

    def check_sheet(
        self, event: Event, table: int, values: Sequence[tuple[str, int | None]]
    ) -> ServiceError | None:
        """Every player's final score: none missing or negative, exactly one at the event's
        target (the winner: the game ends the moment a player reaches it) and the others
        below it."""
        where = {"table": table, "target": event.target}
        missing = [name for name, value in values if value is None]
        if missing:
            return ServiceError(
                TournamentsError.SCORE_REQUIRED,
                gettext(
                    "Enter the final score of every player of table %(table)s (missing: %(names)s)."
                )
                % {"table": table, "names": ", ".join(missing)},
                field="nets",
            )
        scores = [(name, int(value or 0)) for name, value in values]
        negative = [name for name, score in scores if score < 0]
        if negative:
            return ServiceError(
                TournamentsError.NEGATIVE_SCORE,
                gettext("A score cannot be negative (%(names)s).") % {"names": ", ".join(negative)},
                field="nets",
            )
        over = [name for name, score in scores if score > event.target]
        if over:
            return ServiceError(
                TournamentsError.SCORE_OVER_TARGET,
                gettext(
                    "A score cannot pass %(target)s: the winner's final score is the target "
                    "exactly (%(names)s)."
                )
                % (where | {"names": ", ".join(over)}),
                field="nets",
            )
        winners = [name for name, score in scores if score == event.target]
        if not winners:
            return ServiceError(
                TournamentsError.NO_WINNER,
                gettext(
                    "Nobody at table %(table)s reached %(target)s: the winner's final score is "
                    "the target."
                )
                % where,
                field="nets",
            )
        if len(winners) > 1:
            return ServiceError(
                TournamentsError.LOSER_REACHED_TARGET,
                gettext(
                    "Only one player can reach %(target)s: the game ends the moment the first "
                    "one does (%(names)s)."
                )
                % (where | {"names": ", ".join(winners)}),
                field="nets",
            )
        return None

    def lines_sql(self) -> str:
        """Every entry's totals over games %(after)s+1..%(n)s of event %(event)s, from the
        final scores of the tables with a result.

        A player's place is 1 + the number of higher scores at the table (a tie shares the
        better place); game points are the event's points of that place (a table of two:
        first and last). Games won are firsts. Spread: a loser's score minus the winner's; the
        winner's, the sum of its margins over every loser. A loser at or below the skunk line
        of the event's target is skunked, and counts as a skunk won for the winner.
        """
        t = {
            "entry": Entry._meta.db_table,
            "event": Event._meta.db_table,
            "round": Round._meta.db_table,
            "table": StoppaTable._meta.db_table,
            "seat": StoppaSeat._meta.db_table,
        }
        line = " ".join(
            f"WHEN {target} THEN {skunk_line(target)}" for target in sorted(SKUNK_LINES)
        )
        return f"""
            SELECT e.id AS entry_id,
                   COALESCE(s.points, 0) AS game_points,
                   COALESCE(s.won, 0) AS games_won,
                   COALESCE(s.played, 0) - COALESCE(s.won, 0) AS games_lost,
                   COALESCE(s.spread, 0) AS spread,
                   COALESCE(s.skunks_won, 0) AS skunks_won,
                   COALESCE(s.skunked, 0) AS skunks_suffered,
                   0 AS byes,
                   CAST(NULL AS INTEGER) AS chips,
                   CAST(NULL AS INTEGER) AS sessions_won,
                   CAST(NULL AS INTEGER) AS best_session
              FROM {t["entry"]} e
              JOIN {t["event"]} ev ON ev.id = e.event_id
              LEFT JOIN (
                    SELECT st.entry_id AS id, COUNT(*) AS played,
                           SUM(CASE WHEN st.net = m.top THEN 1 ELSE 0 END) AS won,
                           SUM(CASE WHEN st.net = m.top THEN ev.points_first
                                    WHEN m.seats > 2 AND m.top > st.net AND NOT EXISTS (
                                         SELECT 1 FROM {t["seat"]} o
                                          WHERE o.table_id = st.table_id
                                            AND o.net > st.net AND o.net < m.top)
                                    THEN ev.points_second
                                    ELSE ev.points_third END) AS points,
                           SUM(CASE WHEN st.net = m.top THEN m.top * m.seats - m.total
                                    ELSE st.net - m.top END) AS spread,
                           SUM(CASE WHEN st.net = m.top THEN m.low ELSE 0 END) AS skunks_won,
                           SUM(CASE WHEN st.net < m.top AND st.net <= m.line
                                    THEN 1 ELSE 0 END) AS skunked
                      FROM {t["seat"]} st
                      JOIN {t["table"]} tb ON tb.id = st.table_id
                      JOIN {t["round"]} g ON g.id = tb.round_id
                      JOIN {t["event"]} ev ON ev.id = g.event_id
                      JOIN (SELECT x.table_id, MAX(x.net) AS top, COUNT(*) AS seats,
                                   SUM(x.net) AS total, MIN(l.line) AS line,
                                   SUM(CASE WHEN x.net <= l.line THEN 1 ELSE 0 END) AS low
                              FROM {t["seat"]} x
                              JOIN (SELECT CASE target {line} ELSE -1 END AS line
                                      FROM {t["event"]} WHERE id = %(event)s) l ON 1 = 1
                             WHERE x.net IS NOT NULL
                             GROUP BY x.table_id) m ON m.table_id = st.table_id
                     WHERE g.event_id = %(event)s AND g.number > %(after)s AND g.number <= %(n)s
                       AND st.net IS NOT NULL AND tb.entered_at IS NOT NULL
                     GROUP BY st.entry_id) s ON s.id = e.id
             WHERE e.event_id = %(event)s
        """


THREE_HANDED = ThreeHanded()
