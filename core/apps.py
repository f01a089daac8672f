"""The core app: the bottom layer (errors, DRF pieces, engine messages, middleware, checks)."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = _("Pegboard")

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the checks)
