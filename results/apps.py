from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ResultsConfig(AppConfig):
    name = "results"
    verbose_name = _("Results from the table")

    def ready(self) -> None:
        # The TD's pages (in tournaments, below this app) show the desk's badge and table
        # marks through a provider registered here; and tournaments announces a result taken
        # back (an undo), whose reports must stop counting. Tournaments never imports results.
        from tournaments import hooks

        from . import selectors, selectors_sheets
        from .services.reports import on_result_removed
        from .services.sheets import on_table_nets_changed

        hooks.register_desk_provider(selectors.desk_marks)
        hooks.register_nets_provider(selectors_sheets.reported_nets)
        hooks.result_removed_signal.connect(
            on_result_removed, dispatch_uid="results.supersede_reports"
        )
        hooks.table_nets_changed_signal.connect(
            on_table_nets_changed, dispatch_uid="results.replace_open_sheets"
        )
