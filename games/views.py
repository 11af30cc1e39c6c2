"""Pages: parse the input, call one service, render the page or its htmx partial."""

from dataclasses import fields

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from . import registry, selectors, services
from .engine.cards import SUIT_SYMBOLS
from .models import Deal, Table
from .moves import posted_int
from .templatetags.cards import card_text

PARTIAL = "games/table.html#table"


def home(request):
    tables = []
    if request.user.is_authenticated:
        qs = Table.objects.prefetch_related("seats__player").order_by("-created_at")
        if not request.user.is_staff:
            qs = qs.filter(created_by=request.user)
        tables = qs[:30]
    return render(request, "games/home.html", {"tables": tables, "games": registry.games()})


@require_GET
def healthz(request):
    return HttpResponse("ok", content_type="text/plain")


@login_required
def new_table(request, game):
    try:
        game = registry.game(game)
    except registry.UnknownGame:
        raise Http404 from None
    form = game.form(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            table = services.start_table(user=request.user, game=game.key,
                                         players=form.seated(), options=form.options())
        except services.ServiceError as exc:
            form.add_error(None, message_text(exc, []))
        else:
            return redirect(table)
    status = 400 if request.method == "POST" else 200
    return render(request, "games/new_table.html", {"form": form, "game": game},
                  status=status)


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


def message_text(exc, players: list[str]) -> str:
    """A refusal in the reader's language, with names for seats and symbols for cards."""
    params = dict(exc.params)
    if "seat" in params:
        params["seat"] = players[params["seat"]] if players else params["seat"]
    if "card" in params:
        params["card"] = card_text(params["card"])
    if "suit" in params:
        params["suit"] = SUIT_SYMBOLS[params["suit"]]
    return _(exc.message) % params if params else _(exc.message)


def render_table(request, table, *, deal=None, error=None, status=200, chosen=None):
    """The table page (its partial for htmx) showing ``deal``, by default the current one."""
    page = selectors.table_page(table, deal or selectors.current_deal(table), chosen=chosen)
    context = {f.name: getattr(page, f.name) for f in fields(page)}
    context["error"] = error
    template = PARTIAL if request.htmx else "games/table.html"
    return render(request, template, context, status=status)


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
            return render_table(request, table, status=exc.status,
                                error=message_text(exc, selectors.names(table)))
        if request.htmx:
            return render_table(request, table, deal=deal)
        return redirect(table)

    view.__name__ = handler.__name__
    return view


def turn(request, table) -> dict:
    """The fields every turn's form carries: the deal and version it showed, and the seat.
    The deal is named by its table and number only: the service reads it, under lock."""
    deal = Deal(table=table, number=posted_int(request.POST, "deal"))
    return {"deal": deal, "seat": posted_int(request.POST, "seat"),
            "expected_version": posted_int(request.POST, "version"), "user": request.user}


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
    return services.next_deal(table=table, after=posted_int(request.POST, "deal"),
                              user=request.user)


@table_get
def cycle_sheet(request, table, number):
    """A cycle's (or match's) score sheet on a page of its own, to print or to project."""
    cycle = table.cycles.filter(number=number).first()
    if cycle is None:
        raise Http404
    game = registry.game(table.game)
    sheet = selectors.cycle_sheet(cycle, selectors.names(table), game)
    return render(request, "games/cycle.html", {
        "table": table, "game": game, "sheet": sheet,
        "title": game.presenter.sheet_title(cycle)})


@table_get
def deal_record(request, table, number):
    deal = table.deals.filter(number=number).first()
    if deal is None:
        raise Http404
    if not deal.is_over:
        # The record holds every hand as dealt: not while the deal is being played.
        return refused_page(request, _("The record can be downloaded once the deal is over."),
                            409)
    deal.table = table
    response = JsonResponse(selectors.record(deal), json_dumps_params={"ensure_ascii": False,
                                                                       "indent": 1})
    response["Content-Disposition"] = (
        f'attachment; filename="{table.game}-{table.pk}-deal-{deal.number}.json"')
    return response

