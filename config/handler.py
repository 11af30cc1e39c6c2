"""Django's ASGI handler, each request served whole in the one thread of its own.

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
"""

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler


class OneThreadASGIHandler(ASGIHandler):
    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
