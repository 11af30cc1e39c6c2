"""Telling live pages that something changed, once the change is committed.

A notice carries no card and no result: each page fetches what its own viewer may see. A
notice that cannot be sent (the channel layer's Redis is down) is logged and dropped: the
write it follows has been saved, and the pages catch up on their next fetch.
"""

import asyncio
import logging
import threading

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)


def send_on_commit(group: str, message: dict) -> None:
    def send():
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            run(layer.group_send, group, message)
        except Exception as exc:  # any failure of the layer: the write stands
            log.warning("notice to %s not sent: %r", group, exc)

    transaction.on_commit(send)


_thread = threading.local()


def run(function, *args) -> None:
    """Await ``function(*args)`` from sync code. In a request of the ASGI server, in the
    server's event loop, where the in-memory layer's listeners wait (asgiref hands it over).
    Elsewhere (a command, a WSGI request) in an event loop this thread keeps: asgiref would
    start a new thread and a new loop for every notice, and Redis a new connection."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop", None) is not None:
        async_to_sync(function)(*args)
        return
    loop = getattr(_thread, "loop", None)
    if loop is None or loop.is_closed():
        loop = _thread.loop = asyncio.new_event_loop()
    loop.run_until_complete(function(*args))
