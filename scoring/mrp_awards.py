"""Master Rating Points computed for an event from the ACC's rules (``books.mrp``), replacing
the table typed into the Django admin.

The ACC awards MRPs in qualifying to the qualifiers (one entrant in four): the upper half by
the format's table (Main or Consolation, the number of qualifying games), the lower half a
fixed award from the 2016/2017 season (5 Main, 3 Consolation). The version of the rules is
picked by the event's date. ``books.mrp`` carries no verified table: the upper half is scored
by a loaded :class:`~scoring.models.MrpTable` (the club's, else the site's), and its awards
are **provisional** while that table is unverified or missing (then they are 0 until one is
loaded). Playoff places earn nothing here (the ACC's playoff part was not retrieved); the
hand-loaded ``MasterPoints`` stay for those.
"""

from __future__ import annotations

import contextlib
from decimal import Decimal

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from books import mrp
from books.error_codes import BooksError
from core.errors import ServiceError
from tournaments.models import Event

from .error_codes import ScoringError
from .models import MrpAward, MrpTable, Standing, StandingsSnapshot

# The ACC's MRP events: a sanctioned tournament's qualifying is a Main event.
MRP_KINDS = {
    Event.Kind.SANCTIONED: mrp.EventKind.MAIN,
    Event.Kind.CONSOLATION: mrp.EventKind.CONSOLATION,
}


def mrp_kind(event: Event) -> mrp.EventKind | None:
    """The event's MRP kind (Main or Consolation), None for an event that earns no MRPs."""
    return MRP_KINDS.get(Event.Kind(event.kind)) if event.game_kind.acc_points else None


def qualifying_games(event: Event) -> int:
    """The number of qualifying games the event had (those drawn; the planned ones before)."""
    return event.rounds.count() or event.games_planned


def qualifying_standings(event: Event) -> list[tuple[int, int]]:
    """``(entry id, game points)`` of the event's entrants in qualifying order: the final
    standings snapshot's rows of the players who played, by rank."""
    snapshot = StandingsSnapshot.objects.filter(event=event).order_by("-after_game").first()
    if snapshot is None:
        return []
    return list(
        Standing.objects.filter(snapshot=snapshot, event=event, games_played__gt=0)
        .order_by("rank", "entry_id")
        .values_list("entry_id", "game_points")
    )


def table_for(event: Event, kind: mrp.EventKind, games: int) -> MrpTable | None:
    """The loaded table of the event's format: the club's own first, else the site's."""
    rows = MrpTable.objects.filter(kind=kind.value, games=games).filter(
        Q(club=event.club) | Q(club__isnull=True)
    )
    # The club's own row sorts before the site's (NULL last on both databases).
    return rows.order_by(F("club_id").asc(nulls_last=True)).first()


@transaction.atomic
def compute_event_mrp(event: Event, *, now=None) -> list[MrpAward]:
    """Compute and store the event's MRPs (replacing any computed before); returns them in
    qualifying order. Refused for an event that is not finished, not an MRP event (a Main or
    Consolation of cribbage), or has no standings."""
    event = Event.objects.select_related("club").get(pk=event.pk)  # its status as stored
    kind = mrp_kind(event)
    if kind is None:
        raise ServiceError(
            ScoringError.NOT_AN_MRP_EVENT,
            _("Only a sanctioned tournament or a consolation earns Master Rating Points."),
        )
    if event.status != Event.Status.FINISHED:
        raise ServiceError(
            ScoringError.EVENT_NOT_FINISHED,
            _("Master Rating Points are computed once the event has finished."),
        )
    standings = qualifying_standings(event)
    if not standings:
        raise ServiceError(ScoringError.NO_STANDINGS, _("The event has no standings yet."))
    games = qualifying_games(event)
    loaded = table_for(event, kind, games)
    rules = mrp.rules_for(event.date)
    provisional = loaded is None or not loaded.verified
    try:
        table = mrp.MrpTable(
            kind=kind,
            games=games,
            # No table loaded: the upper half scores 0 for now, marked provisional.
            points_by_game_points=(
                {int(gp): Decimal(str(p)) for gp, p in loaded.rows.items()}
                if loaded is not None and loaded.rows
                else {0: Decimal(0)}
            ),
            source=loaded.source if loaded is not None else "",
            verified=not provisional,
        )
        awards = mrp.compute_mrp(kind, games, len(standings), standings, event.date, table=table)
    except BooksError as exc:
        raise ServiceError(ScoringError.MRP_REFUSED, str(exc)) from exc
    except (ValueError, ArithmeticError) as exc:  # a loaded table's row that is no number
        raise ServiceError(
            ScoringError.MRP_REFUSED,
            _("The Master Points table for this event has a row that is not a number."),
        ) from exc
    MrpAward.objects.filter(event=event).delete()
    now = now or timezone.now()
    return MrpAward.objects.bulk_create(
        MrpAward(
            event=event,
            entry_id=int(award.entry_id),  # type: ignore[call-overload]  # an entry's pk
            qualifying_rank=award.qualifying_rank,
            game_points=award.game_points,
            points=award.points,
            basis=award.basis.value,
            # The fixed lower-half award is verified on the ACC's page; the table's are not.
            provisional=provisional and award.basis is mrp.MrpBasis.UPPER_HALF_TABLE,
            rules_effective=rules.effective,
            computed_at=now,
        )
        for award in awards
    )


def on_event_finished(sender, *, event_id: int, **kwargs) -> None:
    """Receiver of ``tournaments.hooks.event_season_changed_signal``: once a Main or
    Consolation event has finished and its standings are final, compute its MRPs (after the
    commit; a refusal, such as standings not there yet, leaves it to the TD's button); an
    event re-opened loses them until it finishes again."""

    def compute() -> None:
        event = Event.objects.filter(pk=event_id).first()
        if event is None:
            return
        if event.status != Event.Status.FINISHED:
            # Re-opened (or cancelled): its points are no longer final; computed again at
            # the next finish.
            MrpAward.objects.filter(event=event).delete()
            return
        if mrp_kind(event) is None:
            return
        # A refusal (no standings yet) is left to the TD's button or manage.py compute_mrp.
        with contextlib.suppress(ServiceError):
            compute_event_mrp(event)

    transaction.on_commit(compute, robust=True)
