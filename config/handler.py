"""Django's ASGI handler, each request served whole in one thread, of a fixed set.

Django's own ASGI handler runs the middleware and the view in the request's thread, but an
exception turned into an error page (a 404, a 403, a 400, a 500) is rendered in a thread of
the event loop's default executor (``convert_exception_to_response`` runs it with
``thread_sensitive=False``). The error page shows the signed-in member, so that thread opens
a database connection, and nothing ever closes it: connections belong to threads, and only
the request's own thread is told that the request has finished. A burst of error pages would
leave an idle connection in each of those threads, beyond the process's request slots.

Here the middleware chain is built synchronous, as under WSGI, and run whole in the
request's thread: the view, the error page and the end of the request (which gives the
connection back) all happen there. The project's views and middleware are synchronous, so
this also saves a thread hop for each middleware.

Django also starts a new thread for every request (a ``ThreadSensitiveContext`` of its own)
and stops it at the end. Here a request borrows one of ``threads`` long-lived threads (as
many as the process's request slots, ``config.slots``) for all its synchronous work, the
one most lately used first, and gives it back when it is done: no thread is started a
request, and a thread's SQLite connection, kept open (``CONN_MAX_AGE``, config.settings),
serves its next request too, no connection opened a request.
"""

import asyncio
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler


class OneThreadASGIHandler(ASGIHandler):
    def __init__(self, threads: int = 1):
        super().__init__()
        if threads < 1:
            raise ValueError("a handler needs at least one thread")
        self.threads = threads
        self._idle: asyncio.LifoQueue | None = None  # made in the server's event loop

    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        if self._idle is None:
            self._idle = asyncio.LifoQueue()
            for n in range(self.threads):
                self._idle.put_nowait(ThreadPoolExecutor(1, thread_name_prefix=f"request-{n}"))
        # (under config.slots one is always idle; without it, a request waits here for one)
        executor = await self._idle.get()
        try:
            # every thread-sensitive call of the request, Django's own too, runs in it
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self._idle.put_nowait(executor)

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
