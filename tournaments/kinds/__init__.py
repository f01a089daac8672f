"""The game-kind registry: what differs between cribbage, Stoppa and any game added later.

Services, views, templates and the standings job ask the event's kind (``event.game_kind``)
how its tables are seated, whether a round is complete, which tiebreakers it allows, what its
rounds are called and which template fragments show it, instead of testing the game's name.
A new kind is one module with a :class:`GameKind` subclass, registered with :func:`register`,
plus its templates.
"""

from __future__ import annotations

from typing import Any

from .base import CrossCell, GameKind, Messages, ResultShape

_REGISTRY: dict[str, GameKind] = {}
_builtins_loaded = False


def _load_builtins() -> None:
    global _builtins_loaded
    if not _builtins_loaded:
        _builtins_loaded = True
        from tournaments.stoppa.kind import STOPPA
        from tournaments.threehanded.kind import THREE_HANDED

        from .cribbage import CRIBBAGE
        from .partners import PARTNERS

        for kind in (CRIBBAGE, STOPPA, THREE_HANDED, PARTNERS):
            _REGISTRY.setdefault(kind.key, kind)


def register(kind: GameKind) -> GameKind:
    """Add a kind to the registry (its key must be new); returns it."""
    _load_builtins()
    if kind.key in _REGISTRY and _REGISTRY[kind.key] is not kind:
        raise ValueError(f"A game kind {kind.key!r} is already registered.")
    _REGISTRY[kind.key] = kind
    return kind


def unregister(key: str) -> None:
    """Remove a kind (tests that register a kind of their own clean up with this)."""
    _REGISTRY.pop(key, None)


def get(key: str) -> GameKind:
    """The kind registered under ``key``; ``KeyError`` for an unknown one."""
    _load_builtins()
    return _REGISTRY[key]


def all_kinds() -> list[GameKind]:
    """Every registered kind, in registration order."""
    _load_builtins()
    return list(_REGISTRY.values())


def choices() -> list[tuple[str, Any]]:
    """``Event.game`` choices: every registered kind (a callable, so new kinds need no
    migration)."""
    return [(kind.key, kind.label) for kind in all_kinds()]


__all__ = [
    "CrossCell",
    "GameKind",
    "Messages",
    "ResultShape",
    "all_kinds",
    "choices",
    "get",
    "register",
    "unregister",
]
