"""The base of the TD pages' forms: a form that runs a service, and the Bootstrap styling.

Validation of the rules is the services' job; forms only carry it.
"""

from __future__ import annotations

from django import forms

from core.errors import ServiceError


class ServiceForm(forms.Form):
    """A form whose ``save`` calls a service and turns a ServiceError into a form error."""

    def run(self, action):
        """Run ``action()`` if the form is valid; on ServiceError attach it and return None."""
        if not self.is_valid():
            return None
        try:
            return action()
        except ServiceError as exc:
            field = exc.field if exc.field in self.fields else None
            self.add_error(field, forms.ValidationError(exc.message, code=exc.code))
            return None


def _style(form: forms.Form) -> None:
    """Bootstrap classes on every visible widget."""
    for field in form.fields.values():
        widget = field.widget
        if isinstance(widget, forms.HiddenInput | forms.MultipleHiddenInput):
            continue
        if isinstance(widget, forms.CheckboxInput):
            widget.attrs.setdefault("class", "form-check-input")
        elif isinstance(widget, forms.Select):
            widget.attrs.setdefault("class", "form-select")
        else:
            widget.attrs.setdefault("class", "form-control")
