"""The served process's handler (config/handler.py): each request whole in one thread, of a
fixed set as large as the process's request slots, used again request after request."""

import asyncio
import threading

from django.http import HttpResponse

from config.handler import OneThreadASGIHandler

SCOPE = {
    "type": "http",
    "asgi": {"version": "3.0"},
    "http_version": "1.1",
    "method": "GET",
    "scheme": "http",
    "path": "/",
    "raw_path": b"/",
    "query_string": b"",
    "root_path": "",
    "headers": [(b"host", b"127.0.0.1")],
    "client": ("127.0.0.1", 50000),
    "server": ("127.0.0.1", 8000),
}


def serving(threads: int, requests: int, at_once: int) -> tuple[list[str], list[int]]:
    """``requests`` requests through a handler of ``threads`` threads, ``at_once`` at a
    time: the thread each was served in, and the statuses answered."""
    handler = OneThreadASGIHandler(threads)
    served_in = []

    def respond(request):
        served_in.append(threading.current_thread().name)
        return HttpResponse("ok")

    handler.get_response = respond
    statuses = []

    async def one():
        sent = asyncio.Event()
        messages = iter([{"type": "http.request", "body": b""}])

        async def receive():
            try:
                return next(messages)
            except StopIteration:
                await sent.wait()
                return {"type": "http.disconnect"}

        async def send(message):
            if message["type"] == "http.response.start":
                statuses.append(message["status"])
            elif not message.get("more_body"):
                sent.set()

        await handler(dict(SCOPE), receive, send)

    async def all_of_them():
        for start in range(0, requests, at_once):
            await asyncio.gather(*(one() for _ in range(min(at_once, requests - start))))

    asyncio.run(all_of_them())
    return served_in, statuses


def test_requests_one_after_another_are_served_in_one_thread_kept_for_them():
    served_in, statuses = serving(threads=4, requests=6, at_once=1)
    assert statuses == [200] * 6
    assert len(set(served_in)) == 1  # the one most lately used: its connection kept warm


def test_requests_at_once_never_take_more_threads_than_the_handler_has():
    served_in, statuses = serving(threads=2, requests=12, at_once=5)
    assert statuses == [200] * 12
    assert len(set(served_in)) == 2
