"""The project's own app: system checks of the deployment shape."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PegboardConfig(AppConfig):
    name = "pegboard"
    verbose_name = _("Pegboard")

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the checks)
