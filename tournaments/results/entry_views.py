"""A table's entry link (``/e/<key>/``): its players report its rows from their phones,
without signing in. Each says who he is among the table's players (kept in his session for
that table); one enters a deal's row as the typed sheet reads it, another confirms it. Parse,
call one service, render; a refusal keeps what was typed, its reason beside the row, and
changes nothing. The key is the only way in: a wrong one is a plain 404."""

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from club.services import ServiceError, Stale
from core.wording import refusal_text
from games import registry

from .. import services
from ..models import RoundTable
from ..run.forms import RowInputError
from . import selectors as results_selectors
from . import services as results_services
from .forms import ROW, row_form, typed_row

TEMPLATE = "tournaments/entry/entry.html"


def session_key(table: RoundTable) -> str:
    return f"entry-seat-{table.pk}"


def table_or_404(key: str) -> RoundTable:
    table = results_selectors.entry_table(key)
    if table is None:
        raise Http404
    return table


def my_seat(request, table: RoundTable) -> int | None:
    """The seat this phone said it is, if it is still one of the table's."""
    seat = request.session.get(session_key(table))
    return seat if type(seat) is int and 0 <= seat < len(table.seats.all()) else None


def entry_url(table: RoundTable) -> str:
    return reverse("entry", args=[table.entry_key])


def labels(layout) -> dict[str, str]:
    return {spec["key"]: _(spec["label"]) for spec in layout.fields}


def render_entry(request, table, *, sheet=None, row_error=None, error=None, status=200):
    """The table's report as this phone's player sees it; ``sheet``: the row as posted,
    ``row_error``: its refusal, said beside it."""
    page = results_selectors.report(table)
    seat = my_seat(request, table)
    closed = results_services.report_closed(table)
    mine = page.pending is not None and page.pending.seat == seat
    editing = mine and (request.GET.get("change") == "1" or sheet is not None)
    if sheet is None:
        sheet = row_form(page.layout, saved=page.pending.data if editing else None)
    index = page.pending.index if editing else page.next_index
    if row_error:
        error = _("Row %(row)s: %(reason)s") % {"row": index, "reason": row_error}
    context = {
        "page": page,
        "tournament": page.tournament,
        "table": table,
        "layout": page.layout,
        "game": registry.game(page.tournament.game),
        "seat": seat,
        "me": page.names[seat] if seat is not None else None,
        "mine": mine,
        "editing": editing,
        # the row's form, while he may enter the next row or change his own
        "open": seat is not None
        and not closed
        and (editing or (page.pending is None and not page.complete)),
        "index": index,
        "seen": results_services.report_version(table),
        "line": sheet.lines(ROW, row_error)[0],
        "error": error,
        "closed": closed and refusal_text(closed),
    }
    return render(request, TEMPLATE, context, status=status)


def refused(request, table, exc, *, sheet=None):
    """The page again with the refusal: a row's beside the row (seats from 1 with their
    players), a stale page's with the table as it is now."""
    status = getattr(exc, "status", 400)
    if (
        isinstance(exc, Stale)
        or sheet is None
        or not isinstance(exc, (RowInputError, services.SheetRefused))
    ):
        keep = None if isinstance(exc, Stale) else sheet
        return render_entry(request, table, sheet=keep, error=refusal_text(exc), status=status)
    names = [str(seat.entrant.player) for seat in table.seats.all()]
    layout = results_selectors.report(table).layout
    text = refusal_text(exc, names, labels(layout))
    return render_entry(request, table, sheet=sheet, row_error=text, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def entry(request, key):
    """The table's report; a POST enters the next deal's row (or changes his own row
    awaiting confirmation)."""
    table = table_or_404(key)
    if request.method != "POST":
        closed = results_services.report_closed(table)
        return render_entry(request, table, status=409 if closed else 200)
    layout = results_selectors.report(table).layout
    sheet = row_form(layout, data=request.POST)
    try:
        results_services.report_row(
            table=table,
            seat=my_seat(request, table),
            data=typed_row(sheet),
            seen=request.POST.get("seen", ""),
        )
    except (RowInputError, ServiceError) as exc:
        return refused(request, table, exc, sheet=sheet)
    return redirect(entry_url(table))


@require_POST
def entry_seat(request, key):
    """This phone's player, one of the table's."""
    table = table_or_404(key)
    try:
        seat = int(request.POST.get("seat", ""))
    except ValueError:
        seat = -1
    if not 0 <= seat < len(table.seats.all()):
        return render_entry(
            request, table, error=_("Choose one of the table's players."), status=400
        )
    request.session[session_key(table)] = seat
    return redirect(entry_url(table))


@require_POST
def entry_withdraw(request, key):
    table = table_or_404(key)
    try:
        results_services.withdraw_reported_row(
            table=table, seat=my_seat(request, table), seen=request.POST.get("seen", "")
        )
    except ServiceError as exc:
        return refused(request, table, exc)
    return redirect(entry_url(table))


@require_POST
def entry_confirm(request, key):
    table = table_or_404(key)
    try:
        results_services.confirm_reported_row(
            table=table, seat=my_seat(request, table), seen=request.POST.get("seen", "")
        )
    except ServiceError as exc:
        return refused(request, table, exc)
    return redirect(entry_url(table))
