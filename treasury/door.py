"""The door's keys, declared once: the page's legend, each button's ``data-key`` (which
``static/js/door.js`` presses) and ``aria-keyshortcuts`` all read them from here.

Digits, not letters: the same keys in every language ("P, U, W" matched no Italian word),
and on a laptop's number row or a keypad beside the list of players.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .models import Payment

if TYPE_CHECKING:
    from .selectors import PoolNight

Status = Payment.Status

# The order of the buttons on a row, with their keys: paid first, as most players pay.
PAY_KEYS: tuple[tuple[str, str], ...] = (
    (Status.PAID, "1"),
    (Status.UNPAID, "2"),
    (Status.WAIVED, "3"),
)
POOL_KEYS = "456789"  # the pools run tonight, in the order of the row (a seventh has none)
CHECK_IN_KEY = "0"


def pay_buttons() -> list[tuple[str, str, str]]:
    """``(status, its label in the page's language, its key)``, in the row's order."""
    labels = dict(Status.choices)
    return [(status, str(labels[status]), key) for status, key in PAY_KEYS]


def pool_buttons(nights: Sequence[PoolNight]) -> list[tuple[PoolNight, str]]:
    """The pools run tonight (a row's toggles), each with its key ("" past the sixth)."""
    running = [night for night in nights if night.fee is not None]
    keys = list(POOL_KEYS) + [""] * max(0, len(running) - len(POOL_KEYS))
    return list(zip(running, keys, strict=False))
