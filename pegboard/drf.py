"""Bridging service errors into DRF: a ServiceError becomes an HTTP 400 with its code."""

from __future__ import annotations

from rest_framework.exceptions import ErrorDetail, ValidationError

from .errors import ServiceError


def as_validation_error(exc: ServiceError) -> ValidationError:
    """The DRF error for a refused service call: 400, message and named code on its field."""
    detail = ErrorDetail(exc.message, code=exc.code)
    return ValidationError({exc.field: [detail]} if exc.field else [detail])
