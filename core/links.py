"""Links the club hands to the phones in the room: an address this server answers at, the
room's where it can be, and a QR code of it made here as inline SVG (segno), since the room
has no internet.

Where the server listens (``LISTEN_HOST``, as ``make run`` starts daphne) decides:
- every interface (0.0.0.0): a page opened on the laptop itself (loopback) names the
  laptop's address on the room's network, which the server answers at too;
- loopback only: the page's own address; phones cannot reach it, and the pages that show
  links say so (``shut_out``);
- anything else, or unset (a served club behind its proxy): the page's own address.
"""

import ipaddress
from urllib.parse import urlsplit, urlunsplit

import segno
from django.conf import settings
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from config.addresses import lan_address

EVERY_INTERFACE = ("0.0.0.0", "::")
LOOPBACK_ONLY = _(
    "This server listens on this computer alone: phones cannot open these links or their QR "
    "codes. To let the room's phones in, stop it and start it again with make run "
    "HOST=0.0.0.0."
)
NO_NETWORK = _(
    "This computer is on no network: phones cannot open these links or their QR codes until "
    "it joins the room's network (its Wi-Fi, say) and this page is opened again."
)


def is_loopback(host: str | None) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host or "").is_loopback
    except ValueError:
        return False


def room_url(request, path: str) -> str:
    """``path`` absolute, at an address of this server that the room's phones reach where
    there is one."""
    url = urlsplit(request.build_absolute_uri(path))
    if settings.LISTEN_HOST in EVERY_INTERFACE and is_loopback(url.hostname):
        lan = lan_address()
        if lan:
            url = url._replace(netloc=f"{lan}:{url.port}" if url.port else lan)
    return urlunsplit(url)


def shut_out(request) -> str | None:
    """Why the room's phones cannot open the links a page shows them, if they cannot."""
    if is_loopback(settings.LISTEN_HOST):
        return str(LOOPBACK_ONLY)
    everywhere = settings.LISTEN_HOST in EVERY_INTERFACE
    if everywhere and is_loopback(urlsplit(room_url(request, "/")).hostname):
        return str(NO_NETWORK)
    return None


def qr_svg(url: str, title: str | None = None) -> SafeString:
    """The QR code of ``url``; segno escapes the title in its own markup."""
    svg = segno.make(url, error="m").svg_inline(scale=3, border=2, title=title)
    return mark_safe(svg)
