"""Amounts on the money desk's pages: two decimals in the page's language, never a float."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.formats import number_format

from treasury.access import money_clubs
from treasury.wording import money_audit_sentence

register = template.Library()


@register.filter
def money(value: Decimal | None, currency: str = "") -> str:
    """``Decimal("1234.5")`` as "1,234.50" (or "1.234,50"), with the currency code if given."""
    if value is None or value == "":
        return ""
    text = number_format(Decimal(value), 2, use_l10n=True, force_grouping=True)
    return f"{text} {currency}" if currency else text


@register.filter
def get_item(mapping: dict, key: object) -> object:
    """``mapping[key]`` in a template (``None`` when absent)."""
    return (mapping or {}).get(key)


@register.simple_tag
def keeps_books(user: object) -> bool:
    """Whether the user keeps some club's books (a TD or a treasurer): the nav's money link."""
    return money_clubs(user).exists()  # type: ignore[arg-type]


@register.filter
def money_audit(entry: object) -> str:
    """An audit entry of the money desk as a sentence in the page's language ("" for the
    other actions, which the results desk words itself)."""
    return money_audit_sentence(
        str(getattr(entry, "action", "")),
        getattr(entry, "old", None),
        getattr(entry, "new", None),
        reason_shown=bool(getattr(entry, "reason", "")),  # the log shows it below
    )
