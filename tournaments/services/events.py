"""The event itself: its format, ranking chain, publication, finish; match-point formats."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from pegboard.errors import ServiceError
from tournaments import hooks
from tournaments.models import Event, MatchPointFormat

from ._common import locked_event


@transaction.atomic
def set_event_format(
    event: Event,
    *,
    kind: str,
    pairing: str,
    meetings_per_opponent: int,
    games_planned: int,
    confirmation: str = "",
) -> Event:
    """Set the kind of event, the pairing method, games per opponent and the number of games;
    and, when given, how the players' reports are confirmed (:class:`Event.Confirmation`)."""
    event = locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError("event_finished", _("The event has finished."))
    if kind not in Event.Kind.values:
        raise ServiceError("bad_kind", _("Unknown kind of event."), field="kind")
    if pairing not in Event.Pairing.values:
        raise ServiceError("bad_pairing", _("Unknown pairing method."), field="pairing")
    if meetings_per_opponent not in (1, 2):
        raise ServiceError(
            "bad_meeting_limit",
            _("Players meet once or twice per event."),
            field="meetings_per_opponent",
        )
    drawn = event.rounds.count()
    if not max(1, drawn) <= games_planned <= 40:
        raise ServiceError(
            "bad_games_planned",
            _("The number of games must be between %(low)s and 40.") % {"low": max(1, drawn)},
            field="games_planned",
        )
    if confirmation and confirmation not in Event.Confirmation.values:
        raise ServiceError(
            "bad_confirmation", _("Unknown way to confirm reports."), field="confirmation"
        )
    event.kind, event.pairing = kind, pairing
    event.meetings_per_opponent, event.games_planned = meetings_per_opponent, games_planned
    event.confirmation = confirmation or event.confirmation
    event.save(
        update_fields=["kind", "pairing", "meetings_per_opponent", "games_planned", "confirmation"]
    )
    return event


@transaction.atomic
def finish_event(event: Event) -> Event:
    """Close the event once every drawn game is complete."""
    event = locked_event(event)
    kind = event.game_kind
    last = event.rounds.order_by("-number").first()
    if last is not None and last.is_draft:
        raise ServiceError(
            "previous_game_draft", str(kind.messages.previous_draft) % {"n": last.number}
        )
    if last is not None and kind.open_tables(last):
        raise ServiceError("previous_game_open", _("Some tables still have no result."))
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status"])
    hooks.results_changed(event.pk)
    return event


@transaction.atomic
def set_standings_published(event: Event, published: bool) -> Event:
    """Show or hide the standings on the public pages (the TD always sees them)."""
    event = locked_event(event)
    event.standings_published = published
    event.save(update_fields=["standings_published"])
    return event


@transaction.atomic
def set_ranking_chain(event: Event, keys: list[str]) -> Event:
    """Set the event's tiebreakers, in order (those its game kind allows), and re-rank."""
    event = locked_event(event)
    try:
        event.tiebreakers = list(
            event.game_kind.validate_chain(k.strip() for k in keys if k.strip())
        )
    except ValueError as exc:
        raise ServiceError("bad_ranking_chain", str(exc), field="tiebreakers") from None
    event.save(update_fields=["tiebreakers"])
    hooks.results_changed(event.pk)
    return event


@transaction.atomic
def copy_format(fmt, *, club=None):
    """A new, editable format with the same points as ``fmt`` (code gets a -copy suffix)."""
    base = f"{fmt.code}-copy"[:36]
    code, n = base, 1
    while MatchPointFormat.objects.filter(code=code).exists():
        n += 1
        code = f"{base}-{n}"
    return MatchPointFormat.objects.create(
        code=code,
        name=f"{fmt.name} (copy)"[:100],
        club=club or fmt.club,
        win=fmt.win,
        skunk=fmt.skunk,
        double_skunk=fmt.double_skunk,
        triple_skunk=fmt.triple_skunk,
        triple_skunk_wins_match=fmt.triple_skunk_wins_match,
        forfeit_points=fmt.forfeit_points,
        forfeit_spread=fmt.forfeit_spread,
        bye_points=fmt.bye_points,
        bye_spread=fmt.bye_spread,
    )
