from games.consumers import LiveConsumer

from .models import Tournament
from .services import group_name


class TournamentConsumer(LiveConsumer):
    """The socket of a tournament's public pages (rounds, standings, projector): public as
    they are."""

    def find(self, key):
        tournament = Tournament.objects.filter(key=key).first()
        return None if tournament is None else (group_name(tournament), tournament)

    def stamp(self, tournament):
        return [Tournament.objects.values_list("version", flat=True).get(pk=tournament.pk)]
