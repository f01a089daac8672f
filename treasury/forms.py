"""The club's money settings and a new side pool, as forms of the club's money page."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from .amounts import currency_choices
from .models import ClubMoney, SidePool


class Styled(forms.ModelForm):
    """Bootstrap's classes on every widget (as the TD's other forms have them)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
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

    def clean_ratios_text(self) -> list[str]:
        parts = [p.strip() for p in self.cleaned_data["ratios_text"].split(",") if p.strip()]
        try:
            return [str(Decimal(p)) for p in parts]
        except InvalidOperation:
            raise forms.ValidationError(_("Ratios are numbers: 60, 40.")) from None
