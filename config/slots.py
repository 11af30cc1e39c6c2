"""A bound on the HTTP requests one server process serves at once.

Django serves each request of an ASGI server in a thread of its own (asgiref gives every
request its own thread-sensitive context), and each of those threads opens its own database
connection: unbounded, a burst of fifty requests to one daphne process opened fifty-one
connections to PostgreSQL, and a few processes under such a burst reach the server's
``max_connections`` ("sorry, too many clients already": a 500). ``RequestSlots`` lets at most
``slots`` requests into Django at once; the others wait in the event loop, holding neither a
thread nor a connection, and are served in turn. A slot is held until Django has finished the
request, its connection closed (``request_finished``) included.
"""

import asyncio


class RequestSlots:
    def __init__(self, app, slots: int):
        if slots < 1:
            raise ValueError("REQUEST_SLOTS must be at least 1")
        self.app = app
        self.slots = slots
        self._semaphore: asyncio.Semaphore | None = None  # made in the server's event loop

    async def __call__(self, scope, receive, send):
        if self._semaphore is None:
            self._semaphore = asyncio.Semaphore(self.slots)
        async with self._semaphore:
            await self.app(scope, receive, send)
