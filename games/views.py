"""Pages: parse the input, call one service, render the page or its htmx partial."""

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_POST

from . import selectors, services
from .forms import FantanTableForm
from .models import Table
from .templatetags.cards import card_text

PARTIAL = "games/table.html#table"


def home(request):
    tables = []
    if request.user.is_authenticated:
        qs = Table.objects.prefetch_related("seats__player").order_by("-created_at")
        if not request.user.is_staff:
            qs = qs.filter(created_by=request.user)
        tables = qs[:30]
    return render(request, "games/home.html", {"tables": tables})


@require_GET
def healthz(request):
    return HttpResponse("ok", content_type="text/plain")


@login_required
def new_table(request):
    form = FantanTableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            table = services.start_table(user=request.user, game="fantan",
                                         players=form.seated(), options=form.options())
        except services.ServiceError as exc:
            form.add_error(None, message_text(exc, []))
        else:
            return redirect(table)
    status = 400 if request.method == "POST" else 200
    return render(request, "games/new_table.html", {"form": form}, status=status)


def host_table(request, token: str) -> Table:
    """The table, if this user holds its screen; 404 for unknown addresses."""
    try:
        table = selectors.table_by_token(token)
    except Table.DoesNotExist:
        raise Http404 from None
    if not selectors.can_host(request.user, table):
        raise services.ServiceError(gettext_noop(
            "This table is played on another screen."))
    return table


def message_text(exc, players: list[str]) -> str:
    """A refusal in the reader's language, with names for seats and symbols for cards."""
    params = dict(exc.params)
    if "seat" in params:
        params["seat"] = players[params["seat"]] if players else params["seat"]
    if "card" in params:
        params["card"] = card_text(params["card"])
    return _(exc.message) % params if params else _(exc.message)


def render_table(request, table, *, error=None, status=200):
    deal = selectors.current_deal(table)
    context = selectors.table_page(table, deal)
    context["error"] = error
    template = PARTIAL if request.htmx else "games/table.html"
    return render(request, template, context, status=status)


def table_view(request, token):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        table = host_table(request, token)
    except services.ServiceError as exc:
        return render(request, "games/refused.html", {"message": message_text(exc, [])},
                      status=403)
    return render_table(request, table)


class BadForm(services.ServiceError):
    pass


def posted_int(request, name: str) -> int:
    try:
        return int(request.POST[name])
    except (KeyError, ValueError):
        raise BadForm(gettext_noop("The form was incomplete or damaged; nothing was done."),
                      ) from None


def table_post(handler):
    """A POST to a table: refusals come back as the page with a message and a 4xx status."""

    @require_POST
    def view(request, token):
        if not request.user.is_authenticated:
            return render(request, "games/refused.html",
                          {"message": _("Sign in to play.")}, status=403)
        try:
            table = host_table(request, token)
        except services.ServiceError as exc:
            return render(request, "games/refused.html", {"message": message_text(exc, [])},
                          status=403)
        try:
            handler(request, table)
        except services.ServiceError as exc:
            return render_table(request, table, status=exc.status,
                                error=message_text(exc, selectors.names(table)))
        if request.htmx:
            return render_table(request, table)
        return redirect(table)

    view.__name__ = handler.__name__
    return view


def posted_deal(request, table):
    number = posted_int(request, "deal")
    deal = table.deals.filter(number=number).first()
    if deal is None:
        raise BadForm(gettext_noop("The form was incomplete or damaged; nothing was done."))
    deal.table = table
    return deal


@table_post
def reveal(request, table):
    services.reveal(deal=posted_deal(request, table), seat=posted_int(request, "seat"),
                    expected_version=posted_int(request, "version"), user=request.user)


@table_post
def act(request, table):
    if "card" in request.POST:
        action = {"play": request.POST["card"]}
    elif "pass" in request.POST:
        action = {"pass": True}
    else:
        raise BadForm(gettext_noop("The form was incomplete or damaged; nothing was done."))
    services.play(deal=posted_deal(request, table), seat=posted_int(request, "seat"),
                  action=action, expected_version=posted_int(request, "version"),
                  user=request.user)


@table_post
def take_back(request, table):
    services.take_back(deal=posted_deal(request, table), seat=posted_int(request, "seat"),
                       expected_version=posted_int(request, "version"), user=request.user)


@table_post
def next_deal(request, table):
    services.next_deal(table=table, after=posted_int(request, "deal"), user=request.user)


def deal_record(request, token, number):
    try:
        table = host_table(request, token)
    except services.ServiceError as exc:
        return render(request, "games/refused.html", {"message": message_text(exc, [])},
                      status=403)
    deal = table.deals.filter(number=number).first()
    if deal is None:
        raise Http404
    if not deal.is_over:
        # The record holds every hand as dealt: not while the deal is being played.
        return render(request, "games/refused.html",
                      {"message": _("The record can be downloaded once the deal is over.")},
                      status=409)
    deal.table = table
    response = JsonResponse(services.record(deal), json_dumps_params={"ensure_ascii": False,
                                                                       "indent": 1})
    response["Content-Disposition"] = (
        f'attachment; filename="{table.game}-{table.pk}-deal-{deal.number}.json"')
    return response

