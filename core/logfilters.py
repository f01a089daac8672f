"""Log filters: a player's private key never reaches a log line."""

from __future__ import annotations

import logging
import re

# /k/<key>/ in any path Django logs ("Bad Request: /k/<key>/", "Not Found: ...").
_KEY_PATH = re.compile(r"/k/[^/\s]+")


class MaskPrivateKeys(logging.Filter):
    """Replace the key of every ``/k/<key>/`` path in a record's message with ``/k/***``."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "/k/" in message:
            record.msg = _KEY_PATH.sub("/k/***", message)
            record.args = ()
        return True
