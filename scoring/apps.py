from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        # Tournaments announces changed results and asks for rankings through its hooks; it
        # never imports scoring, so the wiring happens here.
        from tournaments import hooks

        from . import mrp_awards, ratings, seasons, selectors, services

        hooks.results_changed_signal.connect(
            services.on_results_changed, dispatch_uid="scoring.queue_standings"
        )
        hooks.register_rating_provider(ratings.entry_ratings)
        hooks.players_merged_signal.connect(
            ratings.on_players_merged, dispatch_uid="scoring.merge_ratings"
        )
        hooks.players_merged_signal.connect(
            seasons.on_players_merged, dispatch_uid="scoring.merge_ledgers"
        )
        hooks.event_season_changed_signal.connect(
            seasons.on_event_season_changed, dispatch_uid="scoring.event_season_changed"
        )
        hooks.event_season_changed_signal.connect(
            mrp_awards.on_event_finished, dispatch_uid="scoring.compute_mrp"
        )
        hooks.register_ranking_provider(selectors.current_ranking)
