"""DRF pieces: service errors as HTTP errors with their code (one table, one handler), a JSON
parser and paginations that turn hostile input into a 4xx instead of a crash."""

from __future__ import annotations

from base64 import b64decode, b64encode
from collections.abc import Sequence
from typing import Any, NamedTuple
from urllib import parse

from django.db.models import Model, Q, QuerySet
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _lazy
from rest_framework import serializers
from rest_framework.exceptions import (
    ErrorDetail,
    NotFound,
    ParseError,
    ValidationError,
)
from rest_framework.pagination import CursorPagination, LimitOffsetPagination
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.utils.urls import replace_query_param

from .errors import ServiceError

MAX_JSON_DEPTH = 64  # the deepest real body (a whole-game record) is under 10 levels


def as_validation_error(exc: ServiceError) -> ValidationError:
    """The DRF error for a refused service call: 400, message and named code on its field."""
    detail = ErrorDetail(exc.message, code=exc.code)
    return ValidationError({exc.field: [detail]} if exc.field else [detail])


def exception_handler(exc: Exception, context: dict) -> Any:
    """``core.drf_handler.ServiceErrorHandler``, except for a lost database connection:
    that one is left to ``LostConnectionMiddleware`` (run again when safe, else a 503), not
    made a 500."""
    from django.db import InterfaceError, OperationalError

    # Imported here: drf-standardized-errors imports DRF's views, which load this module's
    # parser while they are being defined.
    from .drf_handler import ServiceErrorHandler

    if isinstance(exc, OperationalError | InterfaceError):
        return None
    return ServiceErrorHandler(exc, context).run()  # type: ignore[arg-type]


class TextField(serializers.CharField):
    """Text that is text: a JSON number (``7``, ``1e999``) is refused, not turned into "7" or
    "inf" as DRF's CharField would."""

    default_error_messages = {"not_text": gettext_lazy("Give text here, not a number.")}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("not_text")
        return str(super().to_internal_value(data))


class BoundedJSONParser(JSONParser):
    """JSON bodies with a bounded nesting depth, without NUL characters or lone surrogates.

    A body nested 1,500 levels deep made the parser recurse until it crashed (HTTP 500); a
    lone surrogate or a NUL reached PostgreSQL, which refuses them. Each is now a 400 parse
    error before any view runs.
    """

    max_depth = MAX_JSON_DEPTH

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:  # json gives up on very deep nesting by recursing too deep
            raise ParseError(f"JSON nested deeper than {self.max_depth} levels.") from None
        _check_json(data, self.max_depth)
        return data


def _check_json(data: Any, max_depth: int) -> None:
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:  # iterative: a hostile body cannot exhaust the Python stack here
        value, depth = stack.pop()
        if isinstance(value, dict):
            if depth > max_depth:
                raise ParseError(f"JSON nested deeper than {max_depth} levels.")
            for key, item in value.items():
                _check_text(key)
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            if depth > max_depth:
                raise ParseError(f"JSON nested deeper than {max_depth} levels.")
            stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, str):
            _check_text(value)


def _check_text(text: str) -> None:
    if "\x00" in text:
        raise ParseError("Text may not contain NUL characters.")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ParseError("Text may not contain lone surrogates.") from None


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """Limit/offset pages whose numbers stay inside what the database can take: an absurd
    ``limit`` is capped, an absurd ``offset`` is a 400 rather than a database error."""

    max_limit = 500
    max_offset = 10_000_000

    def get_offset(self, request):
        offset = super().get_offset(request)
        if offset > self.max_offset:
            raise ValidationError({"offset": [f"Offset must be at most {self.max_offset}."]})
        return offset


MAX_POSITION = 2**31 - 1  # every key a cursor carries is an integer column (ids, numbers, ranks)


class KeysetCursor(NamedTuple):
    """Where a page starts: the key of a row, the direction, and whether that row is in."""

    position: tuple[int, ...]
    reverse: bool = False
    inclusive: bool = False


class KeysetCursorPagination(CursorPagination):
    """Cursor pages on a unique key of integer fields (``id``, or ``rank`` then ``entry_id``).

    DRF's own cursor keeps only the first ordering field and counts ties with an offset, which
    it caps at 1,000: a standings table with more rows tied on one rank would repeat a page for
    ever. Here the cursor carries the whole key, so a page is one indexed range query whatever
    the depth, every row is seen exactly once, and rows added or removed elsewhere never shift
    a page. The view names its key in ``cursor_ordering`` (ascending fields, unique together,
    never null: annotate a nullable column into a non-null one first).

    A cursor that does not decode to such a key (forged, truncated, of another length) is a
    404 with the standard error body, as with DRF's own cursors.
    """

    page_size = 100
    page_size_query_param = "page_size"
    page_size_query_description = _lazy("Rows per page (default 100, at most 500).")
    max_page_size = 500
    ordering: tuple[str, ...] = ("id",)
    template = None  # no page controls in the browsable API

    def get_ordering(self, request: Request, queryset: QuerySet, view: Any) -> tuple[str, ...]:
        """The view's ``cursor_ordering`` (default ``id``): ascending fields, unique together."""
        ordering = tuple(getattr(view, "cursor_ordering", self.ordering))
        assert ordering and not any(f.startswith("-") for f in ordering), ordering
        return ordering

    def paginate_queryset(
        self, queryset: QuerySet, request: Request, view: Any = None
    ) -> list[Model]:
        """One page of ``queryset``: the rows after (or before) the cursor's key, in key order."""
        self.request = request
        self.page_size = self.get_page_size(request)
        self.base_url = request.build_absolute_uri()
        self.ordering = self.get_ordering(request, queryset, view)
        self.cursor = self.decode_cursor(request)
        cursor = self.cursor
        reverse = cursor is not None and cursor.reverse
        fields = [f"-{f}" for f in self.ordering] if reverse else list(self.ordering)
        queryset = queryset.order_by(*fields)
        if cursor is not None:
            queryset = queryset.filter(
                _beyond(self.ordering, cursor.position, before=reverse, inclusive=cursor.inclusive)
            )
        rows = list(queryset[: self.page_size + 1])
        more = len(rows) > self.page_size
        self.page = rows[: self.page_size]
        if reverse:
            self.page.reverse()
        # Going forward there is a previous page once a cursor was given, going back a next one.
        self.has_next = more if not reverse else True
        self.has_previous = cursor is not None if not reverse else more
        return self.page

    def _key(self, row: Model) -> tuple[int, ...]:
        return tuple(int(getattr(row, field)) for field in self.ordering)

    def get_next_link(self) -> str | None:
        """The URL of the page after this one, or None on the last page."""
        if not self.has_next:
            return None
        if self.page:
            return self.encode_cursor(KeysetCursor(self._key(self.page[-1])))
        assert self.cursor is not None  # an empty page going back: start again at its key
        return self.encode_cursor(KeysetCursor(self.cursor.position, inclusive=True))

    def get_previous_link(self) -> str | None:
        """The URL of the page before this one, or None on the first page."""
        if not self.has_previous:
            return None
        if self.page:
            return self.encode_cursor(KeysetCursor(self._key(self.page[0]), reverse=True))
        assert self.cursor is not None  # an empty page going forward: back from its key
        return self.encode_cursor(KeysetCursor(self.cursor.position, reverse=True, inclusive=True))

    def decode_cursor(self, request: Request) -> KeysetCursor | None:
        """The cursor of the request, None without one; 404 if it is not one of ours."""
        encoded = request.query_params.get(self.cursor_query_param)
        if encoded is None:
            return None
        try:
            text = b64decode(encoded.encode("ascii"), validate=True).decode("ascii")
            tokens = parse.parse_qs(text, keep_blank_values=True, strict_parsing=True)
            flags = {name: tokens.pop(name, ["0"]) for name in ("r", "i")}
            parts = tokens.pop("p")
            if tokens or len(parts) != 1 or any(v not in (["0"], ["1"]) for v in flags.values()):
                raise ValueError("unknown cursor tokens")
            position = tuple(int(part) for part in parts[0].split("."))
            if len(position) != len(self.ordering) or any(
                abs(value) > MAX_POSITION for value in position
            ):
                raise ValueError("not a key of this list")
        except (KeyError, TypeError, ValueError):  # binascii and Unicode errors are ValueErrors
            raise NotFound(self.invalid_cursor_message) from None
        return KeysetCursor(position, flags["r"] == ["1"], flags["i"] == ["1"])

    def encode_cursor(self, cursor: KeysetCursor) -> str:
        """The current URL with ``cursor`` in place of the request's."""
        tokens = {"p": ".".join(str(value) for value in cursor.position)}
        if cursor.reverse:
            tokens["r"] = "1"
        if cursor.inclusive:
            tokens["i"] = "1"
        encoded = b64encode(parse.urlencode(tokens).encode("ascii")).decode("ascii")
        return replace_query_param(self.base_url, self.cursor_query_param, encoded)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        """The ``cursor`` and ``page_size`` query parameters, with the page size's bounds."""
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"] |= {"minimum": 1, "maximum": self.max_page_size}
        return parameters


def _beyond(fields: Sequence[str], position: Sequence[int], *, before: bool, inclusive: bool) -> Q:
    """Rows whose key (``fields``, compared in order) is after ``position`` (before it with
    ``before``); the row at ``position`` itself too with ``inclusive``."""
    strict = "lt" if before else "gt"
    last = f"{fields[-1]}__{strict}e" if inclusive else f"{fields[-1]}__{strict}"
    condition = Q(**{last: position[-1]})
    for field, value in zip(reversed(fields[:-1]), reversed(position[:-1]), strict=True):
        condition = Q(**{f"{field}__{strict}": value}) | (Q(**{field: value}) & condition)
    return condition
