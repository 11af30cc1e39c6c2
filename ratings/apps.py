from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    """The club's ratings per game, derived from the results that the apps below announce:
    it may import every app; none imports it."""

    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self):
        from games.signals import deal_result_changed
        from tournaments.public.views import rating_changes
        from tournaments.signals import results_changed

        from . import casual_tables, pages, services, tournament_tables

        services.register(casual_tables.CasualTables())
        services.register(tournament_tables.TournamentTables())
        deal_result_changed.connect(casual_tables.deal_result_changed, dispatch_uid="ratings")
        results_changed.connect(tournament_tables.results_changed, dispatch_uid="ratings")
        rating_changes(pages.tournament_changes)  # the standings' rating column
