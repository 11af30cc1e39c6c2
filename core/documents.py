"""Reading a document a user gives a command or a page (a deal record, a tournament
document): UTF-8 text from a file, standard input or an uploaded file, refused before it is
read whole when it is too large."""

import sys

from .refusals import Refusal, gettext_noop

LIMIT = 16 * 1024 * 1024  # bytes: far beyond any record or tournament, short of any harm


class Unreadable(Refusal):
    """The document could not be read: the reason, for a one-line message."""


def too_large(limit: int) -> Unreadable:
    if limit >= 1024 * 1024 and limit % (1024 * 1024) == 0:
        return Unreadable(
            gettext_noop("larger than %(size)s MiB: not read"), size=limit // (1024 * 1024)
        )
    if limit >= 1024 and limit % 1024 == 0:
        return Unreadable(gettext_noop("larger than %(size)s KiB: not read"), size=limit // 1024)
    return Unreadable(gettext_noop("larger than %(size)s bytes: not read"), size=limit)


def read_text(name, limit: int | None = None) -> str:
    """The text of the file ``name`` (``-``: standard input; or a binary file object, such
    as an uploaded file), at most ``limit`` bytes."""
    limit = LIMIT if limit is None else limit
    try:
        if hasattr(name, "read"):
            data = name.read(limit + 1)
        elif name == "-":
            stream = getattr(sys.stdin, "buffer", sys.stdin)
            data = stream.read(limit + 1)
        else:
            with open(name, "rb") as f:
                data = f.read(limit + 1)
    except OSError as exc:
        raise Unreadable(
            gettext_noop("cannot read the file: %(reason)s"), reason=exc.strerror or str(exc)
        ) from None
    if len(data) > limit:
        raise too_large(limit)
    if isinstance(data, str):  # a text stream standing in for standard input
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Unreadable(gettext_noop("not UTF-8 text (byte %(byte)s)"), byte=exc.start) from None
