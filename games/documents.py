"""Reading a document a user gives a command (a deal record, a tournament document): UTF-8
text from a file or standard input, refused before it is read whole when it is too large."""

import sys

LIMIT = 16 * 1024 * 1024  # bytes: far beyond any record or tournament, short of any harm


class Unreadable(Exception):
    """The document could not be read: the reason, for a one-line message."""


def read_text(name: str, limit: int | None = None) -> str:
    """The text of the file ``name`` (``-``: standard input), at most ``limit`` bytes."""
    limit = LIMIT if limit is None else limit
    try:
        if name == "-":
            stream = getattr(sys.stdin, "buffer", sys.stdin)
            data = stream.read(limit + 1)
        else:
            with open(name, "rb") as f:
                data = f.read(limit + 1)
    except OSError as exc:
        raise Unreadable(f"cannot read the file: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise Unreadable(f"larger than {limit // (1024 * 1024)} MiB: not read")
    if isinstance(data, str):  # a text stream standing in for standard input
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Unreadable(f"not UTF-8 text (byte {exc.start})") from None
