from core.consumers import LiveConsumer

from .addresses import key_lookup
from .models import Tournament
from .services import group_name


class TournamentConsumer(LiveConsumer):
    """The socket of a tournament's public pages (rounds, standings, projector): public as
    they are."""

    def find(self, key):
        # a page opened under a former key still follows the tournament
        tournament = Tournament.objects.filter(key_lookup(key)).first()
        return None if tournament is None else (group_name(tournament), tournament)

    def stamp(self, tournament):
        return [Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk)]
