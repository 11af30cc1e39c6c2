"""The seats' own links of a round's tables played here on the players' devices. A seat link
is a credential (whoever holds it plays that seat): only the tournament's directors (the
round page, with each link's QR code) and the seat's own player (his page) are shown it."""

from dataclasses import dataclass

from core.links import qr_svg, room_url
from games.models import Seat

from .models import RoundTable


@dataclass(frozen=True)
class SeatLink:
    number: int  # the seat, from 1
    name: str
    player_id: int
    url: str
    qr: str = ""  # inline SVG, where the link is to be scanned


def device_seats(tables: list[RoundTable], player=None) -> dict[int, list[Seat]]:
    """The device seats of those of ``tables`` played here (only ``player``'s, if given), by
    round table id, in seat order (1 query, none without a table played here)."""
    round_tables = {t.hotseat_id: t.pk for t in tables if t.hotseat_id is not None}
    if not round_tables:
        return {}
    seats = Seat.objects.filter(table__in=round_tables, device=True).select_related("player")
    if player is not None:
        seats = seats.filter(player=player)
    found: dict[int, list[Seat]] = {}
    for seat in seats.order_by("table", "position"):
        found.setdefault(round_tables[seat.table_id], []).append(seat)
    return found


def seat_link(request, seat: Seat, *, qr: bool = False) -> SeatLink:
    """The seat's link as the phones in the room reach it, and its QR code if asked."""
    url = room_url(request, seat.get_absolute_url())
    return SeatLink(seat.position + 1, seat.name, seat.player_id, url, qr_svg(url) if qr else "")
