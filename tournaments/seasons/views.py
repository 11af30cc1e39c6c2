"""The seasons' pages: the public season page (anyone, GET only) with its standings, chart
and CSV; and its management page, where a director creates a season, changes it, and adds
his tournaments to it or removes them. A refusal comes back as the page with its message
(role="alert") and a 4xx status; nothing changed."""

from fractions import Fraction
from functools import wraps

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from club.roles import allowed, signed_in
from club.services import Refused, ServiceError
from core import charts
from core.numbers import figure
from core.wording import refusal_text
from games import registry

from .. import roles
from ..models import Season
from ..pages import ORDER_LABELS, attachment
from ..standings import number
from . import selectors as season_selectors
from . import services as season_services
from .forms import SeasonForm, SeasonTournamentForm, points_text
from .standings import PLACES

CHART_LEADERS = 8  # the chart follows the season's top eight
SHOWN_DECIMALS = 2
CHART_LABEL = 14  # characters of a tournament's name under the chart (the table has it all)


def season_or_404(key: str) -> Season:
    try:
        return season_selectors.season_by_key(key)
    except Season.DoesNotExist:
        raise Http404 from None


def scoring_words(season: Season) -> str:
    if season.scoring == PLACES:
        return _("by places: %(points)s; a place beyond them scores 0") % {
            "points": points_text(season.place_points)
        }
    return _("by the match points made in each tournament")


# -- the public page -------------------------------------------------------------------------


def rounded(value: Fraction) -> int | float:
    """Points as a page shows them: whole, or a half (a place shared by two), or to two
    decimals (a place shared by three gives thirds); the CSV has them to the last digit."""
    return number(round(value, SHOWN_DECIMALS))


def shown(value: Fraction) -> str:
    return figure(rounded(value))


def standing_rows(table: season_selectors.SeasonTable) -> list[dict]:
    """Each row with its tournaments' cells as (kind, text), worded here: a season of many
    tournaments and players has thousands of them."""
    did_not_enter, not_begun = _("did not enter"), _("not begun yet")
    return [
        {
            "place": row.shown_place,
            "shared": row.shared,
            "player_id": row.player,
            "name": table.names[row.player],
            "points": shown(row.points),
            "cells": [
                ("", shown(cell))
                if cell is not None
                else ("absent", did_not_enter if begun else not_begun)
                for cell, begun in zip(row.cells, table.begun, strict=True)
            ],
        }
        for row in table.standings
    ]


def leaders_chart(table: season_selectors.SeasonTable):
    """The running season totals of the current top eight, tournament by tournament."""
    leaders = table.standings.rows[:CHART_LEADERS]
    if not table.tournaments or not leaders:
        return None
    return charts.line_chart(
        title=_("The leaders' season points, tournament by tournament"),
        x_title=_("Tournament"),
        y_title=_("Season points"),
        x_labels=[Truncator(t.name).chars(CHART_LABEL) for t in table.tournaments],
        series=[
            charts.Series(table.names[row.player], [rounded(total) for total in row.running])
            for row in leaders
        ],
    )


@require_GET
def season_page(request, key: str):
    season = season_or_404(key)
    table = season_selectors.season_table(season)
    return render(
        request,
        "tournaments/public/season.html",
        {
            "season": season,
            "game": registry.game(season.game),
            "scoring": scoring_words(season),
            "order": [ORDER_LABELS[key] for key in table.standings.order],
            "tournaments": table.tournaments,
            "rows": standing_rows(table),
            "chart": leaders_chart(table),
            "can_change": season_services.may_change(request.user, season),
        },
    )


@require_GET
def season_csv(request, key: str):
    season = season_or_404(key)
    table = season_selectors.season_table(season)
    text = table.standings.as_csv([t.name for t in table.tournaments], table.names.get)
    return attachment(text, f"{season.key}-season.csv")


# -- a new season ----------------------------------------------------------------------------


def manage_url(season: Season, anchor: str = "") -> str:
    url = reverse("season-manage", args=[season.key])
    return f"{url}#{anchor}" if anchor else url


def damaged(form) -> str | None:
    """A hidden field's error is the page's, not the reader's: the form was tampered with
    or cut short."""
    if any(field.errors for field in form if field.is_hidden):
        return _("The form was incomplete or damaged; nothing was done.")
    return None


@require_http_methods(["GET", "HEAD", "POST"])
@allowed(season_services.may_create)
def new_season(request):
    form = SeasonForm(request.POST if request.method == "POST" else None)
    error, status = None, 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                season = season_services.create_season(
                    user=request.user,
                    name=data["name"],
                    game=data["game"],
                    scoring=data["scoring"],
                    place_points=data["place_points"],
                    form_token=data["token"] or None,
                )
            except ServiceError as exc:
                error, status = refusal_text(exc), exc.status
            else:
                return redirect(manage_url(season))
        else:
            error = damaged(form)
    return render(
        request,
        "tournaments/director/season_new.html",
        {"form": form, "error": error},
        status=status,
    )


# -- its management page ---------------------------------------------------------------------


def season_for(request, key: str) -> Season:
    season = season_or_404(key)
    if not season_services.may_change(request.user, season):
        raise PermissionDenied
    return season


def render_manage(request, season: Season, *, error=None, status=200, **forms):
    table_tournaments = list(season.tournaments.order_by("date", "created_at", "pk"))
    offered = list(season_selectors.addable(season, request.user))
    context = {
        "season": season,
        "game": registry.game(season.game),
        "scoring": scoring_words(season),
        "error": error,
        "change_form": forms.get("change_form") or SeasonForm(season=season),
        "add_form": forms.get("add_form") or SeasonTournamentForm(season=season, offered=offered),
        "offered": offered,
        "tournaments": [
            (tournament, roles.directs(request.user, tournament))
            for tournament in table_tournaments
        ],
    }
    return render(request, "tournaments/director/season_manage.html", context, status=status)


@require_GET
@allowed(signed_in)
def manage(request, key: str):
    return render_manage(request, season_for(request, key))


def write(handler):
    """A POST of the management page, for those who may change the season: ``handler``
    calls one service and returns where to go next, or a page of its own."""

    @require_POST
    @allowed(signed_in, pages=False)
    @wraps(handler)
    def view(request, key):
        season = season_for(request, key)
        try:
            answer = handler(request, season)
        except ServiceError as exc:
            return render_manage(request, season, error=refusal_text(exc), status=exc.status)
        return answer if not isinstance(answer, str) else redirect(answer)

    return view


@write
def change(request, season):
    form = SeasonForm(request.POST, season=season)
    if not form.is_valid():
        return render_manage(request, season, error=damaged(form), status=400, change_form=form)
    data = form.cleaned_data
    try:
        season_services.change_season(
            season=season,
            user=request.user,
            version=data["version"],
            name=data["name"],
            scoring=data["scoring"],
            place_points=data["place_points"],
        )
    except Refused as exc:  # the form as typed, with the reason
        error, status = refusal_text(exc), exc.status
        return render_manage(request, season, error=error, status=status, change_form=form)
    return manage_url(season)


def tournament_write(service, prefix: str):
    def handler(request, season):
        offered = season_selectors.addable(season, request.user) if prefix == "add" else None
        form = SeasonTournamentForm(request.POST, season=season, offered=offered, prefix=prefix)
        if not form.is_valid():
            forms = {"add_form": form} if prefix == "add" else {}
            error = damaged(form) or " ".join(form.errors.get("tournament", []))
            return render_manage(request, season, error=error, status=400, **forms)
        service(
            season=season,
            tournament=form.cleaned_data["tournament"],
            user=request.user,
            version=form.cleaned_data["version"],
        )
        return manage_url(season, "tournaments")

    handler.__name__ = f"{prefix}_tournament"
    return handler


add_tournament = write(tournament_write(season_services.add_tournament, "add"))
remove_tournament = write(tournament_write(season_services.remove_tournament, "remove"))
