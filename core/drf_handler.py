"""The one place a refused service call becomes an HTTP answer: a table from error code to
status, applied by drf-standardized-errors' handler, so no view needs to catch ``ServiceError``.
"""

from __future__ import annotations

from drf_standardized_errors.handler import ExceptionHandler
from rest_framework.exceptions import APIException, NotFound, Throttled

from .drf import as_validation_error
from .errors import ServiceError

# The HTTP status of a refused service call, by its code: the one place it is decided. A code
# not listed is a 400 (the request broke a rule). The codes are the results app's
# (``ResultsError.THROTTLED``, ``ResultsError.UNKNOWN_KEY``), named by value since this module
# sits below every app.
STATUS_OF_CODE: dict[str, int] = {
    "throttled": 429,  # too many reports from one key: try again later
    "unknown_key": 404,  # a private link that does not exist (or no longer does)
}


def as_api_exception(exc: ServiceError) -> APIException:
    """The DRF error for a refused service call, with the status :data:`STATUS_OF_CODE` gives."""
    match STATUS_OF_CODE.get(exc.code, 400):
        case 404:
            return NotFound(exc.message)
        case 429:
            throttled = Throttled(detail=exc.message)
            # Set after: given to Throttled, the wait would be appended to the message.
            throttled.wait = exc.retry_after  # the handler sends it as Retry-After
            return throttled
        case _:
            return as_validation_error(exc)


class ServiceErrorHandler(ExceptionHandler):
    """drf-standardized-errors' handler, answering a :class:`ServiceError` a view let through
    with its status and code, so no view needs to catch one."""

    def convert_known_exceptions(self, exc: Exception) -> Exception:
        if isinstance(exc, ServiceError):
            return as_api_exception(exc)
        return super().convert_known_exceptions(exc)
