"""Named, stable error codes for every rule a service enforces (Saleor style).

Services raise :class:`ServiceError`; forms turn it into a form error on ``field``, the API
into HTTP 400, management commands into ``CommandError``. The message is for people, the code
for programs and tests.
"""

from __future__ import annotations


class ServiceError(Exception):
    """A request the rules do not allow. Nothing has been written when it is raised."""

    def __init__(self, code: str, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = str(message)
        self.field = field

    def __str__(self) -> str:
        return self.message
