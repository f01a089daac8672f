"""Writes for three-handed cribbage events: drawing a game's tables and recording a table's
final scores (the TD's entry; the players' sheet goes through ``results``), and the event's
points for each place.

A game is a :class:`Round` whose tables are ``StoppaTable`` rows with one ``StoppaSeat`` per
player, the seat's number being the player's final score. Every write of a result goes
through ``tournaments.stoppa.services`` (``record_session_nets``, ``settle_session_table``):
one locked, checked (the kind's ``check_sheet``) and audited path for every kind of table of
several seats.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments import pairing
from tournaments import pairing_bridge as bridge
from tournaments.error_codes import TournamentsError
from tournaments.models import Event, Round, StoppaSeat, StoppaTable
from tournaments.pairing.three_handed import meetings, seat_three_handed
from tournaments.services._common import UserLike, locked_event
from tournaments.stoppa import services as tables

from .kind import THREE_HANDED

METHOD = "threehanded"
# The largest match points a place may be worth (a form's and the API's bound).
MAX_PLACE_POINTS = 20


def _require(event: Event) -> None:
    if not THREE_HANDED.owns(event):
        raise ServiceError(
            TournamentsError.BAD_GAME, _("This is not a three-handed cribbage event.")
        )


def history(event: Event) -> tuple[dict, Counter]:
    """Who sat with whom in the event's games so far (pair -> times), and how often each
    entry sat at a table of two."""
    by_table: dict[int, list[int]] = {}
    for table_id, entry_id in (
        StoppaSeat.objects.filter(round__event=event, table__number__isnull=False)
        .order_by("table_id", "position")
        .values_list("table_id", "entry_id")
    ):
        by_table.setdefault(table_id, []).append(entry_id)
    small = Counter(pk for members in by_table.values() if len(members) == 2 for pk in members)
    return meetings(list(by_table.values())), small


def draw_game(event: Event, number: int, *, draft: bool, seed: int | None = None) -> Round:
    """Seat game ``number``: tables of three (two where the field does not divide), the
    event's forbidden pairs apart, the fewest pairs who already sat together
    (``tournaments.pairing.three_handed``), from the game's seed (``seed``: a new one for a
    game drawn again)."""
    _require(event)
    active = bridge.active_entries(event)
    bridge.require_field(active, 2, THREE_HANDED.messages)
    met, small = history(event)
    seed = bridge.round_seed(event, number) if seed is None else seed
    try:
        drawn = seat_three_handed(
            [e.pk for e in active],
            seed=seed,
            met=met,
            small_tables=small,
            forbidden=bridge.forbidden_for(event),
        )
    except pairing.PairingError as exc:
        raise bridge.service_error(exc) from None
    names = bridge.names_of(event)
    notes = [
        _("%(a)s and %(b)s share a table for time %(n)s: no better spread was found.")
        % {"a": names.get(a, ""), "b": names.get(b, ""), "n": times + 1}
        for a, b, times in drawn.repeats
    ]
    round_ = Round.objects.create(
        event=event,
        number=number,
        seed=seed,
        notes=notes,
        method=METHOD,
        status=Round.Status.DRAFT if draft else Round.Status.RELEASED,
        released_at=None if draft else timezone.now(),
    )
    tables._write_tables(round_, drawn.tables, (), met)
    return round_


def record_table_scores(
    event: Event,
    *,
    table: StoppaTable | int,
    scores: Mapping[Any, Any],
    game: int | None = None,
    user: UserLike = None,
    reason: str = "",
) -> StoppaTable:
    """Record (or correct) a table's final scores, as the TD types them: every player of the
    table, one at the event's target and the others below it (``check_sheet``), locked,
    written and audited by the one path of tables of several seats. Scores other than those
    recorded need a ``reason`` (``reason_required``); the same scores again change nothing."""
    _require(event)
    return tables.record_session_nets(
        event, table=table, nets=scores, session=game, user=user, reason=reason
    )


@transaction.atomic
def set_place_points(event: Event, *, first: int, second: int, third: int) -> Event:
    """Set the event's match points for first, second and last place at a table; the
    standings follow. A better place is worth at least as much as a worse one."""
    event = locked_event(event)
    _require(event)
    values = (first, second, third)
    if any(v < 0 or v > MAX_PLACE_POINTS for v in values) or not first >= second >= third:
        raise ServiceError(
            TournamentsError.BAD_FORMAT,
            _(
                "Place points are whole numbers from 0 to %(max)s, a better place worth at "
                "least as much as a worse one."
            )
            % {"max": MAX_PLACE_POINTS},
            field="points_first",
        )
    event.points_first, event.points_second, event.points_third = values
    event.save(update_fields=["points_first", "points_second", "points_third"])
    from tournaments import hooks

    hooks.results_changed(event.pk)
    return event
