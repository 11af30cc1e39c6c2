"""A seat's own pages (``/s/<key>/``), played on its player's device: they show that seat's
hand alone and act for that seat alone (``shared.seat_page``, ``shared.seat_post``)."""

from django.views.decorators.http import require_GET

from .. import registry, services
from ..models import Deal
from ..move_forms import posted_int
from .shared import render_table, seat_page, seat_post


@seat_page
@require_GET
def seat_view(request, seat):
    return render_table(request, seat.table, seat=seat, chosen=request.GET.get("card"))


def seat_turn(request, seat) -> dict:
    """The fields of a seat page's turn: its seat, whatever the form says (``seat_post``)."""
    return {
        "deal": Deal(table=seat.table, number=posted_int(request.POST, "deal")),
        "seat": seat.position,
        "expected_version": posted_int(request.POST, "version"),
        "user": request.user if request.user.is_authenticated else None,
    }


@seat_post
def seat_act(request, seat):
    action = registry.game(seat.table.game).moves.parse(request.POST)
    return services.play(action=action, device=True, **seat_turn(request, seat))


@seat_post
def seat_take_back(request, seat):
    return services.take_back(device=True, **seat_turn(request, seat))


@seat_post
def seat_next_deal(request, seat):
    user = request.user if request.user.is_authenticated else None
    return services.next_deal(table=seat.table, after=posted_int(request.POST, "deal"), user=user)
