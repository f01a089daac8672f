"""Writes of a club's books settings: its money defaults, its payout table, its side pools and
its treasurers. Each function is one transaction and leaves a row in the club's own money
log (:class:`~treasury.models.ClubAudit`: a club is not an event, so these changes are not in
an event's chained log, as a league's are not either).

The nights' money (fees, the door, stakes, winners, the close) stays in ``services``, which
re-exports the club's writes it always had (``set_club_money``, ``create_pool``,
``set_club_role``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
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
from tournaments.services import acting_user, actor_name
from tournaments.services._common import UserLike

from . import selectors
from .amounts import MAX_FEE, check_coin, check_currency, parse_amount, parse_percent
from .error_codes import TreasuryError
from .models import (
    ClubAudit,
    ClubMoney,
    ClubRole,
    ClubStaff,
    PayoutTableRow,
    RemainderRule,
    SidePool,
    UnpaidRule,
)
from .payout_tables import PayoutTableRefused, check_rows, rows_data, stored_percents


def _lock(club: Club) -> Club:
    """The club under a row lock: two editors of its settings save one after the other."""
    return Club.objects.select_for_update().get(pk=club.pk)


# --- The money defaults, the pools and the staff -------------------------------------------------


REASON_LENGTH = 200


def as_money(value: Any, field: str = "amount", *, most: Decimal = MAX_FEE) -> Decimal:
    """``value`` as a fee-sized amount (``treasury.amounts.parse_amount``), or a ServiceError."""
    return parse_amount(value, field, most=most)


def parse_reason(value: Any) -> str:
    """A reason as said (trimmed), or a ServiceError: text, at most 200 characters."""
    text = value.strip() if isinstance(value, str) else ""
    if value not in (None, "") and not isinstance(value, str):
        raise ServiceError(TreasuryError.BAD_MONEY, _("The reason is text."), field="reason")
    if len(text) > REASON_LENGTH:
        raise ServiceError(
            TreasuryError.BAD_MONEY,
            _("Keep the reason under %(n)s characters.") % {"n": REASON_LENGTH},
            field="reason",
        )
    return text


def audit_club_money(
    club: Club, user: UserLike, action: str, old: Any, new: Any, *, reason: str = ""
) -> ClubAudit:
    """Record a change of the club's money rules (no event's: the club's own log)."""
    return ClubAudit.objects.create(
        club=club,
        user=acting_user(user),
        actor=actor_name(user),
        action=action,
        old=old,
        new=new,
        reason=reason,
    )


# --- The club's settings and pools ---------------------------------------------------------------


@transaction.atomic
def set_club_money(club: Club, *, user: UserLike = None, **values: Any) -> ClubMoney:
    """Change the club's money defaults (currency, coin, entry fee, hold-back, remainder,
    the unpaid rule), each checked field by field; nothing is stored when one is refused."""
    club = _lock(club)
    settings, _created = ClubMoney.objects.select_for_update().get_or_create(club=club)
    old = money_settings(settings)
    if "currency" in values:
        settings.currency = check_currency(values["currency"])
    if "coin" in values:
        settings.coin = check_coin(as_money(values["coin"], "coin", most=MAX_FEE))
    for name in ("entry_fee", "hold_back_per_entrant"):
        if name in values:
            setattr(settings, name, as_money(values[name], name))
    if "hold_back_percent" in values:
        settings.hold_back_percent = parse_percent(values["hold_back_percent"], "hold_back_percent")
    for name, choices, code in (
        ("remainder_to", RemainderRule, TreasuryError.BAD_MONEY),
        ("unpaid_rule", UnpaidRule, TreasuryError.BAD_UNPAID_RULE),
    ):
        if name in values:
            if values[name] not in choices.values:
                raise ServiceError(
                    code,
                    _("Choose one of: %(choices)s.") % {"choices": ", ".join(choices.values)},
                    field=name,
                )
            setattr(settings, name, values[name])
    if "hold_back_name" in values:
        name = values["hold_back_name"]
        if not isinstance(name, str) or len(name.strip()) > 60:
            raise ServiceError(
                TreasuryError.BAD_MONEY, _("A name of up to 60 characters."), field="hold_back_name"
            )
        settings.hold_back_name = name.strip()
    fee = settings.entry_fee
    if fee and settings.coin > fee:
        raise ServiceError(
            TreasuryError.BAD_COIN,
            _("The smallest coin is more than the entry fee: prizes could not be paid."),
            field="coin",
        )
    if fee and settings.hold_back_per_entrant > fee:
        raise ServiceError(
            TreasuryError.BAD_MONEY,
            _("More would be held back per player than the entry fee."),
            field="hold_back_per_entrant",
        )
    try:
        settings.full_clean(exclude=["club", "main_balance"])
    except ValidationError as exc:  # the model's own checks: a 400 naming the field, never a 500
        field, errors = next(iter(getattr(exc, "message_dict", {"": exc.messages}).items()))
        raise ServiceError(
            TreasuryError.BAD_MONEY, " ".join(errors), field=field if field in values else None
        ) from None
    settings.save()
    new = money_settings(settings)
    if old != new:
        changed = {key for key in new if old.get(key) != new[key]}
        audit_club_money(
            club,
            user,
            "club_money_set",
            {k: old[k] for k in sorted(changed)},
            {k: new[k] for k in sorted(changed)},
            reason=parse_reason(values.get("reason")),
        )
    return settings


def money_settings(settings: ClubMoney) -> dict[str, str]:
    """The club's money settings as text (what the log keeps before and after a change)."""
    return {
        "currency": settings.currency,
        "coin": str(settings.coin),
        "entry_fee": str(settings.entry_fee),
        "hold_back_name": settings.hold_back_name,
        "hold_back_per_entrant": str(settings.hold_back_per_entrant),
        "hold_back_percent": str(settings.hold_back_percent),
        "remainder_to": settings.remainder_to,
        "unpaid_rule": settings.unpaid_rule,
    }


@transaction.atomic
def set_club_role(
    club: Club, username: str, role: str, *, on: bool = True, by: UserLike = None
) -> ClubStaff:
    """Give ``username`` a money role at the club (``on``) or take it back. Only a TD of the
    club may call this (the view checks); a treasurer does not appoint treasurers."""
    if role not in ClubRole.values:
        raise ServiceError(TreasuryError.UNKNOWN_ROLE, _("No such role."), field="role")
    user = get_user_model().objects.filter(username=username.strip(), is_active=True).first()
    if user is None:
        raise ServiceError(TreasuryError.UNKNOWN_USER, _("No such user."), field="username")
    if on:
        staff, created = ClubStaff.objects.get_or_create(club=club, user=user, role=role)
        if created:
            audit_club_money(club, by, "staff_added", None, {"role": role, "user": username})
        return staff
    staff = ClubStaff.objects.filter(club=club, user=user, role=role).first() or ClubStaff(
        club=club, user=user, role=role
    )
    if ClubStaff.objects.filter(club=club, user=user, role=role).delete()[0]:
        audit_club_money(club, by, "staff_removed", {"role": role, "user": username}, None)
    return staff


@transaction.atomic
def create_pool(
    club: Club, name: str, kind: str, fee: Any, *, user: UserLike = None, **options: Any
) -> SidePool:
    """Add a side pool to the club (balance 0); ``options``: share, ratios, percents, rules.
    Audited in the club's log."""
    if kind not in SidePool.Kind.values:
        raise ServiceError(TreasuryError.UNKNOWN_POOL, _("No such kind of pool."), field="kind")
    club = _lock(club)
    name = name.strip()
    if not name or name == MAIN_POT or SidePool.objects.filter(club=club, name=name).exists():
        raise ServiceError(
            TreasuryError.UNKNOWN_POOL, _("Give the pool a name of its own."), field="name"
        )
    pool = SidePool(club=club, name=name, kind=kind, fee=as_money(fee, "fee"), **options)
    selectors.pool_rule(pool, pool.fee, Decimal(1))  # the books check the rule now
    pool.save()
    audit_club_money(
        club, user, "pool_created", None, {"pool": pool.name, "kind": kind, "fee": str(pool.fee)}
    )
    return pool


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
        pool.fee = as_money(fee, "fee")
    if active is not None:
        pool.active = bool(active)
    selectors.pool_rule(pool, pool.fee, selectors.club_money(club).coin)  # the books check it
    new = _pool_values(pool)
    if new != old:
        pool.save(update_fields=["name", "fee", "active"])
        audit_club_money(club, user, "pool_changed", old, new)
    return pool


# --- Treasurers ----------------------------------------------------------------------------------


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
