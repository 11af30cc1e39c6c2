"""The addresses ``make run`` serves at: ``python -m config.addresses HOST PORT`` prints them,
one a line (``--first``: the first only).

On 0.0.0.0 (every interface) it prints this machine's own address first (the one phones in
the room type in), and 127.0.0.1 after it. Nothing is sent: connecting a UDP socket only
asks the system which interface it would use.
"""

import socket
import sys


def lan_address() -> str | None:
    """This machine's address on its local network, or None without one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached, nothing is sent
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def addresses(host: str, port: str) -> list[str]:
    if host in ("0.0.0.0", ""):
        hosts = [h for h in (lan_address(), "127.0.0.1") if h]
    else:
        hosts = [f"[{host}]" if ":" in host else host]
    return [f"http://{h}:{port}/" for h in hosts]


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--first"]
    host, port = (args + ["127.0.0.1", "8000"][len(args) :])[:2]
    found = addresses(host, port)
    print("\n".join(found[:1] if "--first" in sys.argv else found))
