"""Reading an archive safely: the file's JSON (``parse_archive``) and the checks the import
reads every value through (``_Check``), each bad value a ServiceError (``bad_archive``) that
names its place in the file. The hand-written checks stay until the format is declared as a
JSON Schema."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from core.errors import ServiceError

from ..error_codes import ResultsError
from .schema import MAX_ARCHIVE_BYTES, MAX_PLAYERS


def parse_archive(raw: bytes | str) -> Any:
    """The archive file's JSON, or a ServiceError (``bad_archive``) saying why it is not one.

    One parser for the page and the command. JSON nested thousands deep makes Python's parser
    raise RecursionError, not ValueError; no real archive nests more than a few levels.
    """
    if len(raw) > MAX_ARCHIVE_BYTES:
        raise ServiceError(
            ResultsError.ARCHIVE_TOO_LARGE,
            _("The file is over %(mb)s MB, the limit for an event archive.")
            % {"mb": MAX_ARCHIVE_BYTES // (1024 * 1024)},
            field="archive",
        )
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw.removeprefix("\ufeff")
        return json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ServiceError(
            ResultsError.BAD_ARCHIVE, _("The file is not JSON (UTF-8)."), field="archive"
        ) from None


class _Check:
    """Reads one archive value after another, raising a ServiceError that names the place
    (``games[3].tables[7].result.winner``) of the first value that is wrong."""

    def bad(self, path: str, what: str) -> ServiceError:
        return ServiceError(
            ResultsError.BAD_ARCHIVE,
            _("This is not a valid event archive: %(path)s %(what)s.")
            % {"path": path, "what": what},
            field="archive",
        )

    def obj(self, value: Any, path: str) -> dict:
        if not isinstance(value, dict):
            raise self.bad(path, _("should be an object"))
        return value

    def items(self, value: Any, path: str, *, limit: int = MAX_PLAYERS * 40) -> list:
        if not isinstance(value, list):
            raise self.bad(path, _("should be a list"))
        if len(value) > limit:
            raise self.bad(path, _("has too many items"))
        return value

    def text(self, parent: dict, key: str, path: str, *, max_length: int, blank=True) -> str:
        value = parent.get(key, "")
        if value is None:
            value = ""
        if not isinstance(value, str) or len(value) > max_length or (not blank and not value):
            raise self.bad(
                f"{path}.{key}",
                _("should be a text of at most %(n)s characters") % {"n": max_length},
            )
        if not _encodable(value):
            # "\ud800" is valid JSON but no character: the database cannot store it.
            raise self.bad(f"{path}.{key}", _("holds a character that is not valid Unicode"))
        return value

    def int(self, parent: dict, key: str, path: str, *, low=0, high=2**31 - 1, null=False):
        value = parent.get(key)
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.bad(
                f"{path}.{key}",
                _("should be a whole number from %(low)s to %(high)s") % {"low": low, "high": high},
            )
        return value

    def bool(self, parent: dict, key: str, path: str, default: bool = False) -> bool:
        value = parent.get(key, default)
        if not isinstance(value, bool):
            raise self.bad(f"{path}.{key}", _("should be true or false"))
        return value

    def choice(self, parent: dict, key: str, path: str, choices: Iterable[Any], default=None):
        value = parent.get(key, default)
        if isinstance(value, bool) or value not in list(choices):
            raise self.bad(f"{path}.{key}", _("is not one of the known values"))
        return value

    def when(self, parent: dict, key: str, path: str, *, null=True):
        value = parent.get(key)
        if value is None and null:
            return None
        try:
            parsed = parse_datetime(value) if isinstance(value, str) else None
        except ValueError:  # well formed, but no such moment (month 13)
            parsed = None
        if parsed is None:
            raise self.bad(f"{path}.{key}", _("should be a date and time (ISO 8601)"))
        return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed)

    def new_ref(self, row: dict, path: str) -> Any:
        """An object's own ``ref``: a whole number (unique among its kind, checked by the
        caller)."""
        return self.int(row, "ref", path, high=2**62)

    def ref(self, parent: dict, key: str, path: str, refs: dict, *, null=False):
        value = parent.get(key)
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int | str) or value not in refs:
            raise self.bad(f"{path}.{key}", _("does not name one of the archive's entries"))
        return refs[value]


def _encodable(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
