"""A club's members: a membership per season (ACC number, dues, since when), and the club's
guest rule (the nights a guest may play, the game points of a qualifying card)."""

from __future__ import annotations

import datetime
from decimal import Decimal, InvalidOperation

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments.models import ACC_NUMBER, Club, Membership, Player

from ..error_codes import TournamentsError
from ..selectors_members import season_dates

MAX_GUEST_NIGHTS = 52  # a guest rule of more than a year of weekly nights is a typing error
MAX_CARD_POINTS = 200


def check_acc_number(value: str, *, required: bool = False) -> str:
    """The ACC member number, stripped; a :class:`ServiceError` (``bad_acc_number``) when it
    is not in the ACC's format (the same one the roster import recognises)."""
    value = (value or "").strip()
    if (required or value) and not ACC_NUMBER.match(value):
        raise ServiceError(
            TournamentsError.BAD_ACC_NUMBER,
            _("%(value)s is not an ACC member number (digits, optionally after a letter prefix).")
            % {"value": value or "''"},
            field="acc_number",
        )
    return value


def _money(value: Decimal | str | int) -> Decimal:
    try:
        amount = Decimal(str(value)).quantize(Decimal("0.01"))
    except (InvalidOperation, ValueError):
        amount = Decimal(-1)
    if amount < 0:
        raise ServiceError(
            TournamentsError.BAD_MEMBERSHIP,
            _("Dues paid are an amount of 0 or more."),
            field="dues_paid",
        )
    return amount


@transaction.atomic
def save_membership(
    club: Club,
    player: Player,
    *,
    acc_number: str,
    dues_paid: Decimal | str | int = Decimal("0"),
    paid_on: datetime.date | None = None,
    member_since: datetime.date | None = None,
    season_start: datetime.date | None = None,
    season_end: datetime.date | None = None,
    membership: Membership | None = None,
) -> Membership:
    """Make ``player`` a member of ``club`` for a season (September to May of today's date
    unless told), or change ``membership``. The ACC number is checked and given to the
    player when they have none (refused when another player holds it)."""
    number = check_acc_number(acc_number, required=True)
    if player.home_club_id not in (None, club.pk):
        raise ServiceError(
            TournamentsError.NOT_CLUB_PLAYER,
            _("%(name)s is a player of another club.") % {"name": player.name},
            field="player",
        )
    holder = Player.objects.filter(acc_number=number).exclude(pk=player.pk).first()
    if holder is not None:
        raise ServiceError(
            TournamentsError.ACC_NUMBER_TAKEN,
            _("ACC number %(number)s belongs to %(name)s.")
            % {"number": number, "name": holder.name},
            field="acc_number",
        )
    if season_start is None or season_end is None:
        season_start, season_end = season_dates(season_start or datetime.date.today())
    if season_end < season_start:
        raise ServiceError(
            TournamentsError.BAD_MEMBERSHIP,
            _("A season cannot end before it starts."),
            field="season_end",
        )
    row = membership or Membership(club=club, player=player)
    row.player = player
    row.season_start, row.season_end = season_start, season_end
    row.acc_number = number
    row.dues_paid = _money(dues_paid)
    row.paid_on, row.member_since = paid_on, member_since
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:
        raise ServiceError(
            TournamentsError.MEMBERSHIP_EXISTS,
            _("%(name)s is already a member for that season.") % {"name": player.name},
            field="player",
        ) from None
    if not player.acc_number:
        player.acc_number = number
        player.save(update_fields=["acc_number"])
    if player.home_club_id is None:
        player.home_club = club
        player.save(update_fields=["home_club"])
    return row


def delete_membership(membership: Membership) -> None:
    """Remove a membership (the player is a guest again for that season)."""
    membership.delete()


def set_guest_rule(club: Club, *, nights: int, card_points: int) -> Club:
    """The club's guest rule: the nights a guest may play and the game points of a qualifying
    card (the ACC's defaults are 4 and 12)."""
    if not 1 <= nights <= MAX_GUEST_NIGHTS:
        raise ServiceError(
            TournamentsError.BAD_GUEST_RULE,
            _("A guest may play between 1 and %(max)s nights.") % {"max": MAX_GUEST_NIGHTS},
            field="guest_nights_allowed",
        )
    if not 1 <= card_points <= MAX_CARD_POINTS:
        raise ServiceError(
            TournamentsError.BAD_GUEST_RULE,
            _("A qualifying card is between 1 and %(max)s game points.") % {"max": MAX_CARD_POINTS},
            field="qualifying_card_points",
        )
    club.guest_nights_allowed, club.qualifying_card_points = nights, card_points
    club.save(update_fields=["guest_nights_allowed", "qualifying_card_points"])
    return club
