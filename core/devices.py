"""A phone known by a long-lived signed cookie (issue 34, item 7): the door's check-in counts
per device and names the device in the audit log, whether or not the phone keeps its session.

The cookie holds a random id signed with the site's key (``get_signed_cookie``): a phone
cannot pick another's id, only drop its own, and a request without a valid one gets a new
one, so dropping it makes a new device (the door then counts per address as well). The log
names a device by a short label, a hash of its id, never the id itself.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse

DEVICE_COOKIE = "pegboard_device"
DEVICE_SALT = "pegboard.device"
DEVICE_MAX_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie (RFC 6265bis)
LABEL_LENGTH = 8


@dataclass(frozen=True)
class Device:
    """A phone: its id (the cookie's, secret to it), and whether this request minted it."""

    id: str
    new: bool = False

    @property
    def label(self) -> str:
        """The device's name in the audit log: a hash of its id, 8 hex digits."""
        return hashlib.sha256(self.id.encode()).hexdigest()[:LABEL_LENGTH]


def _valid(value: str | None) -> str | None:
    """The cookie's id when it has an id's shape, else None."""
    if isinstance(value, str) and 20 <= len(value) <= 64 and value.isascii():
        return value
    return None


def device_of(request: HttpRequest) -> Device:
    """The request's device, from its signed cookie; a new one when it has none (or a cookie
    that is not signed by this site). Kept on the request: one device per request."""
    known = getattr(request, "_pegboard_device", None)
    if isinstance(known, Device):
        return known
    value = _valid(request.get_signed_cookie(DEVICE_COOKIE, default=None, salt=DEVICE_SALT))
    device = Device(value) if value else Device(secrets.token_urlsafe(24), new=True)
    request._pegboard_device = device  # type: ignore[attr-defined]
    return device


def remember_device(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Give the phone its device cookie when this request minted it (HttpOnly, SameSite=Lax,
    Secure when the site's cookies are or the request came over HTTPS)."""
    device = device_of(request)
    if device.new:
        response.set_signed_cookie(
            DEVICE_COOKIE,
            device.id,
            salt=DEVICE_SALT,
            max_age=DEVICE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=bool(settings.SESSION_COOKIE_SECURE or request.is_secure()),
        )
    return response
