"""A table's entry link as the room reaches it, and its QR code (``core.links``): the printed
sheet and the round page of its scorers show it to the players' phones."""

from dataclasses import dataclass

from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from core.links import qr_svg, room_url

from ..models import RoundTable


@dataclass(frozen=True)
class EntryLink:
    url: str
    svg: SafeString


def offered(table: RoundTable) -> bool:
    """The link is offered to a table played with real cards whose sheet no scorer has
    typed in (``results.services.report_closed`` refuses the others)."""
    return table.hotseat_id is None and table.entered_by_id is None


def entry_link(request, table: RoundTable) -> EntryLink:
    url = room_url(request, reverse("entry", args=[table.entry_key]))
    title = _("Entry link of table %(number)s") % {"number": table.number}
    return EntryLink(url, qr_svg(url, title))
