"""The one error a pairing generator raises: a field it cannot pair, with a stable code.

The bridge (``tournaments.services``) catches :class:`PairingError` and shows the TD its message;
``code`` stays the same across releases so pages and the API can react to it.
"""

from __future__ import annotations


class PairingError(ValueError):
    """A field or bracket that cannot be paired as asked.

    ``code`` is a stable identifier (``"too_few_players"``, ``"forbidden_pairs"``,
    ``"match_decided"``, ...); the message is plain language for the TD.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def __reduce__(self) -> tuple[type[PairingError], tuple[str, str]]:
        # Keep code and message through pickling (Celery results).
        return (type(self), (self.code, str(self)))
