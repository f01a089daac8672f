"""Log filters: a player's private key never reaches a log line."""

from __future__ import annotations

import logging
import re

# /k/<key>/ in any path Django logs ("Bad Request: /k/<key>/", "Not Found: ..."); also a
# registration's page (/r/<key>/) and the door QR's token (/events/<id>/door/<token>/).
_KEY_PATH = re.compile(r"/(k|r|door)/[^/\s]+")


class MaskPrivateKeys(logging.Filter):
    """Replace the key of every ``/k/<key>/`` path in a record's message with ``/k/***``."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "/k/" in message or "/r/" in message or "/door/" in message:
            record.msg = _KEY_PATH.sub(r"/\1/***", message)
            record.args = ()
        return True
