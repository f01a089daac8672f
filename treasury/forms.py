"""The money desk's forms: the club's money settings, a new side pool, the night's fees.

Every amount and percentage is typed and shown in the reader's format (:class:`MoneyField`):
"7,50" in Italian, German and Romanian, "7.50" in English. The API keeps the dot (its
serializers do not use these forms).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.formats import get_format, number_format
from django.utils.translation import gettext_lazy as _

from .models import ClubMoney, SidePool

EXAMPLE = Decimal("7.50")  # the amount an error message shows, in the reader's format
PLAIN = re.compile(r"[0-9]{1,12}(?:\.[0-9]+)?")  # what is left once the separator is a point


def read_amount(text: str) -> Decimal | None:
    """``text`` as the reader wrote it, or None when it is not an amount.

    The page's decimal separator ("7,50" in Italian, German and Romanian), or a point in any
    language ("7.50"); nothing else. A digit group mark is never read ("1.000,00" and
    "1,000.00" are refused), so nothing is misread: "1.000" in Italian is 1.000, which the
    field then refuses for its three decimals. As Django's localized fields read, and as
    the API's plain decimals (digits 0-9 only).
    """
    text = text.strip()
    decimal = get_format("DECIMAL_SEPARATOR")
    if decimal != "." and "." not in text:
        text = text.replace(decimal, ".", 1)
    if not PLAIN.fullmatch(text):
        return None
    return Decimal(text)


class MoneyField(forms.DecimalField):
    """An amount (or a percentage) of 0 or more with two decimals at most, localized both
    ways: shown as "10,00" to an Italian reader and read back from "7,50" (:func:`read_amount`).
    """

    default_error_messages = {"invalid": _("Write an amount such as %(example)s.")}

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_digits", 12)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("min_value", Decimal(0))
        kwargs["localize"] = True
        super().__init__(**kwargs)
        self.widget.attrs.update({"inputmode": "decimal", "autocomplete": "off"})

    def to_python(self, value: Any) -> Decimal | None:
        if value in self.empty_values:
            return None
        if isinstance(value, Decimal):
            return value
        amount = read_amount(str(value))
        if amount is None:
            raise forms.ValidationError(
                self.error_messages["invalid"],
                code="invalid",
                params={"example": number_format(EXAMPLE, 2, use_l10n=True)},
            )
        return amount


class Styled(forms.ModelForm):
    """Bootstrap's classes on every widget (as the TD's other forms have them)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        style(self)


def style(form: forms.BaseForm) -> None:
    """Bootstrap's classes on every widget of ``form``."""
    for field in form.fields.values():
        widget = field.widget
        if isinstance(widget, forms.CheckboxInput):
            widget.attrs.setdefault("class", "form-check-input")
        elif isinstance(widget, forms.Select):
            widget.attrs.setdefault("class", "form-select")
        else:
            widget.attrs.setdefault("class", "form-control")


class ClubMoneyForm(Styled):
    """The club's currency, smallest coin, default entry fee, hold-back and remainder rule."""

    class Meta:
        model = ClubMoney
        fields = [
            "currency",
            "coin",
            "entry_fee",
            "hold_back_name",
            "hold_back_per_entrant",
            "hold_back_percent",
            "remainder_to",
        ]
        field_classes = {
            "coin": MoneyField,
            "entry_fee": MoneyField,
            "hold_back_per_entrant": MoneyField,
            "hold_back_percent": MoneyField,
        }


class PoolForm(Styled):
    """A new side pool; ratios as "60, 40"."""

    ratios_text = forms.CharField(
        label=_("ratios"), required=False, help_text=_("For a pool split by ratios: 60, 40.")
    )

    class Meta:
        model = SidePool
        fields = [
            "name",
            "kind",
            "fee",
            "share",
            "payout_percent",
            "held_back_percent",
            "rolls_over",
            "winner_rule",
        ]
        field_classes = {
            "fee": MoneyField,
            "payout_percent": MoneyField,
            "held_back_percent": MoneyField,
        }

    def clean_ratios_text(self) -> list[str]:
        """ "60, 40"; with decimals in a language that writes them with a comma, "60,5; 39,5"
        (a semicolon then parts the ratios)."""
        text = self.cleaned_data["ratios_text"]
        parts = [p.strip() for p in text.split(";" if ";" in text else ",") if p.strip()]
        ratios = [read_amount(p) for p in parts]
        if any(r is None for r in ratios):
            raise forms.ValidationError(_("Ratios are numbers: 60, 40."))
        return [str(r) for r in ratios]


class EventFeesForm(forms.Form):
    """The night's entry fee and the club's pools run tonight, each with tonight's fee
    (``pool-<id>`` ticked, ``pool-<id>-fee``): the fields the desk always posted."""

    entry_fee = MoneyField(label=_("Entry fee"))

    def __init__(
        self,
        *args: Any,
        pools: Sequence[SidePool],
        running: Mapping[int, Decimal],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.pools = list(pools)
        for pool in self.pools:
            self.fields[f"pool-{pool.pk}"] = forms.BooleanField(
                required=False, label=pool.name, initial=pool.pk in running
            )
            self.fields[f"pool-{pool.pk}-fee"] = MoneyField(
                required=False,
                label=_("Fee of %(name)s") % {"name": pool.name},
                initial=running.get(pool.pk, pool.fee),
            )
        style(self)

    def pool_rows(self) -> list[tuple[SidePool, forms.BoundField, forms.BoundField]]:
        """Each pool with its tick box and its fee, for the page."""
        return [(p, self[f"pool-{p.pk}"], self[f"pool-{p.pk}-fee"]) for p in self.pools]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for pool in self.pools:
            fee = f"pool-{pool.pk}-fee"
            if (
                cleaned.get(f"pool-{pool.pk}")
                and cleaned.get(fee) is None
                and fee not in self.errors
            ):
                self.add_error(fee, _("Give the fee of the pools run tonight."))
        return cleaned

    def pool_fees(self) -> dict[int, Decimal]:
        """Pool id -> tonight's fee of the pools ticked (after ``is_valid``)."""
        return {
            pool.pk: self.cleaned_data[f"pool-{pool.pk}-fee"]
            for pool in self.pools
            if self.cleaned_data.get(f"pool-{pool.pk}")
        }
