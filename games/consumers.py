"""The hotseat table's sockets (see ``core.consumers``): its host's page, the
spectators' and each seat's own page."""

from channels.db import database_sync_to_async

from core.consumers import CLOSE_REFUSED_FRAME, LiveConsumer

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

    async def live_changed(self, event):
        if event.get("spectators"):  # for the spectators' pages alone
            return
        await super().live_changed(event)


class WatchConsumer(TableConsumer):
    """A spectator's socket: the spectators' key is all it asks. Its version is the
    spectators' page's (``selectors.watch_stamp``): a table whose deals are fixed adds how
    many of them its spectators see, which a notice for the spectators alone
    (``services.notify_spectators_on_commit``) has read afresh."""

    def find(self, key):
        table = Table.objects.filter(watch_key=key).first()
        if table is None:
            return None
        self.table = table
        return group_name(table), table

    def stamp(self, table):
        return selectors.current_watch_stamp(table)

    shown = None  # the version last sent

    async def live_changed(self, event):
        if self.shown is None:  # on connecting: the page's own version, read just now
            stamp = event["stamp"]
        elif event.get("spectators"):
            stamp = await database_sync_to_async(selectors.current_watch_stamp)(self.table)
            if stamp == self.shown:  # nothing it shows has changed
                return
        elif len(self.shown) == 4:  # the table's own notice, of a table whose deals are fixed
            number, version, *own = event["stamp"]
            stamp = [number, version, own[0] if own else self.shown[2], self.shown[3]]
        else:
            stamp = event["stamp"]
        self.shown = stamp
        await LiveConsumer.live_changed(self, {"stamp": stamp})


class SeatConsumer(TableConsumer):
    """A seat's own page's socket (``/ws/seat/<key>/``): versions only, as every live
    page's, the seat page's own (``selectors.seat_stamp``: the table's and its parts'):
    the table's notices bring the table's part, a notice that a part may have changed
    (``parts``) has it read afresh. Its one frame is "ping", every 20 seconds, which
    says the page is open (who is connected, whichever process holds the socket); a
    replaced key is refused, and its pings close the socket."""

    def find(self, key):
        seat = Seat.objects.filter(key=key, robot="").select_related("table").first()
        if seat is None:
            return None
        self.key = key
        services.seat_seen(key)
        return group_name(seat.table), seat.table

    def stamp(self, table):
        return self.page_stamp()

    def page_stamp(self):
        """The seat page's version now, read by the seat's key; None once its link is
        replaced."""
        try:
            seat = selectors.seat_by_key(self.key)
        except Seat.DoesNotExist:
            return None
        return selectors.seat_stamp(seat, selectors.current_deal(seat.table))

    shown = None  # the version last sent

    async def live_changed(self, event):
        if event.get("spectators"):  # for the spectators' pages alone
            return
        if self.shown is None:  # on connecting: the page's own version, read just now
            stamp = event["stamp"]
        elif event.get("parts"):  # a part may have changed: read afresh
            stamp = await database_sync_to_async(self.page_stamp)()
            if stamp is None:  # a replaced link: the page asks, and learns it is gone
                await super().live_changed(event)
                return
        else:  # the table's own notice: its deal's version, and its own if it has one
            number, version, *own = event["stamp"]
            stamp = [number, version, own[0] if own else self.shown[2], *self.shown[3:]]
        self.shown = stamp
        await super().live_changed({**event, "stamp": stamp})

    async def receive(self, text_data=None, bytes_data=None):
        if text_data != "ping" or not await database_sync_to_async(services.seat_seen)(self.key):
            await self.close(code=CLOSE_REFUSED_FRAME)
