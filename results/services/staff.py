"""The club's scorekeepers: users who enter and check results but do not run the club."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments.models import Club
from tournaments.services.clubs import find_user

from ..error_codes import ResultsError
from ..models import Scorekeeper


@transaction.atomic
def add_scorekeeper(club: Club, who: str) -> User:
    """Make an existing user (by username or email) a scorekeeper of the club."""
    user = find_user(who)
    _row, created = Scorekeeper.objects.get_or_create(club=club, user=user)
    if not created:
        raise ServiceError(
            ResultsError.ALREADY_SCOREKEEPER,
            _("%(user)s already keeps score for this club.") % {"user": user.get_username()},
            field="who",
        )
    return user


@transaction.atomic
def remove_scorekeeper(club: Club, user_id: int) -> None:
    """Take a user off the club's scorekeepers."""
    deleted, _rows = Scorekeeper.objects.filter(club=club, user_id=user_id).delete()
    if not deleted:
        raise ServiceError(
            ResultsError.NOT_SCOREKEEPER, _("That user does not keep score for this club.")
        )
