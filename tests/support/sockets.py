"""The club's websockets driven in-process through the whole ASGI application."""

from channels.testing import WebsocketCommunicator

from config.asgi import application

ORIGIN = (b"origin", b"http://localhost")


def socket(path: str, *headers) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, path, headers=list(headers))
