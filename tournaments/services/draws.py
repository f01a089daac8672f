"""Drawing the games (rounds) of an event: the next one, again, released, seats swapped.

What differs between game kinds (how tables are seated, when a round is complete) is asked
of the event's kind (``tournaments.kinds``); the order of rounds, drafts and releases is the
same for every kind and lives here, once.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments import hooks
from tournaments import pairing_bridge as bridge
from tournaments.kinds import GameKind
from tournaments.models import Entry, Event, Round, new_seed

from ..error_codes import TournamentsError
from ._common import locked_event


def next_round_number(event: Event, kind: GameKind) -> int:
    """The number of the next round, once the previous one is released and complete."""
    last = event.rounds.order_by("-number").first()
    number = 1 if last is None else last.number + 1
    words = kind.messages
    if number > event.games_planned:
        raise ServiceError(
            TournamentsError.ALL_GAMES_DRAWN, str(words.all_drawn) % {"n": event.games_planned}
        )
    if last is not None:
        if last.is_draft:
            raise ServiceError(
                TournamentsError.PREVIOUS_GAME_DRAFT, str(words.previous_draft) % {"n": last.number}
            )
        waiting = kind.open_tables(last)
        if waiting:
            raise ServiceError(
                TournamentsError.PREVIOUS_GAME_OPEN,
                str(words.previous_open)
                % {"n": last.number, "tables": ", ".join(str(t.number) for t in waiting)},
            )
    return number


def _started(event: Event) -> None:
    if event.status == Event.Status.DRAFT:
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])


@transaction.atomic
def draw_next_game(event: Event, *, draft: bool = False) -> Round:
    """Seat the next game for the checked-in, active entries, as the event's kind seats it.

    The first draw starts a draft event. The previous game must be released and complete.
    With ``draft`` the seating is the TD's to check, swap and draw again before
    :func:`release_game` shows it to the players; without it the game is released at once (a
    club night's usual flow). The draw is reproducible: its seed is stored on the game.
    """
    event = locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError(TournamentsError.EVENT_FINISHED, _("The event has finished."))
    if event.playoff_only:
        raise ServiceError(
            TournamentsError.PLAYOFF_ONLY,
            _("%(kind)s: no qualifying games are drawn; draw the playoff instead.")
            % {"kind": event.get_kind_display()},
        )
    kind = event.game_kind
    round_ = kind.draw(event, next_round_number(event, kind), draft=draft)
    _started(event)
    return round_


@transaction.atomic
def redraw_game(round_: Round) -> Round:
    """Throw away the latest game's seating and draw it again from a new seed, recorded on
    the game (a draft stays a draft).

    Refused once the game has a played result (a released game with results is never
    redrawn) or a player's report or dispute at the results desk (the redraw would delete it).
    Refused too, with the reason (code ``same_draw``), when the new draw seats everyone as
    before (a Swiss game after the first follows the standings, a qualifying game after the
    first the table movement): the game is left as it was, seed and all.
    """
    event = locked_event(round_.event)
    kind = event.game_kind
    latest = event.rounds.order_by("-number").first()
    if latest is None or latest.pk != round_.pk:
        raise ServiceError(TournamentsError.NOT_LATEST_GAME, str(kind.messages.not_latest))
    if event.status == Event.Status.FINISHED:
        raise ServiceError(TournamentsError.EVENT_FINISHED, _("The event has finished."))
    if kind.has_results(latest):
        raise ServiceError(
            TournamentsError.GAME_HAS_RESULTS, str(kind.messages.has_results) % {"n": latest.number}
        )
    if hooks.desk_marks(event.pk, latest.pk).tables:
        # A redraw deletes the tables, and with them the players' reports and disputes.
        raise ServiceError(
            TournamentsError.GAME_HAS_REPORTS,
            _(
                "Players have reported results of %(round)s: settle them at the results desk "
                "before drawing it again."
            )
            % {"round": kind.round_label(latest.number)},
        )
    draft, number = latest.is_draft, latest.number
    before = kind.seating(latest)
    latest.delete()
    for _attempt in range(REDRAW_ATTEMPTS):
        round_ = kind.draw(event, number, draft=draft, seed=_new_seed(latest.seed))
        if before is None or kind.seating(round_) != before:
            hooks.results_changed(event.pk)
            return round_
        if not kind.seed_matters(event, round_):
            break  # the standings, the movement or the schedule seat it: every seed alike
        # A small field can draw the same seating by chance: try another seed.
        round_.delete()
    # Raising rolls the deletion back: the game stays as it was, with its own seed.
    raise ServiceError(TournamentsError.SAME_DRAW, kind.same_draw_reason(event, number))


# Seeds a game drawn again tries before saying no other seating keeps the rules. Four players
# have three seatings: twenty seeds all drawing the one already there is a chance of 1 in
# 3.5 billion. Only a draw that gave the same seating is tried again, so a large field (where
# that never happens) and a seating the seed does not choose cost one draw.
REDRAW_ATTEMPTS = 20


def _new_seed(old: int) -> int:
    """A fresh seed for a game drawn again, never the one it had."""
    while (seed := new_seed()) == old:
        pass
    return seed


@transaction.atomic
def release_game(round_: Round) -> Round:
    """Show a draft game to the players: results can be entered, byes are scored.

    Refused when the draft seats a withdrawn or absent player or leaves an active one out
    (draw it again or swap seats first).
    """
    event = locked_event(round_.event)
    kind = event.game_kind
    round_ = Round.objects.select_for_update().get(pk=round_.pk, event=event)
    if not round_.is_draft:
        raise ServiceError(
            TournamentsError.ALREADY_RELEASED,
            str(kind.messages.already_released) % {"n": round_.number},
        )
    if kind.seated(round_) != {e.pk for e in bridge.active_entries(event)}:
        raise ServiceError(
            TournamentsError.DRAFT_FIELD_CHANGED,
            str(kind.messages.field_changed) % {"n": round_.number},
        )
    round_.status = Round.Status.RELEASED
    round_.released_at = timezone.now()
    round_.save(update_fields=["status", "released_at"])
    if kind.on_release(round_):
        hooks.results_changed(event.pk)
    return round_


@transaction.atomic
def swap_seats(
    round_: Round, player_a: Entry | int, player_b: Entry | int, *, confirm: bool = False
) -> tuple[Round, list[str]]:
    """Swap two seats of a draft game by hand; returns the game and what the swap breaks.

    A swap that breaks nothing is applied at once. One that seats a repeat, a forbidden pair or
    an unfair bye is refused with code ``swap_needs_confirmation`` (the problems in the
    message) unless ``confirm`` is given; the problems are then kept as the game's notes.
    """
    event = locked_event(round_.event)
    round_ = Round.objects.select_for_update().get(pk=round_.pk, event=event)
    if not round_.is_draft:
        raise ServiceError(
            TournamentsError.ROUND_RELEASED,
            _("Game %(n)s is released: seats can only be swapped in a draft.")
            % {"n": round_.number},
        )
    a = player_a.pk if isinstance(player_a, Entry) else player_a
    b = player_b.pk if isinstance(player_b, Entry) else player_b
    if not event.entries.filter(pk__in=[a, b]).count() == len({a, b}):
        raise ServiceError(
            TournamentsError.UNKNOWN_PLAYER,
            _("Choose two players of this event."),
            field="player_a",
        )
    seating, problems = bridge.swap_in_round(round_, a, b)
    if problems and not confirm:
        raise ServiceError(
            TournamentsError.SWAP_NEEDS_CONFIRMATION,
            _("This swap breaks the rules: %(problems)s Confirm to swap anyway.")
            % {"problems": " ".join(problems)},
            field="confirm",
        )
    bridge.rewrite_tables(round_, seating, problems)
    return round_, problems
