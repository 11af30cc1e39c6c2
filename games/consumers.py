"""The hotseat table's sockets (see ``club.consumers``): its host's page, the
spectators' and each seat's own page."""

from channels.db import database_sync_to_async

from club.consumers import CLOSE_REFUSED_FRAME, LiveConsumer

from . import selectors, services
from .models import Seat, Table
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


class SeatConsumer(TableConsumer):
    """A seat's own page's socket (``/ws/seat/<key>/``): versions only, as every live
    page's. Its one frame is "ping", every 20 seconds, which says the page is open (who is
    connected, whichever process holds the socket); a replaced key is refused, and its
    pings close the socket."""

    def find(self, key):
        seat = Seat.objects.filter(key=key, robot="").select_related("table").first()
        if seat is None:
            return None
        self.key = key
        services.seat_seen(key)
        return group_name(seat.table), seat.table

    async def receive(self, text_data=None, bytes_data=None):
        if text_data != "ping" or not await database_sync_to_async(services.seat_seen)(self.key):
            await self.close(code=CLOSE_REFUSED_FRAME)
