"""``python -m config.reachable URL...``: exit 0 when every server the URLs name answers a
TCP connection within two seconds (make test's second run needs PostgreSQL and Redis)."""

import socket
import sys
from urllib.parse import urlsplit

DEFAULT_PORTS = {"postgresql": 5432, "postgres": 5432, "redis": 6379}


def reachable(url: str) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection(
            (parts.hostname or "127.0.0.1", parts.port or DEFAULT_PORTS[parts.scheme]), 2
        ):
            return True
    except (OSError, KeyError):
        return False


if __name__ == "__main__":
    missing = [url for url in sys.argv[1:] if not reachable(url)]
    for url in missing:
        print(f"not reachable: {urlsplit(url).scheme}://{urlsplit(url).hostname}", file=sys.stderr)
    sys.exit(1 if missing else 0)
