"""Log lines without the secret part of an address: a table's entry link (``/e/<key>/``)
lets whoever holds it report the table's rows, so a 4xx line of it (Django logs each one
with its path) names it as ``/e/…/``. And a refusal in one line: Django logs a 403 with the
traceback of its ``PermissionDenied``, which says nothing about the code."""

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


class RefusalsInOneLine(logging.Filter):
    """A 4xx answer's line without the traceback of the exception that made it (a
    permission denied, a bad request): the cause is what was sent. A 500 keeps its own."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if record.name == "django.request" and isinstance(status, int) and status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
