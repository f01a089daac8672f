"""The API's allowances: each request counted against the client that sends it.

A hall puts every phone behind one NAT address, so an allowance per address would make the
whole room share one. A request is therefore counted once, against the first of these that
applies (the rates are declared once, in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``):

- ``user``: a signed-in client (a TD's token, a session), by its user;
- ``key``: a player's private key, on the views that take one (``private_key_field``, read
  from the URL or the body), by a hash of the key, before any lookup of it: no query;
- ``anon``: anyone else, by address (``NUM_PROXIES`` says which address is the client's).

The open checkers have their own per-address scope (``checker``, in ``games_web.api``). A
client over its allowance gets 429 with the standard error body and ``Retry-After``. Every
throttle fails open: with the cache (Redis) down, requests go through.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from rest_framework import throttling
from rest_framework.request import Request
from rest_framework.settings import api_settings

log = logging.getLogger(__name__)

MAX_KEY_LENGTH = 64
"""Longer text is no private key (they are 32 characters), and is counted by address."""


class LiveRatesMixin:
    """Rates read from the settings at each request: DRF's throttles read them once, when
    imported, so that a changed setting (an override in a test) never reached them."""

    scope: str | None

    def get_rate(self) -> str | None:
        """The rate of the throttle's scope in ``DEFAULT_THROTTLE_RATES``."""
        rates = api_settings.DEFAULT_THROTTLE_RATES
        if self.scope not in rates:
            raise ImproperlyConfigured(f"No throttle rate for the scope {self.scope!r}.")
        return rates[self.scope]


class FailOpenMixin:
    """A throttle that lets the request through when its cache (Redis) is down: a report or a
    count at the table matters more than the limit, which is back with the cache."""

    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            return super().allow_request(request, view)  # type: ignore[misc]
        except Exception as exc:  # the cache backend's own connection errors
            log.warning("throttle unavailable (%s); letting the request through", exc)
            return True


def private_key(request: Request, view: Any) -> str | None:
    """The private key a request carries, or None: the URL's value, else the body's, of the
    view's ``private_key_field``. Read from the request alone, never looked up.

    A body that does not parse raises its 400 here, as the view would, before any count.
    """
    field = getattr(view, "private_key_field", None)
    if field is None:
        return None
    key = getattr(view, "kwargs", {}).get(field)
    if key is None:
        data = request.data
        key = data.get(field) if isinstance(data, Mapping) else None
    if not isinstance(key, str) or not key or len(key) > MAX_KEY_LENGTH:
        return None
    return key


def client_address(request: Any) -> str:
    """The client's address as every limit reads it (the API's throttles, the login lockout,
    the public pages' own counters): behind ``NUM_PROXIES`` proxies, the address they report,
    so a hall behind the documented load balancer is not one client."""
    return str(throttling.BaseThrottle().get_ident(request) or "")


def client_of(request: Request, view: Any, address: str | None) -> tuple[str, str]:
    """``(scope, ident)``: whom a request is counted against (see the module's docstring).

    The key is hashed: a cache key names no secret, whatever the key holds.
    """
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return "user", str(user.pk)
    key = private_key(request, view)
    if key is not None:
        return "key", hashlib.sha256(key.encode()).hexdigest()[:32]
    return "anon", address or ""


class ClientRateThrottle(LiveRatesMixin, throttling.SimpleRateThrottle):
    """The default allowance: a signed-in user by user, a private key by key, anyone else by
    address, each at its scope's rate (``user``, ``key``, ``anon``)."""

    scope = "anon"

    def __init__(self) -> None:
        # Not DRF's: the scope, and so the rate, is known only once the request is.
        self.rate = None

    def allow_request(self, request: Request, view: Any) -> bool:
        """Count the request against its client; False once the allowance is used up."""
        # Outside the fail-open part: a body that does not parse is the client's 400.
        self.scope, self.ident = client_of(request, view, self.get_ident(request))
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        try:
            return super().allow_request(request, view)
        except Exception as exc:  # the cache backend's own connection errors
            log.warning("throttle unavailable (%s); letting the request through", exc)
            return True

    def get_cache_key(self, request: Request, view: Any) -> str:
        """The counter of the request's client, per scope."""
        return self.cache_format % {"scope": self.scope, "ident": self.ident}


class AnonRateThrottle(LiveRatesMixin, FailOpenMixin, throttling.AnonRateThrottle):
    """DRF's per-address rate for anonymous clients (signed-in ones are not counted), failing
    open without the cache; subclasses name their scope."""
