from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TreasuryConfig(AppConfig):
    name = "treasury"
    verbose_name = _("Money desk")

    def ready(self) -> None:
        # The ACC event report's payback section and column: scoring sits below this app and
        # never imports it, so the report asks through the provider registered here.
        from scoring.acc_report import register_payback_provider

        from .acc_payback import acc_payback

        register_payback_provider(acc_payback)
