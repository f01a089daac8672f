"""Who is a member of a club on a date, and how far a guest is along the ACC guest rule.

The guest rule (issue 27; Plumas News in ``docs/rules/acc-mrp.md``): a guest plays the nights
the club allows (4 by default) or until a qualifying card, a night of the club's game points
(12 by default), then must join. Nights are counted in the season the date falls in (the
ACC's September to May), up to and including the date: at the door, before tonight's first
game, tonight is not counted yet.

Who is a member: a :class:`~tournaments.models.Membership` of the club covering the date (a
member who has not renewed for the new season is a guest in it). A club that keeps no roll at
all in Pegboard falls back on the player's own status (``Player.Status``), so the clubs that
never typed their members in keep working as before.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext as _

from .models import Club, Event, GameResult, Membership, Player, Table


def season_dates(on: datetime.date) -> tuple[datetime.date, datetime.date]:
    """September 1 to May 31 of the season ``on`` falls in (summer belongs to the next), the
    same reading as ``scoring.seasons.default_dates``."""
    first_year = on.year if on.month >= 6 else on.year - 1
    return datetime.date(first_year, 9, 1), datetime.date(first_year + 1, 5, 31)


@dataclass(frozen=True, slots=True)
class GuestStatus:
    """A player at the door: a member, or a guest with the nights played so far."""

    is_member: bool
    nights_played: int = 0
    nights_allowed: int = 4
    best_game_points: int = 0
    card_points: int = 12
    membership_id: int | None = None

    @property
    def qualifying_card(self) -> bool:
        """Whether the guest has had a night of the club's qualifying game points."""
        return self.best_game_points >= self.card_points

    @property
    def must_join(self) -> bool:
        """A guest who played the allowed nights or earned a qualifying card must join now."""
        return not self.is_member and (
            self.nights_played >= self.nights_allowed or self.qualifying_card
        )

    @property
    def label(self) -> str:
        """What the door's badge says: "Member", "Guest 3/4" or "Must join"."""
        if self.is_member:
            return _("Member")
        if self.must_join:
            return _("Must join")
        return _("Guest %(played)s/%(allowed)s") % {
            "played": self.nights_played,
            "allowed": self.nights_allowed,
        }

    @property
    def reason(self) -> str:
        """Why a guest must join, in words (empty otherwise)."""
        if not self.must_join:
            return ""
        if self.qualifying_card:
            return _("a qualifying card: %(gp)s game points in one night") % {
                "gp": self.best_game_points
            }
        return _("played %(played)s nights of the %(allowed)s a guest may play") % {
            "played": self.nights_played,
            "allowed": self.nights_allowed,
        }


def member_ids(club: Club, player_ids: Iterable[int], on: datetime.date) -> set[int]:
    """The players among ``player_ids`` who are members of ``club`` on ``on`` (two queries):
    by the club's roll, or by the players' status when the club keeps none."""
    ids = set(player_ids)
    if not ids:
        return set()
    if Membership.objects.filter(club=club).exists():
        covering = Membership.objects.filter(
            club=club, player_id__in=ids, season_start__lte=on, season_end__gte=on
        )
        return set(covering.values_list("player_id", flat=True))
    return set(
        Player.objects.filter(pk__in=ids, status=Player.Status.MEMBER).values_list("pk", flat=True)
    )


def members_between(
    club: Club, player_ids: Iterable[int], start: datetime.date, end: datetime.date
) -> set[int]:
    """The players among ``player_ids`` who were members of ``club`` at some time between
    ``start`` and ``end`` (a season's table lists them apart from its guests); by the players'
    status when the club keeps no roll."""
    ids = set(player_ids)
    if not ids:
        return set()
    if Membership.objects.filter(club=club).exists():
        overlapping = Membership.objects.filter(
            club=club, player_id__in=ids, season_start__lte=end, season_end__gte=start
        )
        return set(overlapping.values_list("player_id", flat=True))
    return set(
        Player.objects.filter(pk__in=ids, status=Player.Status.MEMBER).values_list("pk", flat=True)
    )


def guest_statuses(
    club: Club, player_ids: Iterable[int], on: datetime.date
) -> dict[int, GuestStatus]:
    """Each player's :class:`GuestStatus` at ``club`` on ``on``, in a few queries."""
    ids = set(player_ids)
    members = member_ids(club, ids, on)
    memberships = dict(
        Membership.objects.filter(
            club=club, player_id__in=members, season_start__lte=on, season_end__gte=on
        ).values_list("player_id", "pk")
    )
    guests = ids - members
    start, _end = season_dates(on)
    nights: defaultdict[int, set[int]] = defaultdict(set)
    points: defaultdict[tuple[int, int], int] = defaultdict(int)
    if guests:
        played = Table.objects.filter(
            round__event__club=club,
            round__event__date__gte=start,
            round__event__date__lte=on,
        ).exclude(round__event__status=Event.Status.CANCELLED)
        for seat in ("seat_a", "seat_b"):
            seated = played.filter(**{f"{seat}__player_id__in": guests})
            for player_id, event_id in seated.values_list(f"{seat}__player_id", "round__event_id"):
                nights[player_id].add(event_id)
        results = GameResult.objects.filter(
            table__round__event__club=club,
            table__round__event__date__gte=start,
            table__round__event__date__lte=on,
        ).exclude(table__round__event__status=Event.Status.CANCELLED)
        for player_id, event_id, gp in results.filter(winner__player_id__in=guests).values_list(
            "winner__player_id", "table__round__event_id", "winner_points"
        ):
            points[(player_id, event_id)] += gp
        for player_id, event_id, gp in results.filter(Q(loser__player_id__in=guests)).values_list(
            "loser__player_id", "table__round__event_id", "loser_points"
        ):
            points[(player_id, event_id)] += gp
    best: defaultdict[int, int] = defaultdict(int)
    for (player_id, _event), gp in points.items():
        best[player_id] = max(best[player_id], gp)
    return {
        pk: GuestStatus(
            is_member=pk in members,
            nights_played=len(nights[pk]),
            nights_allowed=club.guest_nights_allowed,
            best_game_points=best[pk],
            card_points=club.qualifying_card_points,
            membership_id=memberships.get(pk),
        )
        for pk in ids
    }


def guest_status(club: Club, player: Player, on: datetime.date) -> GuestStatus:
    """Whether ``player`` is a member of ``club`` on ``on``, or a guest: the nights played so
    far in the season, and whether they must join now (the ACC guest rule)."""
    return guest_statuses(club, [player.pk], on)[player.pk]


def door_statuses(event: Event) -> dict[int, GuestStatus]:
    """The guest status of every entry of ``event`` on its date, by entry id (the door's
    badges)."""
    pairs = list(event.entries.values_list("pk", "player_id"))
    found = guest_statuses(event.club, [player for _pk, player in pairs], event.date)
    return {pk: found[player] for pk, player in pairs}


def club_memberships(club: Club, on: datetime.date | None = None):
    """The club's memberships, newest season first; only those covering ``on`` when given."""
    rows = Membership.objects.filter(club=club).select_related("player")
    if on is not None:
        rows = rows.filter(season_start__lte=on, season_end__gte=on)
    return rows.order_by("-season_start", "player__name_folded")
