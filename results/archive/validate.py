"""Reading an archive safely: the file's JSON (``parse_archive``), its shape checked against the
declared JSON Schema (``check_shape``, ``json_schema``) and what a schema cannot say, read as
the import goes (``_Check``: refs, dates and times); each bad value a ServiceError
(``bad_archive``) that names its place in the file."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

from core.errors import ServiceError

from ..error_codes import ResultsError
from .json_schema import archive_schema
from .schema import MAX_ARCHIVE_BYTES


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


def check_shape(data: Any) -> None:
    """Check the parsed archive against its declared JSON Schema (``json_schema``), then every
    text in it for a lone surrogate; the first fault is a ServiceError (``bad_archive``) naming
    its place (``games[3].tables[7].result.winner``), as the hand-written checks did."""
    error = next(iter(_validator().iter_errors(data)), None)
    if error is not None:
        path, what = _describe(error)
        raise _Check().bad(path, what)
    where = _lone_surrogate(data, "")
    if where is not None:
        # "\ud800" is valid JSON but no character: the database cannot store it.
        raise _Check().bad(where, _("holds a character that is not valid Unicode"))


@cache
def _validator() -> Draft202012Validator:
    # JSON's 1.0 is a number, not a whole number, and true is not 1: a count or a ref is an
    # int and nothing else, as the database column is.
    whole = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
    )
    strict = validators.extend(Draft202012Validator, type_checker=whole)
    schema = archive_schema()
    Draft202012Validator.check_schema(schema)
    return strict(schema)


def _place(parts: Iterable[Any]) -> str:
    path = ""
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path or "archive"


def _describe(error: ValidationError) -> tuple[str, str]:
    """The place and the words for a schema error: the words the importer has always used
    for that kind of value (the leaf's ``title`` in the schema)."""
    parts = list(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "required":
        missing = next(k for k in schema["required"] if k not in error.instance)
        parts.append(missing)
        schema = schema["properties"][missing]
    elif error.validator == "maxItems":
        return _place(parts), _("has too many items")
    kind = schema.get("title")
    if kind == "text":
        what = _("should be a text of at most %(n)s characters") % {"n": schema["maxLength"]}
    elif kind == "int":
        what = _("should be a whole number from %(low)s to %(high)s") % {
            "low": schema.get("minimum", "-"),
            "high": schema.get("maximum", "-"),
        }
    elif kind == "bool":
        what = _("should be true or false")
    elif kind == "ref":
        what = _("does not name one of the archive's entries")
    elif kind == "when":
        what = _("should be a date and time (ISO 8601)")
    elif kind == "digest":
        what = _("should be a SHA-256 digest (64 hexadecimal digits)")
    elif kind == "date":
        what = _("should be a date (YYYY-MM-DD)")
    elif kind == "list":
        what = _("should be a list")
    elif kind == "object":
        what = _("should be an object")
    else:
        what = _("is not one of the known values")
    return _place(parts), what


def _lone_surrogate(value: Any, path: str) -> str | None:
    """The place of the first text (a value or a key) that UTF-8 cannot encode, or None."""
    if isinstance(value, str):
        return None if _encodable(value) else path or "archive"
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = _lone_surrogate(item, f"{path}[{i}]")
            if found is not None:
                return found
    elif isinstance(value, dict):
        for key, item in value.items():
            here = f"{path}.{key}" if path else str(key)
            if not _encodable(str(key)):
                return path or "archive"
            found = _lone_surrogate(item, here)
            if found is not None:
                return found
    return None


class _Check:
    """What the schema cannot say, read as the import goes: refs that name an object of the
    archive, real dates and times; and the ServiceError naming the place of a bad value."""

    def bad(self, path: str, what: str) -> ServiceError:
        return ServiceError(
            ResultsError.BAD_ARCHIVE,
            _("This is not a valid event archive: %(path)s %(what)s.")
            % {"path": path, "what": what},
            field="archive",
        )

    def when(self, parent: dict, key: str, path: str):
        value = parent.get(key)
        if value is None:
            return None
        try:
            parsed = parse_datetime(value)
        except ValueError:  # well formed, but no such moment (month 13)
            parsed = None
        if parsed is None:
            raise self.bad(f"{path}.{key}", _("should be a date and time (ISO 8601)"))
        return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed)

    def ref(self, parent: dict, key: str, path: str, refs: dict, *, null=False):
        value = parent.get(key)
        if value is None and null:
            return None
        if value not in refs:
            raise self.bad(f"{path}.{key}", _("does not name one of the archive's entries"))
        return refs[value]


def text(parent: dict, key: str) -> str:
    """A text the schema has checked; missing or null is ""."""
    return parent.get(key) or ""


def _encodable(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
