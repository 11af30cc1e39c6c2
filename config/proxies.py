"""The client's address, as the sign-in throttle (django-axes) counts wrong passwords by it.

daphne gives a request the address of the socket's peer. Behind a reverse proxy that peer is
the proxy, for every member alike: the throttle would count everyone's wrong passwords as
one client's. ``TRUSTED_PROXIES`` (config.settings) declares the proxies, by address or
network. A request whose peer is one of them has its ``X-Forwarded-For`` read from the right:
each address a trusted proxy appended is passed over, and the first one that is not trusted
is the client's. Anything to its left was written by the client, who may write anything.
From any other peer the header is ignored, and the peer is the client.

(daphne's own ``--proxy-headers`` is not used: it believes the header's left-most address,
the one the client wrote, from any peer.)
"""

import ipaddress

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(text: str) -> tuple[Network, ...]:
    """``TRUSTED_PROXIES`` as written: addresses and networks, comma-separated."""
    found = []
    for part in text.split(","):
        if not part.strip():
            continue
        try:
            found.append(ipaddress.ip_network(part.strip(), strict=False))
        except ValueError:
            raise ImproperlyConfigured(
                f"TRUSTED_PROXIES: {part.strip()!r} is not an address or a network"
            ) from None
    return tuple(found)


def _address(text: str | None):
    try:
        return ipaddress.ip_address((text or "").strip())
    except ValueError:
        return None


def _trusted(address, proxies: tuple[Network, ...]) -> bool:
    return any(address.version == network.version and address in network for network in proxies)


def client_address(request) -> str | None:
    """The address of the client that sent ``request`` (``AXES_CLIENT_IP_CALLABLE``)."""
    peer = request.META.get("REMOTE_ADDR")
    proxies = settings.TRUSTED_PROXIES
    address = _address(peer)
    if address is None or not _trusted(address, proxies):
        return peer
    hops = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
    for hop in reversed(hops):
        forwarded = _address(hop)
        if forwarded is None:  # not an address: the nearest one known stands
            break
        address = forwarded
        if not _trusted(address, proxies):
            break
    return str(address)
