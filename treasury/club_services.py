"""Writes of a club's books settings: its money defaults, its payout table, its side pools and
its treasurers. Each function is one transaction and leaves a row in the club's own money
log (:class:`~treasury.models.ClubAudit`: a club is not an event, so these changes are not in
an event's chained log, as a league's are not either).

The nights' money (fees, the door, stakes, winners, the close) stays in ``services``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from books.payouts import PayoutTable
from books.pools import MAIN_POT
from core.errors import ServiceError
from tournaments.models import Club
from tournaments.services._common import UserLike

from . import selectors, services
from .club import audit_club_money
from .error_codes import TreasuryError
from .models import ClubMoney, ClubRole, ClubStaff, PayoutTableRow, SidePool
from .payout_tables import PayoutTableRefused, check_rows, rows_data, stored_percents


def _lock(club: Club) -> Club:
    """The club under a row lock: two editors of its settings save one after the other."""
    return Club.objects.select_for_update().get(pk=club.pk)


# --- The money defaults --------------------------------------------------------------------------


@transaction.atomic
def save_club_money(club: Club, *, user: UserLike = None, **values: Any) -> ClubMoney:
    """Change the club's money defaults (``services.set_club_money`` checks them and logs
    what changed); the model's own refusals are a 400 too."""
    club = _lock(club)
    try:
        settings = services.set_club_money(club, user=user, **values)
    except ValidationError as exc:  # the model's own checks (full_clean): a 400, never a 500
        field, errors = next(iter(getattr(exc, "message_dict", {"": exc.messages}).items()))
        raise ServiceError(
            TreasuryError.BAD_MONEY, " ".join(errors), field=field if field in values else None
        ) from None
    return settings


# --- The payout table ----------------------------------------------------------------------------


@transaction.atomic
def set_payout_table(
    club: Club, rows: Sequence[Any], *, user: UserLike = None, reason: str = ""
) -> PayoutTable:
    """Replace the club's payout table with ``rows`` (``[{"min_entrants": 1, "percents":
    ["100"]}, ...]``; none: the built-in table), checked field by field
    (``payout_tables.check_rows``: every problem, the first as the error). Audited."""
    table, problems = check_rows(rows)
    if problems:
        raise PayoutTableRefused(problems)
    club = _lock(club)
    old = selectors.stored_table_rows(club)
    new = rows_data(table)
    if old == new:
        return table
    PayoutTableRow.objects.filter(club=club).delete()
    PayoutTableRow.objects.bulk_create(
        PayoutTableRow(club=club, min_entrants=row.min_entrants, percents=stored_percents(row))
        for row in table.rows
    )
    audit_club_money(club, user, "payout_table_set", old, new, reason=reason)
    return table


# --- Side pools ----------------------------------------------------------------------------------


def _pool_values(pool: SidePool) -> dict[str, Any]:
    return {"name": pool.name, "fee": str(pool.fee), "active": pool.active}


@transaction.atomic
def add_pool(
    club: Club, name: str, kind: str, fee: Any, *, user: UserLike = None, **options: Any
) -> SidePool:
    """Add a side pool to the club (``services.create_pool`` checks it). Audited."""
    if kind not in SidePool.Kind.values:
        raise ServiceError(TreasuryError.UNKNOWN_POOL, _("No such kind of pool."), field="kind")
    club = _lock(club)
    return services.create_pool(club, name, kind, fee, user=user, **options)


@transaction.atomic
def update_pool(
    club: Club,
    pool_id: int,
    *,
    user: UserLike = None,
    name: str | None = None,
    fee: Any = None,
    active: bool | None = None,
) -> SidePool:
    """Rename a club's side pool, change its default fee, retire it (``active`` False: no
    more nights run it; its balance stays until a night settles it) or bring it back.
    Audited."""
    club = _lock(club)
    pool = SidePool.objects.select_for_update().filter(club=club, pk=pool_id).first()
    if pool is None:
        raise ServiceError(
            TreasuryError.UNKNOWN_POOL, _("No such pool in this club."), field="pool"
        )
    old = _pool_values(pool)
    if name is not None:
        name = name.strip()
        taken = SidePool.objects.filter(club=club, name=name).exclude(pk=pool.pk).exists()
        if not name or len(name) > 60 or name == MAIN_POT or taken:
            raise ServiceError(
                TreasuryError.UNKNOWN_POOL, _("Give the pool a name of its own."), field="name"
            )
        pool.name = name
    if fee is not None:
        pool.fee = services.as_money(fee, "fee")
    if active is not None:
        pool.active = bool(active)
    selectors.pool_rule(pool, pool.fee, selectors.club_money(club).coin)  # the books check it
    new = _pool_values(pool)
    if new != old:
        pool.save(update_fields=["name", "fee", "active"])
        audit_club_money(club, user, "pool_changed", old, new)
    return pool


# --- Treasurers ----------------------------------------------------------------------------------


@transaction.atomic
def set_treasurer(club: Club, username: str, *, on: bool = True, user: UserLike = None) -> None:
    """Name ``username`` a treasurer of the club (``on``) or take the role back; for a TD of
    the club only (the caller checks). Audited by ``services.set_club_role``."""
    services.set_club_role(club, username, ClubRole.TREASURER, on=on, by=user)


@dataclass(frozen=True)
class Appointment:
    """A treasurer appointed: the account, whether it was made now, and the path of its
    set-password link ("" when the account already has a password)."""

    user: User
    created: bool
    set_password_path: str


def set_password_path(account: User) -> str:
    """The path of a link that lets ``account`` choose a password (Django's password reset
    confirmation, valid for ``PASSWORD_RESET_TIMEOUT``; used once, it no longer works)."""
    return reverse(
        "password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(account.pk)),
            "token": default_token_generator.make_token(account),
        },
    )


def _free_username(email: str) -> str:
    base = re.sub(r"[^\w.@+-]", "", email.split("@")[0])[:140] or "treasurer"
    accounts = get_user_model().objects
    candidate, n = base, 1
    while accounts.filter(username__iexact=candidate).exists():
        n += 1
        candidate = f"{base}{n}"
    return candidate


@transaction.atomic
def appoint_treasurer(club: Club, *, name: str, email: str, user: UserLike = None) -> Appointment:
    """Make the person with ``email`` a treasurer of the club: their account if one has that
    address, else a new account (no password yet: the set-password link lets them choose one).
    For a TD of the club only (the caller checks). Audited."""
    name, email = (name or "").strip(), (email or "").strip()
    if not name or len(name) > 150:
        raise ServiceError(
            TreasuryError.BAD_TREASURER, _("Give the treasurer's name."), field="name"
        )
    try:
        validate_email(email)
    except ValidationError:
        raise ServiceError(
            TreasuryError.BAD_TREASURER, _("Give the treasurer's e-mail address."), field="email"
        ) from None
    club = _lock(club)
    accounts = get_user_model().objects
    account = accounts.filter(email__iexact=email, is_active=True).order_by("pk").first()
    created = account is None
    if account is None:
        first, _space, last = name.partition(" ")
        account = accounts.create(
            username=_free_username(email),
            email=email,
            first_name=first[:150],
            last_name=last[:150],
        )
        account.set_unusable_password()
        account.save(update_fields=["password"])
    _staff, named = ClubStaff.objects.get_or_create(
        club=club, user=account, role=ClubRole.TREASURER
    )
    if named:
        audit_club_money(
            club,
            user,
            "staff_added",
            None,
            {
                "role": ClubRole.TREASURER.value,
                "user": account.get_username(),
                "name": name,
                "email": email,
                "new_account": created,
            },
        )
    path = "" if account.has_usable_password() else set_password_path(account)
    return Appointment(account, created, path)


def mail_set_password_link(account: User, club: Club, url: str) -> bool:
    """Send ``account`` the link to choose a password (``EMAIL_BACKEND``); whether it went.
    A mail server that is down does not undo the appointment: the TD has the link too."""
    subject = _("Pegboard: you keep the books of %(club)s") % {"club": club.name}
    body = _(
        "You are now a treasurer of %(club)s on Pegboard.\n\n"
        "Choose your password here (the link works once, for a few days):\n%(url)s\n\n"
        "Your username: %(username)s"
    ) % {"club": club.name, "url": url, "username": account.get_username()}
    try:
        send_mail(subject, body, None, [account.email])
    except OSError:  # smtplib's errors are OSErrors: a refused connection, a timeout
        return False
    return True
