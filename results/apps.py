from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ResultsConfig(AppConfig):
    name = "results"
    verbose_name = _("Results from the table")

    def ready(self) -> None:
        # Tournaments announces a result taken back through its hooks (it never imports
        # results): the reports that confirmed it must stop counting.
        from tournaments import hooks

        from .services.reports import on_result_removed

        hooks.result_removed_signal.connect(
            on_result_removed, dispatch_uid="results.supersede_reports"
        )
