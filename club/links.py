"""Links the club hands to the phones in the room: their address as the room reaches it, and
a QR code of it made here as inline SVG (segno), since the room has no internet."""

from urllib.parse import urlsplit, urlunsplit

import segno
from django.utils.safestring import SafeString, mark_safe

from config.addresses import lan_address

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def room_url(request, path: str) -> str:
    """``path`` absolute as the phones in the room reach it: a page opened on the laptop
    itself (127.0.0.1) names the laptop's address on the room's network instead."""
    url = urlsplit(request.build_absolute_uri(path))
    if url.hostname in LOOPBACK:
        lan = lan_address()
        if lan:
            netloc = f"{lan}:{url.port}" if url.port else lan
            url = url._replace(netloc=netloc)
    return urlunsplit(url)


def qr_svg(url: str, title: str | None = None) -> SafeString:
    """The QR code of ``url``; segno escapes the title in its own markup."""
    svg = segno.make(url, error="m").svg_inline(scale=3, border=2, title=title)
    return mark_safe(svg)
