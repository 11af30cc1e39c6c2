"""Pages: parse the input, call one service, render the page or its htmx partial."""

import io
import json
from dataclasses import fields
from functools import cached_property

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from club import health
from club.documents import Unreadable, read_text
from club.links import qr_svg, room_url
from club.services import Forbidden
from club.wording import SHOWN_VALUE, refusal_text

from . import regions, registry, replays, selectors, services
from .engine import InvalidRecord
from .engine.cards import SUIT_SYMBOLS
from .engine.records import IllegalRecordAction, parse
from .models import Deal, Seat, Table
from .moves import posted_int
from .presenters import running_totals_chart
from .templatetags.cards import card_text

PARTIAL = "games/table.html#table"
HOME_TABLES = 5  # a member's latest tables on the front page
TABLES_A_PAGE = 20


def home(request):
    """The games to start a table of, and a member's latest tables (the list has the rest)."""
    rows, seated = [], []
    if request.user.is_authenticated:
        user = request.user
        rows = selectors.table_rows(user, selectors.tables_of(user)[:HOME_TABLES])
        seated = selectors.my_seats(user, HOME_TABLES)
    return render(
        request, "games/home.html", {"rows": rows, "seated": seated, "games": registry.games()}
    )


@require_GET
def healthz(request):
    """For a monitor or a proxy: "ok" when the database answers (and the channel layer's
    Redis, where one is set), else 503 naming what is down (the log says why)."""
    down = health.down()
    if down:
        return HttpResponse("down: " + ", ".join(down), status=503, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def rules(request, game):
    """A game's rules for players, public: the page's frame is shared, the text is the game's
    own, written in the reader's language (``Game.rules_templates``)."""
    try:
        game = registry.game(game)
        text = select_template(game.rules_templates(get_language())).template.name
    except (registry.UnknownGame, TemplateDoesNotExist):
        raise Http404 from None
    return render(
        request,
        "games/rules.html",
        {
            "game": game,
            "games": registry.games(),
            "text": text,
            # the options form, unbound: the text names each option by the form's own label
            "form": game.form(),
        },
    )


@login_required
def new_table(request, game):
    try:
        game = registry.game(game)
    except registry.UnknownGame:
        raise Http404 from None
    # the member who starts a table usually plays at it: seat 1 is his, until changed
    player = getattr(request.user, "club_player", None)
    form = game.form(
        request.POST or None, game=game.key, initial={"seat_0": player.pk} if player else None
    )
    if request.method == "POST" and form.is_valid():
        try:
            table = services.start_table(
                user=request.user,
                game=game.key,
                players=form.seated(),
                options=form.options(),
                devices=form.devices(),
            )
        except services.ServiceError as exc:
            form.refuse(exc, message_text(exc))
        else:
            return redirect(table)
    status = 400 if request.method == "POST" else 200
    return render(request, "games/new_table.html", {"form": form, "game": game}, status=status)


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


def refused_page(request, message: str, status: int):
    return render(request, "games/refused.html", {"message": message}, status=status)


def not_host_page(request):
    return refused_page(request, _("This table is played on another screen."), 403)


# How the games' own params read in a refusal: a card, a suit by its symbol.
GAME_WORDS = {"card": card_text, "suit": SUIT_SYMBOLS.__getitem__}


def message_text(exc, players: list[str] | None = None, *, as_written: bool = False) -> str:
    """A refusal worded for the page (``club.wording.refusal_text``), its cards and suits as
    the games show them; ``players``: the table's names, in seat order."""
    return refusal_text(exc, players, words=GAME_WORDS, as_written=as_written)


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
    a spectator's holds no hand; ``seat``'s own page (a ``Seat``) holds his alone."""
    closed = not table.is_open  # finished or abandoned: no hand, nothing to press
    page = selectors.table_page(
        table,
        deal or selectors.current_deal(table),
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
    # the version it shows, as its live page compares it (selectors.deal_stamp, seat_stamp)
    if seat is not None:
        version = selectors.seat_stamp(seat, page.deal)
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


@table_get
def table_view(request, table):
    return render_table(request, table, chosen=request.GET.get("card"))


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


@table_watched
def watch(request, table):
    """A table as its spectators see it: no hand, no face-down card, no stock, and nothing
    to press."""
    return render_table(request, table, spectator=True)


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


@table_watched
def watch_cycle(request, table, number):
    """A cycle's (or match's) score sheet for its spectators, as their page shows it."""
    return sheet_response(request, table, number, spectator=True)


def sheet_response(request, table, number, spectator=False):
    cycle = table.cycles.filter(number=number).first()
    if cycle is None:
        raise Http404
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


@table_get
def deal_record(request, table, number):
    return record_response(request, table, number)


@table_watched
def watch_record(request, table, number):
    """A finished deal's record for its spectators: every hand as dealt, once they are
    no secret."""
    return record_response(request, table, number)


def record_response(request, table, number):
    deal = table.deals.filter(number=number).first()
    if deal is None:
        raise Http404
    if not deal.is_over:
        # The record holds every hand as dealt: not while the deal is being played.
        return refused_page(request, _("The record can be downloaded once the deal is over."), 409)
    deal.table = table
    response = JsonResponse(
        selectors.record(deal), json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    response["Content-Disposition"] = (
        f'attachment; filename="{table.game}-{table.pk}-deal-{deal.number}.json"'
    )
    return response


# -- a seat's own page ----------------------------------------------------------------------


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


@seat_page
@require_GET
def seat_view(request, seat):
    return render_table(request, seat.table, seat=seat, chosen=request.GET.get("card"))


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


@seat_page
@require_GET
def seat_record(request, seat, number):
    return record_response(request, seat.table, number)


@seat_page
@require_GET
def seat_replay(request, seat, number):
    return replay_response(request, seat.table, number, spectator=True)


# -- a deal's replay ------------------------------------------------------------------------

REPLAY = "games/replay.html"


@table_get
def deal_replay(request, table, number):
    return replay_response(request, table, number)


@table_watched
def watch_replay(request, table, number):
    """A finished deal's replay for its spectators: every hand open, once no secret."""
    return replay_response(request, table, number, spectator=True)


def replay_response(request, table, number, spectator=False):
    deal = table.deals.filter(number=number).first()
    if deal is None:
        raise Http404
    if not deal.is_over:
        # Every hand open: not while the deal is being played.
        return refused_page(request, _("The replay can be shown once the deal is over."), 409)
    try:
        step = int(request.GET.get("step") or 0)
    except ValueError:
        return refused_page(request, _("There is no such step."), 400)
    deal.table = table
    page = replays.replay_page(
        selectors.record(deal), step, selectors.names(table), table=table, deal=deal
    )
    return render_replay(request, page, spectator=spectator)


def render_replay(request, page, *, error=None, status=200, spectator=False):
    context = {f.name: getattr(page, f.name) for f in fields(page)} if page else {}
    context.update(replay=page, error=error, spectator=spectator, limit_kib=replays.LIMIT // 1024)
    template = f"{REPLAY}#replay" if request.htmx else REPLAY
    return render(request, template, context, status=status)


@require_http_methods(["GET", "POST"])
def replay_upload(request):
    """Anyone may replay a deal record of his own: the file is read (size limited) and
    checked as ``manage.py replay`` reads and checks it; the page carries it from step to
    step, checked again each time, and nothing is stored."""
    if request.method == "GET":
        return render_replay(request, None)
    upload = request.FILES.get("file")
    name = upload.name if upload is not None else request.POST.get("name", "")
    name = name[:SHOWN_VALUE] or _("The record")
    try:
        step = int(request.POST.get("step") or 0)
    except ValueError:
        return render_replay(request, None, status=400, error=_("There is no such step."))
    try:
        if upload is not None:
            text = read_text(upload, replays.LIMIT)
        elif "record" in request.POST:  # a step of a record the page carries
            text = read_text(io.BytesIO(request.POST["record"].encode()), replays.LIMIT)
        else:
            return render_replay(
                request, None, status=400, error=_("Choose a deal record to upload.")
            )
        record = parse(text)
        page = replays.replay_page(
            record,
            step,
            upload=replays.Upload(
                json.dumps(record, ensure_ascii=False, separators=(",", ":")), name
            ),
        )
    except (InvalidRecord, Unreadable) as exc:  # worded as manage.py replay words them
        error = _("%(file)s: not a valid record: %(reason)s") % {
            "file": name,
            "reason": message_text(exc, as_written=True),
        }
    except IllegalRecordAction as exc:
        error = _("%(file)s: illegal action %(index)s %(action)s: %(reason)s") % {
            "file": name,
            "index": exc.index,
            "action": shown_action(exc.action),
            "reason": message_text(exc.reason, as_written=True),
        }
    else:
        return render_replay(request, page)
    return render_replay(request, None, error=error, status=400)


def shown_action(action) -> str:
    """An action as the record writes it, cut short if it is long."""
    text = json.dumps(action, ensure_ascii=False)
    return text if len(text) <= SHOWN_VALUE else text[: SHOWN_VALUE - 1] + "…"


# -- the list of tables, and managing one ----------------------------------------------------


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


@login_required
@require_GET
def tables(request):
    """The tables a member started or sits at, newest first, a page at a time; a director
    may list every table of the club (``?show=all``)."""
    user = request.user
    everyone = selectors.sees_every_table(user) and request.GET.get("show") == "all"
    page = Paginator(selectors.tables_of(user, everyone), TABLES_A_PAGE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "games/tables.html",
        {
            "rows": selectors.table_rows(user, page.object_list),
            "page": page,
            "pages": page.paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1),
            "ellipsis": Paginator.ELLIPSIS,
            "everyone": everyone,
            "may_see_all": selectors.sees_every_table(user),
            "show": "all" if everyone else "",
            "here": request.get_full_path(),
        },
    )


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


def manage_response(request, table, action: str, write):
    """The confirmation page of a change (GET), or the change (POST): ``write(fields)``
    calls its service with the version the page showed. Done, it goes back where the
    page came from (the list, or the table); refused, the page again with the reason and
    the table as it is now."""
    back = safe_next(request) or table.get_absolute_url()
    error, status = None, 200
    if request.method == "POST":
        try:
            write(
                {
                    "table": table,
                    "user": request.user,
                    "expected_version": posted_int(request.POST, "version"),
                }
            )
        except services.ServiceError as exc:
            error, status = message_text(exc), exc.status
            table = selectors.managed_table(table.token)
        else:
            return redirect(back)
    return render(
        request,
        "games/manage_table.html",
        {
            "table": table,
            "action": action,
            "error": error,
            "back": back,
            "round_table": selectors.tournament_table(table),
            "deal": selectors.current_deal(table),
        },
        status=status,
    )


@table_managed
def rename_table(request, table):
    return manage_response(
        request,
        table,
        "rename",
        lambda fields: services.rename_table(name=request.POST.get("name", ""), **fields),
    )


@table_managed
def finish_table(request, table):
    return manage_response(request, table, "finish", lambda fields: services.finish_table(**fields))


@table_managed
def abandon_table(request, table):
    return manage_response(
        request, table, "abandon", lambda fields: services.abandon_table(**fields)
    )


@table_managed
def reissue_seat(request, table):
    """A new link for a seat (POST): its old one stops working at once."""
    if request.method == "POST":
        try:
            services.reissue_seat_link(
                table=table,
                seat=posted_int(request.POST, "seat"),
                expected_version=posted_int(request.POST, "version"),
                user=request.user,
            )
        except services.ServiceError as exc:
            return refused_page(request, message_text(exc, selectors.names(table)), exc.status)
    return redirect(table)


def safe_next(request) -> str | None:
    """The page to go back to (``next``), if it is a page of this site."""
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None
