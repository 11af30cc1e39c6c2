from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self):
        from games.selectors import seat_page_part, spectator_limit, table_directors
        from games.signals import deal_result_changed, table_abandoned

        from .check_in.selectors import seat_stamp
        from .check_in.views import seat_check_in
        from .duplicate.selectors import deals_shown
        from .receivers import hotseat_deal_changed, hotseat_table_abandoned
        from .roles import directs_table

        deal_result_changed.connect(hotseat_deal_changed, dispatch_uid="tournament-sheets")
        table_abandoned.connect(hotseat_table_abandoned, dispatch_uid="tournament-tables")
        table_directors(directs_table)  # who may abandon a tournament's table played here
        # a seat's player checks in for the next round there
        seat_page_part(seat_check_in, seat_stamp)
        # a duplicate round's deal is no spectator's until every table has played it
        spectator_limit(deals_shown)
