"""Teams: two partners entered as one entry, in a kind played by teams of two."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments import selectors
from tournaments.models import Entry, Event, Player

from ..error_codes import TournamentsError
from .entries import enter_player, find_or_make_player


def _club_player(event: Event, pk: int, field: str) -> Player:
    found = selectors.club_players(event.club).filter(pk=pk).first()
    if found is None:
        raise ServiceError(
            TournamentsError.UNKNOWN_PLAYER, _("Choose one of the club's players."), field=field
        )
    return found


@transaction.atomic
def register_team(
    event: Event,
    *,
    name: str = "",
    partner_name: str = "",
    player: int | None = None,
    partner: int | None = None,
    checked_in: bool = True,
    same_as_waiting: bool | None = None,
) -> Entry:
    """Enter two players as one team: each a club player by id, else found by name among the
    club's players, else added. Refused (``services.entries.check_team``) where the kind is
    not played in teams, for one player twice, or for a player already in the event."""
    first = _club_player(event, player, "name") if player else find_or_make_player(event, name=name)
    if partner:
        second = _club_player(event, partner, "partner")
    else:
        try:
            second = find_or_make_player(event, name=partner_name)
        except ServiceError as exc:  # the partner's name, said beside the partner's field
            exc.field = "partner"
            raise
    return enter_player(
        event, first, checked_in=checked_in, partner=second, same_as_waiting=same_as_waiting
    )
