"""Named, stable error codes for every rule a service enforces (Saleor style).

Each app declares its codes once, in ``<app>/error_codes.py``, as a subclass of
:class:`ErrorCode`. Services raise :class:`ServiceError` with one of them; forms turn it into a
form error on ``field``, the API into an HTTP error (the status is looked up in one table, in
``core.drf``), management commands into ``CommandError``. The message is for people, the
code for programs and tests.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """The base of every app's error codes. A member is its own stable string (``"withdrawn"``),
    so it compares equal to the string, reads the same in JSON and in tests."""

    @classmethod
    def every_code(cls) -> list[str]:
        """Every code of every app's enum (those imported), sorted and without repeats."""
        codes: set[str] = set()
        stack = list(cls.__subclasses__())
        while stack:
            enum = stack.pop()
            codes.update(member.value for member in enum)
            stack.extend(enum.__subclasses__())
        return sorted(codes)


class ServiceError(Exception):
    """A request the rules do not allow. Nothing has been written when it is raised.

    ``code`` is a member of an app's :class:`ErrorCode` enum (``<app>/error_codes.py``);
    ``retry_after``, the seconds after which the same request may succeed (a limit), if any.
    """

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        field: str | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = str(message)
        self.field = field
        self.retry_after = retry_after

    def __str__(self) -> str:
        return self.message
