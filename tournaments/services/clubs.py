"""The club itself: its name and city, its tournament directors, its defaults for new events."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments import kinds
from tournaments.models import Club, MatchPointFormat

from ..error_codes import TournamentsError


def _locked_club(club: Club) -> Club:
    # Director changes read then write the list (the last TD stays): one at a time per club.
    return Club.objects.select_for_update().get(pk=club.pk)


def find_user(who: str, *, field: str = "who") -> User:
    """The existing user with this username or email (either case); ServiceError if none or
    if several accounts share the email."""
    who = who.strip()
    if not who:
        raise ServiceError(
            TournamentsError.USER_REQUIRED, _("Give a username or an email."), field=field
        )
    users = User.objects.filter(is_active=True)
    found = users.filter(username__iexact=who).first()
    if found is not None:
        return found
    by_email = list(users.filter(email__iexact=who)[:2]) if "@" in who else []
    if len(by_email) > 1:
        raise ServiceError(
            TournamentsError.EMAIL_SHARED,
            _("Several accounts use %(email)s: give the username instead.") % {"email": who},
            field=field,
        )
    if not by_email:
        raise ServiceError(
            TournamentsError.UNKNOWN_USER,
            _("No account has the username or email %(who)s.") % {"who": who},
            field=field,
        )
    return by_email[0]


@transaction.atomic
def update_club(club: Club, *, name: str, city: str = "") -> Club:
    """Rename the club and set its city."""
    club = _locked_club(club)
    name = " ".join(name.split())
    if not name:
        raise ServiceError(TournamentsError.NAME_REQUIRED, _("A club needs a name."), field="name")
    club.name, club.city = name[:120], " ".join(city.split())[:120]
    club.save(update_fields=["name", "city"])
    return club


@transaction.atomic
def add_director(club: Club, who: str) -> User:
    """Make an existing user (by username or email) a tournament director of the club."""
    club = _locked_club(club)
    user = find_user(who)
    if club.directors.filter(pk=user.pk).exists():
        raise ServiceError(
            TournamentsError.ALREADY_DIRECTOR,
            _("%(user)s already directs this club.") % {"user": user.get_username()},
            field="who",
        )
    club.directors.add(user)
    return user


@transaction.atomic
def remove_director(club: Club, user_id: int) -> None:
    """Take a user off the club's directors; the last one stays (a club needs a TD)."""
    club = _locked_club(club)
    if not club.directors.filter(pk=user_id).exists():
        raise ServiceError(TournamentsError.NOT_DIRECTOR, _("That user does not direct this club."))
    if club.directors.count() == 1:
        raise ServiceError(
            TournamentsError.LAST_DIRECTOR,
            _("The club's last tournament director cannot be removed: add another first."),
        )
    club.directors.remove(user_id)


def usable_formats(club: Club):
    """The match-point formats the club's events may use: the built-in ones and its own."""
    return MatchPointFormat.objects.filter(Q(club__isnull=True) | Q(club=club))


def check_format(club: Club, fmt: MatchPointFormat | int | None, *, field: str) -> MatchPointFormat:
    """The format, if the club may use it; ServiceError otherwise."""
    pk = fmt.pk if isinstance(fmt, MatchPointFormat) else fmt
    found = usable_formats(club).filter(pk=pk).first() if pk is not None else None
    if found is None:
        raise ServiceError(
            TournamentsError.BAD_FORMAT, _("Choose one of the club's formats."), field=field
        )
    return found


def check_chain(game: str, keys, *, field: str = "tiebreakers") -> list[str]:
    """The chain validated against the tiebreakers ``game`` allows (empty stays empty)."""
    keys = [k.strip() for k in keys if k and k.strip()]
    if not keys:
        return []
    try:
        return list(kinds.get(game).validate_chain(keys))
    except KeyError:
        raise ServiceError(TournamentsError.BAD_GAME, _("Unknown game."), field="game") from None
    except ValueError as exc:
        raise ServiceError(TournamentsError.BAD_RANKING_CHAIN, str(exc), field=field) from None


@transaction.atomic
def set_club_defaults(
    club: Club, *, match_point_format: MatchPointFormat | int | None = None
) -> Club:
    """The match-point format new events start from (None: the first built-in one)."""
    club = _locked_club(club)
    club.default_match_point_format = (
        None
        if match_point_format is None
        else check_format(club, match_point_format, field="match_point_format")
    )
    club.save(update_fields=["default_match_point_format"])
    return club


@transaction.atomic
def set_club_chain(club: Club, game: str, keys: list[str]) -> Club:
    """The ranking chain new events of ``game`` start from; empty keys: the game's own."""
    club = _locked_club(club)
    if game not in dict(kinds.choices()):
        raise ServiceError(TournamentsError.BAD_GAME, _("Unknown game."), field="game")
    chain = check_chain(game, keys)
    chains = dict(club.default_chains or {})
    if chain and tuple(chain) != tuple(kinds.get(game).default_chain):
        chains[game] = chain
    else:
        chains.pop(game, None)  # the game's own chain: nothing to keep
    club.default_chains = chains
    club.save(update_fields=["default_chains"])
    return club
