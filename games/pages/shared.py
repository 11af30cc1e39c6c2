"""What the pages of a table share: who may open each (the host's screen, the spectators'
key, a seat's own link, the table's management) and the page that refuses whoever may not,
a refusal worded for the page, the table page rendered whole or as the regions an htmx
answer changes, and a cycle's sheet. The page modules import this one and no other page
module (``tests/tables/test_page_modules.py``)."""

from dataclasses import fields
from functools import cached_property

from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from club.services import Forbidden
from core.links import qr_svg, room_url
from core.wording import refusal_text

from .. import regions, registry, selectors, services
from ..engine.cards import SUIT_SYMBOLS
from ..models import Seat, Table
from ..move_forms import posted_int
from ..page_data import running_totals_chart
from ..templatetags.cards import card_text

PARTIAL = "games/table.html#table"

# How the games' own params read in a refusal: a card, a suit by its symbol.
GAME_WORDS = {"card": card_text, "suit": SUIT_SYMBOLS.__getitem__}


def message_text(exc, players: list[str] | None = None, *, as_written: bool = False) -> str:
    """A refusal worded for the page (``core.wording.refusal_text``), its cards and suits as
    the games show them; ``players``: the table's names, in seat order."""
    return refusal_text(exc, players, words=GAME_WORDS, as_written=as_written)


def refused_page(request, message: str, status: int):
    return render(request, "games/refused.html", {"message": message}, status=status)


def not_host_page(request):
    return refused_page(request, _("This table is played on another screen."), 403)


# -- who may open each page ---------------------------------------------------------------------


def host_table(request, token: str) -> Table:
    """The table, if this user holds its screen; 404 for unknown addresses."""
    try:
        table = selectors.table_by_token(token)
    except Table.DoesNotExist:
        raise Http404 from None
    if not selectors.can_host(request.user, table):
        raise NotHost
    return table


class NotHost(Exception):
    pass


def table_get(handler):
    """A page of a table: for the member who holds its screen (and the directors)."""

    def view(request, token, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            table = host_table(request, token)
        except NotHost:
            return not_host_page(request)
        return handler(request, table, **kwargs)

    view.__name__ = handler.__name__
    return view


def table_post(handler):
    """A POST to a table: refusals come back as the page with a message and a 4xx status.
    The handler returns the deal it wrote, which is the table's current deal."""

    @require_POST
    def view(request, token):
        if not request.user.is_authenticated:
            return refused_page(request, _("Sign in to play."), 403)
        try:
            table = host_table(request, token)
        except NotHost:
            return not_host_page(request)
        try:
            deal = handler(request, table)
        except services.ServiceError as exc:
            return render_table(
                request, table, status=exc.status, error=message_text(exc, selectors.names(table))
            )
        if request.htmx:
            return render_table(request, table, deal=deal)
        return redirect(table)

    view.__name__ = handler.__name__
    return view


def table_watched(handler):
    """A page of a table for its spectators: anyone with the spectators' address, signed in
    or not; 404 for an unknown key."""

    @require_GET
    def view(request, key, **kwargs):
        try:
            table = selectors.table_by_watch_key(key)
        except Table.DoesNotExist:
            raise Http404 from None
        return handler(request, table, **kwargs)

    view.__name__ = handler.__name__
    return view


def seat_page(handler):
    """A page of a seat's own link: anyone who has it, signed in or not; a plain 404 for a
    key that is no seat's (or no longer: a replaced link)."""

    def view(request, key, **kwargs):
        try:
            seat = selectors.seat_by_key(key)
        except Seat.DoesNotExist:
            raise Http404 from None
        return handler(request, seat, **kwargs)

    view.__name__ = handler.__name__
    return view


def seat_post(handler):
    """A POST of a seat's own page: it acts for its seat alone (a posted seat that is
    another's is refused), as the table page's refusals come back."""

    @require_POST
    def view(request, key):
        try:
            seat = selectors.seat_by_key(key)
        except Seat.DoesNotExist:
            raise Http404 from None
        table = seat.table
        try:
            posted = "seat" in request.POST and posted_int(request.POST, "seat")
            if posted is not False and posted != seat.position:
                raise Forbidden(
                    gettext_noop("This page plays its own seat only; nothing was done.")
                )
            deal = handler(request, seat)
        except services.ServiceError as exc:
            return render_table(
                request,
                table,
                seat=seat,
                status=exc.status,
                error=message_text(exc, selectors.names(table)),
            )
        if request.htmx:
            return render_table(request, table, deal=deal, seat=seat)
        return redirect(seat)

    view.__name__ = handler.__name__
    return view


def table_managed(handler):
    """A change of a table (its name, finishing or abandoning it): for the member who
    started it, an organiser or a director of its tournament (``selectors.can_manage``); a
    clear refusal for anyone else."""

    @require_http_methods(["GET", "POST"])
    def view(request, token):
        if not request.user.is_authenticated:
            if request.method == "GET":
                return redirect_to_login(request.get_full_path())
            return refused_page(request, _("Sign in to change a table."), 403)
        try:
            table = selectors.managed_table(token)
        except Table.DoesNotExist:
            raise Http404 from None
        if not selectors.can_manage(request.user, table):
            if selectors.tournament_table(table) is not None:
                message = _(
                    "This table is played for a tournament: only a director of that tournament "
                    "may change it."
                )
            else:
                message = _(
                    "Only the member who started this table, or an organiser, may change it."
                )
            return refused_page(request, message, 403)
        return handler(request, table)

    view.__name__ = handler.__name__
    return view


# -- the table page -----------------------------------------------------------------------------


def _address(name: str) -> cached_property:
    return cached_property(lambda urls: reverse(name, args=[urls.token]))


class TableUrls:
    """The addresses of the table's forms, each reversed once a page at most: a board may
    hold a form a card, and each form names its address twice (action and hx-post)."""

    table = _address("table")
    act = _address("table-act")
    reveal = _address("table-reveal")
    take_back = _address("table-take-back")
    next_deal = _address("table-next-deal")

    def __init__(self, token: str):
        self.token = token


class SeatUrls(TableUrls):
    """The addresses of a seat's own page's forms (``/s/<key>/...``): they act for its seat
    alone, and the page names no other address of the table."""

    table = _address("seat")
    act = _address("seat-act")
    reveal = _address("seat")  # a device seat's page never reveals: nothing to post
    take_back = _address("seat-take-back")
    next_deal = _address("seat-next-deal")


def render_table(
    request,
    table,
    *,
    deal=None,
    error=None,
    status=200,
    chosen=None,
    spectator=False,
    seat=None,
):
    """The table page (its partial for htmx) showing ``deal``, by default the current one;
    a spectator's holds no hand, nor anything of a deal kept from him
    (``withheld_page``); ``seat``'s own page (a ``Seat``) holds his alone."""
    closed = not table.is_open  # finished or abandoned: no hand, nothing to press
    deal = deal or selectors.current_deal(table)
    shown = None
    if spectator:
        shown = selectors.deals_shown_to_spectators(table)
        if selectors.withheld_from_spectators(deal.number, shown):
            return withheld_page(request, table, deal, shown)
    page = selectors.table_page(
        table,
        deal,
        chosen=chosen,
        spectator=spectator or closed,
        seat=seat.position if seat is not None else None,
    )
    if closed and page.mode == "watch":
        page.mode = "closed"  # the deal was left unfinished: nobody is to play
        for row in page.seats:
            row.to_act = False
    context = {f.name: getattr(page, f.name) for f in fields(page)}
    context["error"] = error
    context["spectator"] = spectator
    context["fixed_deals"] = selectors.fixed_deals(table, page.deal)
    # the version it shows, as its live page compares it (selectors.deal_stamp, seat_stamp,
    # watch_stamp)
    if seat is not None:
        version = selectors.seat_stamp(seat, page.deal)
    elif spectator:
        version = selectors.watch_stamp(table, page.deal, shown)
    else:
        version = [page.deal.number, page.deal.version] + ([table.version] if table.version else [])
    context["stamp"] = " ".join(map(str, version))
    context["my_turn"] = seat is not None and page.mode == "turn"
    context["page_title"] = _("%(game)s · deal %(n)s") % {
        "game": page.game.title,
        "n": page.deal.number,
    }
    # only the regions that changed, for a page that says which it shows (games.regions)
    context["regions"] = regions.shown(request) if request.htmx and status == 200 else None
    if seat is not None:
        # the seat's own page knows its key alone, neither the table's nor the spectators'
        context["seat_key"] = seat.key
        context["live"] = f"/ws/seat/{seat.key}/"
        context["urls"] = SeatUrls(seat.key)
        context["seat_parts"] = selectors.seat_page_parts(request, seat)
        return table_response(request, context, status)
    context.update(table_extras(request, page, spectator))
    # the page's socket: a spectator's knows the spectators' key only
    context["live"] = f"/ws/watch/{table.watch_key}/" if spectator else f"/ws/t/{table.token}/"
    if not spectator and not request.htmx:
        context["seat_links"] = seat_links(request, table)
    if not spectator:
        context["watch_url"] = request.build_absolute_uri(table.get_watch_url())
        context["urls"] = TableUrls(table.token)
    return table_response(request, context, status)


def withheld_page(request, table, deal, shown: int):
    """The spectators' page while the table's current deal is kept from them (other tables
    are still to play it): its number, the players, and the replays of the deals they may
    see, nothing of the deal itself nor of any score; answered whole, also to htmx."""
    game = registry.game(table.game)
    context = {
        "withheld": True,
        "withheld_text": withheld_text(
            deal.number, selectors.fixed_deals(table, deal), over=deal.is_over
        ),
        "table": table,
        "game": game,
        "deal": deal,
        "players": selectors.names(table),
        "played_for": selectors.played_for(table),
        # every deal before the current one is over: a deal is dealt once the last is over
        "shown_deals": range(1, shown + 1),
        "spectator": True,
        "error": None,
        "my_turn": False,
        "regions": None,
        "live": f"/ws/watch/{table.watch_key}/",
        "stamp": " ".join(map(str, selectors.watch_stamp(table, deal, shown))),
        "page_title": _("%(game)s · deal %(n)s") % {"game": game.title, "n": deal.number},
    }
    return table_response(request, context, 200)


def withheld_text(number: int, fixed: int | None, *, over: bool = False) -> str:
    """What a spectator reads of a deal kept from him: its number alone."""
    params = {"n": number, "total": fixed}
    if fixed is None:
        return (
            _(
                "Deal %(n)s is played at other tables too: it is shown here once every one of "
                "them has played it."
            )
            % params
        )
    if over:
        return (
            _(
                "Deal %(n)s of %(total)s has been played here; it is the same at every table, and "
                "it is shown here once every table has played it."
            )
            % params
        )
    return (
        _(
            "Deal %(n)s of %(total)s is in play; it is the same at every table, and it is shown "
            "here once every table has played it."
        )
        % params
    )


def table_response(request, context: dict, status: int):
    """The table page, or its partial for htmx: the whole table, or its regions that
    changed, the table's own attributes beside them (``games.regions``)."""
    response = render(
        request, PARTIAL if request.htmx else "games/table.html", context, status=status
    )
    regions.answered(
        response,
        context["regions"],
        {
            "data-stamp": context["stamp"],
            "data-my-turn": "" if context["my_turn"] else None,
            "data-title": context["page_title"],
        },
    )
    return response


def table_extras(request, page, spectator: bool) -> dict:
    """What the table page shows beside the game, for whom may open it: the sheets of the
    cycles before the current one (no query), and, on the whole page only (not on each
    action's partial), whether he may rename, finish or abandon the table."""
    if spectator:
        return {}
    extras = {
        "earlier_sheets": selectors.earlier_sheets(page.table, page.sheet.cycle)
        if page.sheet
        else []
    }
    if not request.htmx:
        extras["can_manage"] = selectors.can_manage(request.user, page.table)
    return extras


def seat_links(request, table) -> list[dict]:
    """The device seats' own links, each with its QR code, for the shared screen to show.
    A link is a credential: whoever may manage the table sees every one, a member seated at
    it his own alone."""
    manager = selectors.can_manage(request.user, table)
    links = []
    for seat in table.seats.all():
        mine = seat.player_id is not None and seat.player.user_id == request.user.pk
        if seat.device and (manager or mine):
            url = room_url(request, seat.get_absolute_url())
            links.append({"seat": seat, "url": url, "qr": qr_svg(url)})
    return links


# -- a cycle's sheet ----------------------------------------------------------------------------


def sheet_response(request, table, number, spectator=False):
    cycle = table.cycles.filter(number=number).first()
    if cycle is None:
        raise Http404
    if spectator:
        shown = selectors.deals_shown_to_spectators(table)
        if shown is not None and cycle.deals.filter(number__gt=shown).exists():
            # its rows, or its totals, would tell of a deal kept from the spectators
            return refused_page(
                request,
                _(
                    "This score sheet holds deals that are the same at other tables: it is "
                    "shown here once every table has played them."
                ),
                403,
            )
    game = registry.game(table.game)
    sheet = selectors.cycle_sheet(cycle, selectors.names(table), game)
    return render(
        request,
        "games/cycle.html",
        {
            "table": table,
            "game": game,
            "sheet": sheet,
            "chart": running_totals_chart(sheet),
            "spectator": spectator,
            "title": game.presenter.sheet_title(cycle),
        },
    )
