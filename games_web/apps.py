from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesWebConfig(AppConfig):
    """The web face of the rules engines: checker pages, their API and commands. The engines
    themselves (``games.cribbage``, ``games.stoppa``) import no Django."""

    name = "games_web"
    verbose_name = _("Game checkers")
