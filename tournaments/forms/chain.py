"""The ranking-chain editor's logic: the rows it shows, one button's move, and the field that
carries the chain as posted."""

from __future__ import annotations

from django import forms

from .. import kinds
from ..tiebreakers import REGISTRY as TIEBREAKERS


def chain_rows(game: str, keys: list[str]) -> dict:
    """What the ranking-chain editor shows: the chain's keys with their names (an unknown key
    is shown as typed, for the error to point at) and the tiebreakers that can be added."""
    allowed = kinds.get(game).tiebreakers if game in dict(kinds.choices()) else set()
    return {
        "chain": [(k, TIEBREAKERS[k].name if k in TIEBREAKERS else k) for k in keys],
        "addable": [(k, t.name) for k, t in TIEBREAKERS.items() if k in allowed and k not in keys],
    }


def edit_chain(keys: list[str], op: str, added: str = "") -> list[str]:
    """The chain after one button of the editor: ``up:i``, ``down:i``, ``remove:i``, ``add``
    (the key in ``added``). An index out of range changes nothing; the result is checked when
    saved."""
    keys = list(keys)
    action, _sep, index_text = op.partition(":")
    if action == "add":
        return [*keys, added] if added and added not in keys else keys
    try:
        i = int(index_text)
    except ValueError:
        return keys
    if not 0 <= i < len(keys):
        return keys
    if action == "remove":
        del keys[i]
    elif action == "up" and i > 0:
        keys[i - 1], keys[i] = keys[i], keys[i - 1]
    elif action == "down" and i < len(keys) - 1:
        keys[i + 1], keys[i] = keys[i], keys[i + 1]
    return keys


class _ChainField(forms.Field):
    """The ranking chain as the editor posts it: one hidden input per key, in order."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value):
        if not value:
            return []
        if isinstance(value, str):
            value = value.replace(",", " ").split()
        return [str(v).strip() for v in value if str(v).strip()]
