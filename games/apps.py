from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        from club import ratings as club_ratings

        from . import ratings, signals

        club_ratings.register(ratings.CasualTables())
        signals.deal_result_changed.connect(ratings.deal_result_changed, dispatch_uid="ratings")
