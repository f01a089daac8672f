"""The club's players: renaming one, merging two records of the same person."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments import hooks, names, selectors
from tournaments.leagues import services as leagues
from tournaments.models import Club, Entry, Event, Player

from ..error_codes import TournamentsError


def _club_player(club: Club, player: Player | int, *, field: str) -> Player:
    pk = player.pk if isinstance(player, Player) else player
    if not selectors.club_managed_players(club).filter(pk=pk).exists():
        raise ServiceError(
            TournamentsError.UNKNOWN_PLAYER, _("Choose one of the club's players."), field=field
        )
    return Player.objects.select_for_update().get(pk=pk)


def _restand(events) -> None:
    # The standings show players by name; a new results version re-renders them.
    for event_id in events:
        hooks.results_changed(event_id)


@transaction.atomic
def rename_player(club: Club, player: Player | int, name: str) -> Player:
    """Correct the spelling of one of the club's players' names."""
    player = _club_player(club, player, field="name")
    name = names.clean(name)
    if not name:
        raise ServiceError(
            TournamentsError.NAME_REQUIRED, _("A player needs a name."), field="name"
        )
    if len(name) > 120:
        raise ServiceError(
            TournamentsError.NAME_TOO_LONG, _("At most 120 characters."), field="name"
        )
    if name == player.name:
        return player
    player.name = name
    player.save(update_fields=["name"])
    # Finished events' cached pages expire on their own within the hour; the open ones'
    # standings are re-rendered now.
    _restand(
        Entry.objects.filter(Q(player=player) | Q(partner=player))
        .exclude(event__status=Event.Status.FINISHED)
        .values_list("event_id", flat=True)
        .distinct()
    )
    return player


@transaction.atomic
def merge_players(club: Club, *, keep: Player | int, merged: Player | int) -> Player:
    """Merge two records of one person: ``merged``'s entries (and with them their results,
    keys and standings) move to ``keep``, season ledgers are rebuilt, ``merged`` is deleted.

    Refused when both are entered in the same event (two people, or a mistake to fix there
    first) or when they carry different ACC numbers.
    """
    keep_pk = keep.pk if isinstance(keep, Player) else keep
    merged_pk = merged.pk if isinstance(merged, Player) else merged
    if keep_pk == merged_pk:
        raise ServiceError(
            TournamentsError.SAME_PLAYER, _("Choose two different players."), field="merged"
        )
    # Lock in id order, so two merges of the same pair cannot deadlock.
    first, second = sorted([(keep_pk, "keep"), (merged_pk, "merged")])
    locked = {role: _club_player(club, pk, field=role) for pk, role in (first, second)}
    keep, merged = locked["keep"], locked["merged"]
    # Either as an entry's player or as a team's partner (partners' cribbage).
    shared = (
        Event.objects.filter(Q(entries__player=keep) | Q(entries__partner=keep))
        .filter(pk__in=Event.objects.filter(Q(entries__player=merged) | Q(entries__partner=merged)))
        .first()
    )
    if shared is not None:
        raise ServiceError(
            TournamentsError.BOTH_ENTERED,
            _("%(a)s and %(b)s are both entered in %(event)s: they cannot be one person.")
            % {"a": keep.name, "b": merged.name, "event": shared.name},
            field="merged",
        )
    if keep.acc_number and merged.acc_number and keep.acc_number != merged.acc_number:
        raise ServiceError(
            TournamentsError.DIFFERENT_ACC_NUMBERS,
            _("%(a)s and %(b)s have different ACC numbers (%(x)s, %(y)s).")
            % {"a": keep.name, "b": merged.name, "x": keep.acc_number, "y": merged.acc_number},
            field="merged",
        )
    mine = Entry.objects.filter(Q(player=merged) | Q(partner=merged))
    events = list(mine.values_list("event_id", flat=True))
    Entry.objects.filter(player=merged).update(player=keep)
    Entry.objects.filter(partner=merged).update(partner=keep)
    hooks.players_merged(keep.pk, merged.pk)
    leagues.players_merged(keep, merged)
    acc_number, home_club = merged.acc_number, merged.home_club_id
    merged.delete()  # before the ACC number moves: the number is unique
    update = []
    if not keep.acc_number and acc_number:
        keep.acc_number = acc_number
        update.append("acc_number")
    if keep.home_club_id is None and home_club is not None:
        keep.home_club_id = home_club
        update.append("home_club")
    if update:
        keep.save(update_fields=update)
    _restand(events)
    return keep
