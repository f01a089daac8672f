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
        from .selectors import money_kept
        from .services import on_event_cloned, on_event_from_template, on_template_saved

        register_payback_provider(acc_payback)
        # An event whose door took money (or whose night was closed) is never deleted.
        hooks.register_keep_reason(money_kept)
        # A cloned event (the weekly night) keeps its fees and side pools.
        hooks.event_cloned_signal.connect(on_event_cloned, dispatch_uid="treasury.event_cloned")
        # And so does a template of the weekly night, and each event made from it.
        hooks.event_template_saved_signal.connect(
            on_template_saved, dispatch_uid="treasury.template_saved"
        )
        hooks.event_from_template_signal.connect(
            on_event_from_template, dispatch_uid="treasury.event_from_template"
        )
