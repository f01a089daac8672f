"""The rules engines' errors and report items in the user's language, by their stable code.

The engines (``games.cribbage``, ``games.stoppa``) are pure Python: each error and report item
has a ``code``, an English ``message`` (logs, the CLI) and ``params``, the values the message
names. Here each code maps to a ``gettext_lazy`` template with named placeholders, so a page,
the API, a form or a service says the same thing in the user's language. This package is
outside the app layers (results -> scoring -> tournaments -> engines) so that every one of them,
and ``games_web``, can import it.

A code may have several templates (a tuple): the first whose placeholders are all in the params
is used, so a template never shows a blank. A key ``"code:word"`` (e.g. ``duplicate_card:hand``)
is tried before ``"code"`` when the params have that word as ``what``, ``kind`` or ``reason``,
so that each language can get its grammar right.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise

Template = Promise | tuple[Promise, ...]

_PLACEHOLDER = re.compile(r"%\((\w+)\)")

WORD_PARAMS = frozenset({"what", "kind", "contest", "reason", "decided_by"})
"""Params whose value is a stable word of the engine (never a name): translated by ``words``."""

WORD_KEYS = ("what", "kind", "reason")
"""Params that may pick a more precise template: ``"code:value"`` before ``"code"``."""


def placeholders(template: Promise | str) -> set[str]:
    """The names a template fills (``%(card)s`` -> ``card``)."""
    return set(_PLACEHOLDER.findall(str(template)))


def render(
    catalogue: Mapping[str, Template],
    words: Mapping[str, Promise],
    code: str,
    params: Mapping[str, Any] | None,
    fallback: str = "",
) -> str:
    """The text of ``code`` from ``catalogue`` in the active language, filled from ``params``.

    Params that are stable words (``hand``, ``crib``, ``misera``...) are translated through
    ``words``. ``fallback`` (the engine's English message) is returned for an unknown code or
    when no template fits the params.
    """
    params = dict(params or {})
    found = None
    for name in WORD_KEYS:
        if found is None and isinstance(params.get(name), str):
            found = catalogue.get(f"{code}:{params[name]}")
    if found is None:
        found = catalogue.get(code)
    if found is None:
        return fallback or code
    shown = {
        name: str(words[value])
        if name in WORD_PARAMS and isinstance(value, str) and value in words
        else value
        for name, value in params.items()
    }
    for template in found if isinstance(found, tuple) else (found,):
        if placeholders(template) <= shown.keys():
            return str(template) % shown if placeholders(template) else str(template)
    return fallback or code


def templates_of(found: Template) -> tuple[Promise, ...]:
    """The templates of one catalogue entry, as a tuple."""
    return found if isinstance(found, tuple) else (found,)
