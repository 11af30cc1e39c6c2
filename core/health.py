"""What ``/healthz`` checks: the database answers a statement, and the channel layer's Redis
(where one is configured) answers PING. A check that fails logs one line with its reason;
the answer itself names only what is down."""

import logging

from channels.layers import get_channel_layer
from django.db import connection

from .notices import run

log = logging.getLogger(__name__)


def database_up() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # whatever keeps it from answering
        log.warning("health check: the database did not answer: %r", exc)
        return False
    return True


def redis_up() -> bool:
    """True without Redis (the in-memory layer has nothing to reach)."""
    layer = get_channel_layer()
    if layer is None or not hasattr(layer, "ring_size"):
        return True

    async def ping():
        for index in range(layer.ring_size):
            await layer.connection(index).ping()

    try:
        run(ping)
    except Exception as exc:  # whatever keeps it from answering
        log.warning("health check: the channel layer's Redis did not answer: %r", exc)
        return False
    return True


def down() -> list[str]:
    """What is down, by name: "database", "redis"."""
    checks = (("database", database_up), ("redis", redis_up))
    return [name for name, check in checks if not check()]
