"""The live pages' sockets, whatever their subject (a table, a tournament). They only
listen: on connecting, a page is told the version now (so a page that reconnects after a
drop or a restart catches up), then each new version. A notice holds version numbers, never
a card: each page fetches what its own viewer may see.
"""

import json
import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# Close codes of an open socket. daphne (through autobahn) sends only 1000 or 3000-4999 and
# fails with a traceback on any other; 4000-4999 are for private use. The page retries on any.
CLOSE_REFUSED_FRAME = 4003  # the page sent something: the pages send nothing
CLOSE_LAYER_FAILED = 4011  # the channel layer failed under the socket


class LiveConsumer(AsyncWebsocketConsumer):
    """A socket of one subject's live pages. ``find`` gives the subject's group, or None to
    refuse the handshake (an unknown key, a viewer who may not see it); ``stamp`` its
    version now."""

    group = None

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        except (RedisError, OSError) as exc:
            # The layer's Redis went away under an open socket: close it (the page says it
            # is disconnected and retries until Redis is back), with a line in the log.
            log.warning("live page dropped: the channel layer failed: %r", exc)
            await send({"type": "websocket.close", "code": CLOSE_LAYER_FAILED})

    def find(self, **route) -> tuple[str, object] | None:
        raise NotImplementedError

    def stamp(self, subject) -> list[int]:
        raise NotImplementedError

    async def connect(self):
        found = await database_sync_to_async(self.find)(**self.scope["url_route"]["kwargs"])
        if found is None:
            await self.close()  # before accepting: the handshake is refused (403)
            return
        group, subject = found
        try:
            await self.channel_layer.group_add(group, self.channel_name)
        except Exception as exc:  # the layer's Redis is down: the page retries until it is back
            log.warning("live page not joined to %s: %r", group, exc)
            await self.close()
            return
        self.group = group
        await self.accept()
        # read after joining: a change in between is announced twice, never missed
        await self.live_changed({"stamp": await database_sync_to_async(self.stamp)(subject)})

    async def disconnect(self, code):
        if self.group is not None:
            try:
                await self.channel_layer.group_discard(self.group, self.channel_name)
            except Exception as exc:  # the layer's Redis is down: its group entry expires
                log.warning("live page not removed from %s: %r", self.group, exc)

    async def receive(self, text_data=None, bytes_data=None):
        # the pages send nothing: whatever comes is refused
        await self.close(code=CLOSE_REFUSED_FRAME)

    async def live_changed(self, event):
        await self.send(text_data=json.dumps({"stamp": event["stamp"]}))


class Refuse(AsyncWebsocketConsumer):
    """Any other address: the handshake is refused."""

    async def connect(self):
        await self.close()
