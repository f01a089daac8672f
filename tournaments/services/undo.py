"""Undo, where the rules allow it: a withdrawn player comes back, a finished event re-opens,
the last result recorded is taken back. Each is one transaction."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments import hooks
from tournaments.audit_chain import append_audit
from tournaments.models import AuditEntry, Bracket, Entry, Event, GameResult, Table

from ..error_codes import TournamentsError
from ._common import UserLike, acting_user, actor_name, locked_event
from .results import audit_values, describe_result


@transaction.atomic
def reinstate_entry(entry: Entry) -> Entry:
    """Bring a withdrawn player back for the games still to be drawn, checked in (a TD
    reinstates someone who is at the club and ready to play).

    Games already played while they were away stay as they are. A draft game drawn without
    them is drawn again with them. Refused when the event has finished, when the entry has
    not withdrawn, and once they are in the playoff bracket: their matches were walked over
    and the opponents have moved on, which the rules do not undo.
    """
    event = locked_event(entry.event)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk, event=event)
    name = entry.name
    if event.status == Event.Status.FINISHED:
        raise ServiceError(TournamentsError.EVENT_FINISHED, _("The event has finished."))
    if not entry.withdrawn:
        raise ServiceError(
            TournamentsError.NOT_WITHDRAWN,
            _("%(name)s has not withdrawn.") % {"name": name},
            field="entry",
        )
    bracket = Bracket.objects.filter(event=event).first()
    if bracket is not None and entry.pk in bracket.seeds:
        raise ServiceError(
            TournamentsError.IN_BRACKET,
            _(
                "%(name)s was withdrawn from the playoff bracket and their matches were walked "
                "over: a player cannot come back into a bracket."
            )
            % {"name": name},
            field="entry",
        )
    entry.withdrawn = False
    entry.checked_in = True
    entry.save(update_fields=["withdrawn", "checked_in"])
    kind = event.game_kind
    latest = event.rounds.order_by("-number").first()
    if latest is not None and latest.is_draft:
        number = latest.number
        latest.delete()
        try:
            with transaction.atomic():
                kind.draw(event, number, draft=True)
        except ServiceError:
            pass  # the field cannot be seated now: the TD draws again when it can
    hooks.results_changed(event.pk)
    return entry


@transaction.atomic
def reopen_event(event: Event) -> Event:
    """Take a finished event back to running, for a late correction or one more game; the
    standings are recomputed (and its settings unlock as far as the games drawn allow)."""
    event = locked_event(event)
    if event.status != Event.Status.FINISHED:
        raise ServiceError(
            TournamentsError.NOT_FINISHED, _("Only a finished event can be re-opened.")
        )
    event.status = Event.Status.RUNNING
    event.save(update_fields=["status"])
    hooks.results_changed(event.pk)
    hooks.event_season_changed(event.pk)  # under way again: out of its season until finished
    return event


@dataclass(frozen=True, slots=True)
class UndoneResult:
    """What :func:`undo_last_result` took back: the table (open again), the result as the
    audit log names it, and the number of a draft game thrown away with it (or None)."""

    table: Table
    old: dict
    draft_removed: int | None = None


@transaction.atomic
def undo_last_result(event: Event, *, user: UserLike = None, reason: str = "") -> UndoneResult:
    """Take back the result recorded last in the latest game that has results; its table is
    open again (the players may report it again, the TD enter it again).

    Only the latest game's tables: refused once a later game is released (its draw counted
    the result), while the event is finished (re-open it first), after the cut to the playoff
    (the bracket was seeded on it), and when the game has no result to take back (a bye's
    scoring is not a recorded result). A later game still in draft was drawn on the result:
    it is thrown away, to be drawn again once the table has its result. The audit log keeps
    the result taken back, by name, with the reason; the apps above hear of it
    (:func:`tournaments.hooks.result_removed`) to clear the reports that confirmed it.
    """
    event = locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError(
            TournamentsError.EVENT_FINISHED,
            _("The event has finished: re-open it before undoing a result."),
        )
    if event.game_kind.round_page != "td-game":
        raise ServiceError(
            TournamentsError.NOT_TWO_PLAYER,
            _("Only a two-player game's results can be undone this way."),
        )
    if Bracket.objects.filter(event=event, source=Bracket.Source.QUALIFYING).exists():
        raise ServiceError(
            TournamentsError.PLAYOFF_CUT,
            _("The playoff bracket was cut from these results: a result can no longer be undone."),
        )
    rounds = list(event.rounds.order_by("-number"))
    with_results = GameResult.objects.exclude(kind=GameResult.Kind.BYE)
    played = next((r for r in rounds if with_results.filter(table__round=r).exists()), None)
    if played is None:
        raise ServiceError(TournamentsError.NO_RESULTS, _("There is no result to undo."))
    later = [r for r in rounds if r.number > played.number]
    released = [r for r in later if not r.is_draft]
    if released:
        raise ServiceError(
            TournamentsError.LATER_GAME_RELEASED,
            _(
                "Game %(later)s is already released and its draw counted the results of game "
                "%(game)s: correct the result instead."
            )
            % {"later": released[-1].number, "game": played.number},
        )
    result = (
        GameResult.objects.select_for_update(of=("self",))
        .filter(table__round=played)
        .exclude(kind=GameResult.Kind.BYE)
        .order_by("-entered_at", "-pk")
        .first()
    )
    assert result is not None  # found above, under the event's lock
    table = Table.objects.select_related(
        "round", "seat_a__player", "seat_a__partner", "seat_b__player", "seat_b__partner"
    ).get(pk=result.table_id)
    old = audit_values(result, table)
    draft_removed = None
    for draft in later:  # at most one: a draft is always the latest game
        draft_removed = draft.number
        draft.delete()
    result.delete()
    append_audit(
        event,
        [
            AuditEntry(
                event=event,
                table=table,
                user=acting_user(user),
                actor=actor_name(user),
                action="undone",
                old=old,
                new=None,
                reason=(reason or "").strip()[:300]
                or _("Undone: %(result)s") % {"result": describe_result(old)},
            )
        ],
    )
    hooks.result_removed(event.pk, table.pk)
    hooks.results_changed(event.pk)
    return UndoneResult(table=table, old=old, draft_removed=draft_removed)
