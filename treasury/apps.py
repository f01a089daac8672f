from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TreasuryConfig(AppConfig):
    name = "treasury"
    verbose_name = _("Money desk")

    def ready(self) -> None:
        # The ACC event report's payback section and column: scoring sits below this app and
        # never imports it, so the report asks through the provider registered here.
        from scoring.acc_report import register_payback_provider
        from tournaments import hooks

        from .acc_payback import acc_payback
        from .services import on_event_cloned

        register_payback_provider(acc_payback)
        # A cloned event (the weekly night) keeps its fees and side pools.
        hooks.event_cloned_signal.connect(on_event_cloned, dispatch_uid="treasury.event_cloned")
