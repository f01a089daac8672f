from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ResultsConfig(AppConfig):
    name = "results"
    verbose_name = _("Results from the table")

    def ready(self) -> None:
        # The TD's pages (in tournaments, below this app) show the desk's badge and table
        # marks through a provider registered here; tournaments never imports results.
        from tournaments import hooks

        from . import selectors

        hooks.register_desk_provider(selectors.desk_marks)
