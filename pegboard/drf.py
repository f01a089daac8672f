"""DRF pieces: service errors as HTTP 400 with their code, a JSON parser and a pagination that
turn hostile input into a 400 instead of a crash."""

from __future__ import annotations

import logging
from typing import Any

from rest_framework import throttling
from rest_framework.exceptions import ErrorDetail, ParseError, ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.parsers import JSONParser

from .errors import ServiceError

log = logging.getLogger(__name__)

MAX_JSON_DEPTH = 64  # the deepest real body (a whole-game record) is under 10 levels


def as_validation_error(exc: ServiceError) -> ValidationError:
    """The DRF error for a refused service call: 400, message and named code on its field."""
    detail = ErrorDetail(exc.message, code=exc.code)
    return ValidationError({exc.field: [detail]} if exc.field else [detail])


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


class FailOpenMixin:
    """A throttle that lets the request through when its cache (Redis) is down: a report or a
    count at the table matters more than the limit, which is back with the cache."""

    def allow_request(self, request, view) -> bool:
        try:
            return super().allow_request(request, view)  # type: ignore[misc]
        except Exception as exc:  # the cache backend's own connection errors
            log.warning("throttle unavailable (%s); letting the request through", exc)
            return True


class UserRateThrottle(FailOpenMixin, throttling.UserRateThrottle):
    """DRF's per-user (per-address for anonymous) rate, failing open without the cache."""


class AnonRateThrottle(FailOpenMixin, throttling.AnonRateThrottle):
    """DRF's per-address rate for anonymous clients, failing open without the cache."""
