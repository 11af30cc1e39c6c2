"""A table at its shared screen, for whoever holds it (``shared.table_get``): the table
page, its turn's forms (reveal, act, take back, the next deal) and a cycle's sheet."""

from .. import registry, services
from ..models import Deal
from ..move_forms import posted_int
from .shared import render_table, sheet_response, table_get, table_post


@table_get
def table_view(request, table):
    return render_table(request, table, chosen=request.GET.get("card"))


def turn(request, table) -> dict:
    """The fields every turn's form carries: the deal and version it showed, and the seat.
    The deal is named by its table and number only: the service reads it, under lock."""
    deal = Deal(table=table, number=posted_int(request.POST, "deal"))
    return {
        "deal": deal,
        "seat": posted_int(request.POST, "seat"),
        "expected_version": posted_int(request.POST, "version"),
        "user": request.user,
    }


@table_post
def reveal(request, table):
    return services.reveal(**turn(request, table))


@table_post
def act(request, table):
    """An action or a step of the game: its own ``Moves`` reads it from the form."""
    action = registry.game(table.game).moves.parse(request.POST)
    return services.play(action=action, **turn(request, table))


@table_post
def take_back(request, table):
    return services.take_back(**turn(request, table))


@table_post
def next_deal(request, table):
    return services.next_deal(
        table=table, after=posted_int(request.POST, "deal"), user=request.user
    )


@table_get
def cycle_sheet(request, table, number):
    """A cycle's (or match's) score sheet on a page of its own, to print or to project."""
    return sheet_response(request, table, number)
