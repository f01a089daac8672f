"""The money pages' forms: the club's money settings, a new side pool, the payout table with
its preview, a new treasurer, the night's fees.

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
from django.utils.formats import number_format
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from .amounts import currency_choices, parse_localized_amount
from .models import ClubMoney, SidePool
from .payout_tables import MAX_ROWS, TableProblem

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
    text = parse_localized_amount(text)  # the page's separator to a point: one rule
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
    """The club's currency (a select of the ISO 4217 codes in use, named in the reader's
    language), smallest coin, default entry fee, hold-back, remainder and unpaid rules."""

    currency = forms.ChoiceField(label=_("currency"), choices=())
    reason = forms.CharField(label=_("Reason for the change"), required=False, max_length=200)

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
            "unpaid_rule",
        ]
        field_classes = {
            "coin": MoneyField,
            "entry_fee": MoneyField,
            "hold_back_per_entrant": MoneyField,
            "hold_back_percent": MoneyField,
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choices = currency_choices(get_language() or "en")
        current = self.initial.get("currency")
        if current and current not in {code for code, _name in choices}:
            choices = [(current, current), *choices]  # a code stored before the list: kept
        self.fields["currency"].choices = choices


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


SPARE_ROWS = 2  # blank rows under the stored ones, to add a field size
SEPARATORS = re.compile(r"[\s,;]+")
ROW_KEY = re.compile(r"(?:min|percents)_([0-9]{1,3})")


class PayoutTableForm(forms.Form):
    """The club's payout table as rows "from N paid entrants: 50, 30, 20"; a row left blank
    is left out. The checks are the service's (``payout_tables.check_rows``): every problem
    is put beside its row's field."""

    reason = forms.CharField(
        label=_("Why (for the log)"),
        max_length=300,
        required=False,
        widget=forms.TextInput(attrs={"class": "form-control form-control-sm"}),
    )

    def __init__(self, *args: Any, stored: list[dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        count = len(stored) + SPARE_ROWS
        if self.is_bound:  # every row sent, and a blank one under the last row typed in
            sent = [int(m.group(1)) for key in self.data if (m := ROW_KEY.fullmatch(str(key)))]
            last = max(sent, default=-1)
            typed = any(str(self.data.get(f"{n}_{last}", "")).strip() for n in ("min", "percents"))
            count = max(count, last + 1 + (1 if typed else 0))
        count = min(count, MAX_ROWS)
        self.row_count = count
        for i in range(count):
            row = stored[i] if i < len(stored) else {}
            percents = row.get("percents")
            shown = ", ".join(str(p) for p in percents) if isinstance(percents, list) else ""
            self.fields[f"min_{i}"] = forms.CharField(
                label=_("From paid entrants"),
                required=False,
                max_length=8,
                initial=row.get("min_entrants", ""),
                widget=forms.TextInput(
                    attrs={"class": "form-control form-control-sm", "inputmode": "numeric"}
                ),
            )
            self.fields[f"percents_{i}"] = forms.CharField(
                label=_("Percent per place"),
                required=False,
                max_length=2000,
                initial=shown if percents is not None else "",
                widget=forms.TextInput(
                    attrs={
                        "class": "form-control form-control-sm",
                        "inputmode": "decimal",
                        "placeholder": "50, 30, 20",
                    }
                ),
            )
        self.sent_rows: list[int] = []  # the form's row of each row sent to the service

    @staticmethod
    def data_of(stored: list[dict[str, Any]]) -> dict[str, str]:
        """Stored rows as the form's data (to show a stored row the rules refuse, marked)."""
        data = {}
        for i, row in enumerate(stored):
            percents = row.get("percents")
            data[f"min_{i}"] = str(row.get("min_entrants", ""))
            data[f"percents_{i}"] = (
                ", ".join(str(p) for p in percents) if isinstance(percents, list) else str(percents)
            )
        return data

    def rows(self) -> list[dict[str, Any]]:
        """The rows typed, blank ones left out, as the service takes them."""
        found = []
        self.sent_rows = []
        for i in range(self.row_count):
            start = (self.cleaned_data.get(f"min_{i}") or "").strip()
            text = (self.cleaned_data.get(f"percents_{i}") or "").strip()
            if not start and not text:
                continue
            self.sent_rows.append(i)
            found.append(
                {"min_entrants": start, "percents": [p for p in SEPARATORS.split(text) if p]}
            )
        return found

    def add_problems(self, problems: Sequence[TableProblem]) -> None:
        """Put each problem beside the field of its row (the table's own above the rows)."""
        for problem in problems:
            if problem.row is None or problem.row >= len(self.sent_rows):
                self.add_error(None, problem.message)
                continue
            row = self.sent_rows[problem.row]
            name = f"min_{row}" if problem.part == "min_entrants" else f"percents_{row}"
            if problem.part == "":
                name = f"percents_{row}"
            self.add_error(name, problem.message)

    def table_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        """The rows' two fields, in order, for the template."""
        return [(self[f"min_{i}"], self[f"percents_{i}"]) for i in range(self.row_count)]


class PreviewForm(forms.Form):
    """A field size and an entry fee, to see what each place of the table would get."""

    entrants = forms.IntegerField(
        label=_("Paid entrants"),
        min_value=1,
        max_value=2000,
        widget=forms.NumberInput(attrs={"class": "form-control form-control-sm"}),
    )
    fee = MoneyField(  # "7,50" to an Italian reader, as every money input of the pages
        label=_("Entry fee"),
        max_value=Decimal(10_000),
        widget=forms.TextInput(attrs={"class": "form-control form-control-sm"}),
    )


class TreasurerForm(forms.Form):
    """A new treasurer by name and e-mail address (an account is made if none has it)."""

    name = forms.CharField(
        label=_("Name"),
        max_length=150,
        widget=forms.TextInput(attrs={"class": "form-control", "autocomplete": "off"}),
    )
    email = forms.EmailField(
        label=_("E-mail"),
        widget=forms.EmailInput(attrs={"class": "form-control", "autocomplete": "off"}),
    )


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
