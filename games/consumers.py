"""The hotseat table's sockets (see ``club.consumers``): its host's page and the
spectators'."""

from club.consumers import LiveConsumer

from . import selectors
from .models import Table
from .services import group_name


class TableConsumer(LiveConsumer):
    """The hotseat page's socket: for a member who may open the table."""

    def find(self, token):
        table = Table.objects.filter(token=token).first()
        if table is None or not selectors.can_host(self.scope["user"], table):
            return None
        return group_name(table), table

    def stamp(self, table):
        return selectors.deal_stamp(table)


class WatchConsumer(TableConsumer):
    """A spectator's socket: the spectators' key is all it asks."""

    def find(self, key):
        table = Table.objects.filter(watch_key=key).first()
        return None if table is None else (group_name(table), table)
