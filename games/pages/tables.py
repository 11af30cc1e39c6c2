"""A member's tables: starting one, the list of them, and managing one (its name,
finishing or abandoning it, a new link for a seat), for whoever may
(``shared.table_managed``)."""

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET

from .. import registry, selectors, services, table_lists
from ..move_forms import posted_int
from .shared import message_text, refused_page, table_managed

TABLES_A_PAGE = 20


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


@login_required
@require_GET
def tables(request):
    """The tables a member started or sits at, newest first, a page at a time; a director
    may list every table of the club (``?show=all``)."""
    user = request.user
    everyone = table_lists.sees_every_table(user) and request.GET.get("show") == "all"
    page = Paginator(table_lists.tables_of(user, everyone), TABLES_A_PAGE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "games/tables.html",
        {
            "rows": table_lists.table_rows(user, page.object_list),
            "page": page,
            "pages": page.paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1),
            "ellipsis": Paginator.ELLIPSIS,
            "everyone": everyone,
            "may_see_all": table_lists.sees_every_table(user),
            "show": "all" if everyone else "",
            "here": request.get_full_path(),
        },
    )


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
