"""Log lines without the secret part of an address: a table's entry link (``/e/<key>/``)
lets whoever holds it report the table's rows, so a 4xx line of it (Django logs each one
with its path) names it as ``/e/…/``."""

import logging
import re

# and a seat's own link (``/s/<key>/``, its socket ``/ws/seat/<key>/``), which plays the seat
SECRET = re.compile(r"(/(?:e|s|ws/seat)/)[^/\s?#\"']+")


def hidden(value):
    return SECRET.sub(r"\1…", value) if isinstance(value, str) else value


class HideKeys(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = hidden(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(hidden(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: hidden(arg) for key, arg in record.args.items()}
        return True
