from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TreasuryConfig(AppConfig):
    name = "treasury"
    verbose_name = _("Money desk")

    def ready(self) -> None:
        # Tournaments announces a changed result through its hooks and never imports this
        # app: a result corrected after the night was closed marks its payouts to re-check.
        from scoring.acc_report import register_payback_provider
        from tournaments import hooks

        from .acc_payback import acc_payback
        from .services import on_results_changed

        hooks.results_changed_signal.connect(
            on_results_changed, dispatch_uid="treasury.payouts_to_recheck"
        )
        # The ACC event report's payback section and column (scoring cannot import us).
        register_payback_provider(acc_payback)
