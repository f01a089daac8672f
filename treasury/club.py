"""The club's own money rules, changed by its TDs and treasurers: the money settings
(currency, coin, default fee, hold-back, remainder and unpaid rules), the side pools and the
money staff. Each change is checked field by field and recorded in the club's ``ClubAudit``
log with who, why, and the values before and after (an event's changes are in its own chain).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from books.pools import MAIN_POT
from core.errors import ServiceError
from tournaments.models import Club
from tournaments.services import acting_user, actor_name
from tournaments.services._common import UserLike

from . import selectors
from .amounts import MAX_FEE, check_coin, check_currency, parse_amount, parse_percent
from .error_codes import TreasuryError
from .models import ClubAudit, ClubMoney, ClubRole, ClubStaff, RemainderRule, SidePool, UnpaidRule

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
    settings.full_clean(exclude=["club", "main_balance"])
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
