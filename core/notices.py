"""Telling live pages that something changed, once the change is committed.

A notice carries no card and no result: each page fetches what its own viewer may see. A
notice that cannot be sent (the channel layer's Redis is down) is logged and dropped: the
write it follows has been saved, and the pages catch up on their next fetch.

In a request of the ASGI server the notice is handed to the server's event loop, which sends
it, and the request goes on without waiting for it: the in-memory layer's listeners have it
before the request's answer goes out (the loop runs what it is handed in turn), Redis's
while the answer is on its way.
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
        if layer is not None:
            send_soon(layer.group_send, group, message)

    transaction.on_commit(send)


_on_their_way: set = set()  # the notices handed to the server's loop, until sent
_thread = threading.local()


def send_soon(group_send, group: str, message: dict) -> None:
    """``group_send(group, message)``, logged if it fails: handed to the ASGI server's event
    loop in one of its requests, else sent now (``run``)."""

    async def send():
        try:
            await group_send(group, message)
        except Exception as exc:  # any failure of the layer: the write stands
            log.warning("notice to %s not sent: %r", group, exc)

    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is None or loop.is_closed():
        try:
            run(group_send, group, message)
        except Exception as exc:  # any failure of the layer: the write stands
            log.warning("notice to %s not sent: %r", group, exc)
        return
    future = asyncio.run_coroutine_threadsafe(send(), loop)
    _on_their_way.add(future)
    future.add_done_callback(_on_their_way.discard)


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
    coroutine = function(*args)
    try:
        loop.run_until_complete(coroutine)
    finally:
        coroutine.close()  # (never started, if this thread runs a loop already: no warning)


def close_loop() -> None:
    """Closes the loop this thread keeps for notices (``run``), if any: for a thread about
    to end, so that the channel layer flushes its connections in that thread, not wherever
    the loop is collected later (where another loop may be running)."""
    loop = getattr(_thread, "loop", None)
    _thread.loop = None
    if loop is not None and not loop.is_closed():
        loop.close()
