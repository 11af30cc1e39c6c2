"""A bound on the request bodies a server process takes in, met before the body is read.

daphne (through Twisted) receives a request's whole body before the application sees the
request, then hands it over at once: read so, one anonymous 50 MB POST grows a process by
some 650 MB, which it does not give back. No ASGI middleware can refuse earlier than that,
so the bound is kept where the body comes in: Twisted tells the request its declared length
as soon as the headers are read, then each piece of the body as it arrives. A body declared
longer than the limit, or sent in chunks (no Content-Length) that add up to more, is
answered at once with 413 and a short page in the reader's language; the rest of the body
is read and dropped, never kept, so that the client reads the answer (for at most
``LINGER_SECONDS``), and the connection is closed. Nothing reaches Django.

``install`` makes daphne build its requests from ``BoundedRequest``; ``config.asgi`` calls
it, so that every daphne process serving the club (``make run``, the served processes)
has the bound.
"""

from types import SimpleNamespace

from daphne import http_protocol
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from twisted.internet import reactor

LINGER_SECONDS = 10  # reading and dropping the rest of a refused body, at most


class BoundedRequest(http_protocol.WebRequest):
    limit: int = 0  # bytes (install)
    pages: dict[str, bytes] = {}  # language -> the 413 page (install)

    refused = False
    received = 0
    linger = None

    def gotLength(self, length):
        if length is not None and length > self.limit:
            super().gotLength(0)  # nothing of it will be kept
            self.refuse()
        else:
            super().gotLength(length)

    def handleContentChunk(self, data):
        if self.refused:
            return
        self.received += len(data)
        if self.received > self.limit:
            self.content.truncate(0)
            self.refuse()
            return
        super().handleContentChunk(data)

    def requestReceived(self, command, path, version):
        if self.refused:  # the whole body has been dropped: the answer was sent already
            self.channel.loseConnection()
            return
        super().requestReceived(command, path, version)

    def connectionLost(self, reason):
        if self.linger is not None and self.linger.active():
            self.linger.cancel()
        super().connectionLost(reason)

    def refuse(self) -> None:
        self.refused = True
        # answered now: no "100 Continue" after it for a client that waits for one
        self.requestHeaders.removeHeader(b"Expect")
        self.channel.persistent = False
        language = self.language()
        page = self.pages[language]
        head = (
            "HTTP/1.1 413 Content Too Large\r\n"
            "Content-Type: text/html; charset=utf-8\r\n"
            f"Content-Language: {language}\r\n"
            f"Content-Length: {len(page)}\r\n"
            "Connection: close\r\n\r\n"
        )
        self.channel.transport.write(head.encode("ascii") + page)
        self.linger = reactor.callLater(LINGER_SECONDS, self.abort)

    def abort(self) -> None:
        if self.channel is not None and self.channel.transport is not None:
            self.channel.transport.abortConnection()

    def language(self) -> str:
        """The reader's language, as Django's LocaleMiddleware finds it (its cookie, then
        Accept-Language), among the club's."""
        cookies = {
            key.decode("latin-1"): value.decode("latin-1")
            for key, value in self.received_cookies.items()
        }
        accept = (self.getHeader(b"Accept-Language") or b"").decode("latin-1")
        found = translation.get_language_from_request(
            SimpleNamespace(COOKIES=cookies, META={"HTTP_ACCEPT_LANGUAGE": accept})
        )
        return found if found in self.pages else settings.LANGUAGE_CODE


def install(limit: int) -> None:
    """daphne's requests are ``BoundedRequest``s, refusing bodies over ``limit`` bytes."""
    pages = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            pages[code] = render_to_string("413.html", {"limit_kib": limit // 1024}).encode()
    BoundedRequest.limit = limit
    BoundedRequest.pages = pages
    http_protocol.WebRequest = BoundedRequest  # what daphne's HTTPFactory builds requests of
