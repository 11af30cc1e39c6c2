"""Telling live pages that something changed, once the change is committed.

A notice carries no card and no result: each page fetches what its own viewer may see. A
notice that cannot be sent (the channel layer's Redis is down) is logged and dropped: the
write it follows has been saved, and the pages catch up on their next fetch.
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)


def send_on_commit(group: str, message: dict) -> None:
    def send():
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception as exc:  # any failure of the layer: the write stands
            log.warning("notice to %s not sent: %r", group, exc)

    transaction.on_commit(send)
