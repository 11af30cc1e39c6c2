"""The directors' and scorers' pages: parse the input, call one service, render. A refusal
comes back as the page with its message (role="alert") and a 4xx status; nothing changed.
Each page and write is for the directors or the scorers of its own tournament
(``tournaments.roles``); anyone else gets 403."""

from functools import wraps

from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from club import roles as club_roles
from club.roles import allowed, signed_in
from club.services import ServiceError, Stale
from core.wording import refusal_text
from games import registry

from .. import roles, services
from ..duplicate import services as duplicate_services
from ..duplicate.deals import by_suit
from ..duplicate.selectors import round_hand_records
from ..models import DealRuling, Entrant, Round, RoundTable
from ..pages import option_lines, render_run, run_url, tournament_for
from ..results import services as results_services
from ..results.entry_links import entry_link, offered
from . import draft_selectors
from . import selectors as run_selectors
from . import services as run_services
from .forms import (
    AdjustForm,
    EntrantForm,
    OfficialForm,
    RowInputError,
    RulingForm,
    SheetForm,
    SwapForm,
    TournamentForm,
)

# -- a new tournament -----------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@allowed(club_roles.is_director)
def new_tournament(request, game):
    try:
        registry.tournament(game)  # a game without tournament parts has no such page
        game = registry.game(game)
    except registry.UnknownGame:
        raise Http404 from None
    form = TournamentForm(game, request.POST if request.method == "POST" else None)
    error, status = None, 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                tournament = services.create_tournament(
                    user=request.user, **form.service_arguments()
                )
            except services.OptionRefused as exc:  # at its option, as the new-table form
                form.options_form.refuse(exc, refusal_text(exc))
                status = exc.status
            except services.TournamentError as exc:
                error, status = refusal_text(exc), exc.status
            else:
                return redirect(run_url(tournament))
    return render(
        request,
        "tournaments/director/new.html",
        {"form": form, "game": game, "error": error},
        status=status,
    )


# -- the director's page --------------------------------------------------------------------


@require_GET
@allowed(signed_in)
def run(request, key):
    return render_run(request, tournament_for(request, key, roles.scores))


def write(check):
    """A POST of the director's page, for the members whom ``check`` lets in to this
    tournament: ``handler(request, tournament, **kwargs)`` calls one service and returns
    where to go next, or a page of its own (a form's errors)."""

    def decorate(handler):
        @require_POST
        @allowed(signed_in, pages=False)
        @wraps(handler)
        def view(request, key, **kwargs):
            tournament = tournament_for(request, key, check)
            try:
                answer = handler(request, tournament, **kwargs)
            except ServiceError as exc:  # the club's (a blank name) or the tournament's
                return render_run(request, tournament, error=refusal_text(exc), status=exc.status)
            return answer if not isinstance(answer, str) else redirect(answer)

        return view

    return decorate


def get_or_404(queryset, **lookup):
    found = queryset.filter(**lookup).first()
    if found is None:
        raise Http404
    return found


@write(roles.directs)
def enter(request, tournament):
    form = EntrantForm(tournament, request.POST)
    if not form.is_valid():
        return render_run(request, tournament, status=400, enter_form=form)
    try:
        run_services.add_entrants(
            tournament=tournament, players=form.cleaned_data["entering"], user=request.user
        )
    except services.EntryRefused as exc:  # nobody entered: the form as typed, the entry named
        form.refuse(exc)
        return render_run(request, tournament, status=exc.status, enter_form=form)
    return run_url(tournament, "entrants")


WITHDRAWALS = {"withdraw": run_services.withdraw, "remove": run_services.remove_entrant}


@require_http_methods(["GET", "HEAD", "POST"])
@allowed(signed_in)
def withdraw(request, key, pk):
    """Asks first: the page says what withdrawing does (an entrant who has not played has
    his entry removed) and its button confirms it, with the rounds it counted; anything
    else posted only asks again."""
    tournament = tournament_for(request, key, roles.directs)
    entrant = Entrant.objects.select_related("player").filter(tournament=tournament, pk=pk).first()
    if entrant is None:
        if request.method != "POST":
            raise Http404
        return render_run(
            request, tournament, status=409, error=_("This entrant is no longer in the tournament.")
        )
    change = WITHDRAWALS.get(request.POST.get("confirm", ""))
    try:
        rounds = int(request.POST.get("rounds", ""))
    except ValueError:
        rounds = None
    if request.method != "POST" or change is None or rounds is None:
        return render(
            request,
            "tournaments/director/withdraw.html",
            {
                "tournament": tournament,
                "asked": run_selectors.withdrawal(tournament, entrant),
                "back": run_url(tournament, "entrants"),
            },
        )
    try:
        change(entrant=entrant, user=request.user, rounds_seen=rounds)
    except ServiceError as exc:
        return render_run(request, tournament, error=refusal_text(exc), status=exc.status)
    return redirect(run_url(tournament, "entrants"))


@write(roles.directs)
def undo_withdrawal(request, tournament, pk):
    entrant = get_or_404(Entrant.objects.all(), tournament=tournament, pk=pk)
    run_services.undo_withdrawal(entrant=entrant, user=request.user)
    return run_url(tournament, "entrants")


@write(roles.directs)
def draw(request, tournament):
    round_ = run_services.draw_round(tournament=tournament, user=request.user)
    return run_url(tournament, f"round-{round_.number}")


@write(roles.directs)
def plan_round(request, tournament):
    """One more round planned; the form carries the rounds planned its page showed."""
    planned = request.POST.get("planned", "")
    run_services.plan_round(
        tournament=tournament,
        user=request.user,
        planned_seen=int(planned) if planned.isascii() and planned.isdigit() else None,
    )
    return run_url(tournament, "next-round")


@write(roles.directs)
def swap(request, tournament, number):
    round_ = get_or_404(Round.objects.all(), tournament=tournament, number=number)
    form = SwapForm(round_, request.POST)
    if not form.is_valid():
        return render_run(request, tournament, status=400, swap_form=form)
    run_services.swap(
        round_=round_,
        first=form.cleaned_data["first"],
        second=form.cleaned_data["second"],
        user=request.user,
    )
    return run_url(tournament, f"round-{number}")


@require_GET
@allowed(signed_in)
def swap_preview(request, key, number):
    """What the swap form's two entrants would do to the draft's repeats (htmx, as they are
    picked): nothing is changed."""
    tournament = tournament_for(request, key, roles.directs)
    round_ = get_or_404(Round.objects.all(), tournament=tournament, number=number)
    form = SwapForm(round_, request.GET)
    preview = None
    if not round_.released and form.is_valid():
        preview = draft_selectors.swap_preview(
            draft_selectors.seated_rounds(tournament),
            form.cleaned_data["first"].pk,
            form.cleaned_data["second"].pk,
        )
    return render(
        request,
        "tournaments/director/run.html#swap-preview",
        {"preview": preview, "round": round_},
    )


@write(roles.directs)
def release(request, tournament, number):
    round_ = get_or_404(Round.objects.all(), tournament=tournament, number=number)
    run_services.release_round(round_=round_, user=request.user)
    return run_url(tournament, f"round-{number}")


# where a table played here is played: at one shared screen, each seat on its own device, or
# the seats ticked on their devices and the rest at the shared screen
SCREENS = ("shared", "devices", "mixed")


@write(roles.directs)
def play_here(request, tournament, pk):
    table = get_or_404(RoundTable.objects.all(), round__tournament=tournament, pk=pk)
    screen = request.POST.get("screen", "shared")
    damaged = services.TournamentError(
        gettext_noop("The form was incomplete or damaged; nothing was done.")
    )
    if screen not in SCREENS:
        raise damaged
    devices: bool | list[int] = screen == "devices"
    if screen == "mixed":
        ticked = request.POST.getlist("device")
        if not ticked:
            raise services.TournamentError(
                gettext_noop("Tick the seats to be played on their own phones.")
            )
        if not all(position.isdigit() and len(position) < 3 for position in ticked):
            raise damaged
        devices = sorted({int(position) for position in ticked})
    table = run_services.play_here(table=table, user=request.user, devices=devices)
    return table.hotseat.get_absolute_url()


@write(roles.scores)
def confirm(request, tournament, pk):
    table = get_or_404(RoundTable.objects.all(), round__tournament=tournament, pk=pk)
    results_services.confirm_sheet(table=table, user=request.user)
    return run_url(tournament, f"table-{table.pk}")


@write(roles.directs)
def adjust(request, tournament):
    form = AdjustForm(tournament, request.POST)
    if not form.is_valid():
        return render_run(request, tournament, status=400, adjust_form=form)
    data = form.cleaned_data
    results_services.adjust(
        round_=form.round_model(),
        entrant=data["entrant"],
        points=data["points"],
        reason=data["reason"],
        user=request.user,
    )
    return run_url(tournament, "adjustments")


@write(roles.directs)
def rule_deal(request, tournament, number):
    """A ruling on a deal of a released duplicate round; the form carries the round's
    rulings as its page showed them."""
    round_ = get_or_404(Round.objects.all(), tournament=tournament, number=number)
    form = RulingForm(number, run_selectors.ruling_tables(tournament, round_), request.POST)
    if not form.is_valid():
        return render_run(request, tournament, status=400, ruling_form=form)
    data = form.cleaned_data
    table = get_or_404(RoundTable.objects.all(), round=round_, pk=data["table"])
    duplicate_services.rule_deal(
        table=table,
        deal=data["deal"],
        kind=data["kind"],
        seat=data["seat"],
        reason=data["reason"],
        user=request.user,
        seen=data["seen"] or None,
    )
    return run_url(tournament, f"rulings-{number}")


@write(roles.directs)
def withdraw_ruling(request, tournament, pk):
    ruling = DealRuling.objects.filter(table__round__tournament=tournament, pk=pk).first()
    if ruling is None:
        raise Stale(gettext_noop("This ruling has been withdrawn already."))
    number = ruling.table.round.number
    duplicate_services.withdraw_ruling(
        ruling=ruling, reason=request.POST.get("reason", ""), user=request.user
    )
    return run_url(tournament, f"rulings-{number}")


# -- its directors and scorers --------------------------------------------------------------


@write(roles.directs)
def name_official(request, tournament):
    form = OfficialForm(tournament, request.POST)
    if not form.is_valid():
        return render_run(request, tournament, status=400, official_form=form)
    roles.name_official(
        tournament=tournament,
        account=form.cleaned_data["account"],
        role=form.cleaned_data["role"],
        by=request.user,
    )
    return run_url(tournament, "officials")


@write(roles.directs)
def remove_official(request, tournament, pk):
    account = get_user_model().objects.filter(pk=pk).first()
    if account is None:
        raise Http404
    roles.remove_official(tournament=tournament, account=account, by=request.user)
    return run_url(tournament, "officials")


# -- paper sheets and typed sheets ----------------------------------------------------------


@require_GET
@allowed(signed_in)
def round_sheets(request, key, number):
    """A round's paper sheets, one a page when printed."""
    tournament = tournament_for(request, key, roles.scores)
    try:
        sheets = run_selectors.paper_sheets(tournament, number)
    except RoundTable.DoesNotExist:
        raise Http404 from None
    game = registry.game(tournament.game)
    tables = [
        {
            "table": sheet.table,
            "layout": sheet.layout,
            "sheet": sheet,
            "options": option_lines(game, sheet.options),
            "columns": range(sheet.layout.width),
            "entry": entry_link(request, sheet.table) if offered(sheet.table) else None,
        }
        for sheet in sheets
    ]
    return render(
        request,
        "tournaments/director/sheets.html",
        {
            "tournament": tournament,
            "game": game,
            "number": number,
            "tables": tables,
            "links_shown": any(item["entry"] for item in tables),
        },
    )


@require_GET
@allowed(signed_in)
def hand_records(request, key, number):
    """A duplicate round's hand records, one sheet a deal, and its curtain cards (a slip a
    seat and deal) to make up the packs: the cards of deals not yet played, for its
    directors and scorers only; 404 for a tournament that is not duplicate."""
    tournament = tournament_for(request, key, roles.scores)
    if not tournament.duplicate:
        raise Http404
    try:
        groups = round_hand_records(tournament, number)
    except Round.DoesNotExist:
        raise Http404 from None
    return render(
        request,
        "tournaments/director/hand_records.html",
        {
            "tournament": tournament,
            "game": registry.game(tournament.game),
            "number": number,
            "groups": [
                {
                    "size": group.size,
                    "deals": [
                        {
                            "number": deal.number,
                            "dealer": deal.dealer + 1,
                            "seats": [
                                {"number": seat, "suits": list(by_suit(hand).items())}
                                for seat, hand in enumerate(deal.dealt["hands"], start=1)
                            ],
                            "stock": deal.dealt.get("stock"),
                        }
                        for deal in group.deals
                    ],
                }
                for group in groups
            ],
        },
    )


@require_http_methods(["GET", "HEAD", "POST"])
@allowed(signed_in)
def table_sheet(request, key, pk):
    """A table's sheet typed in from paper, row by row; every row is checked by the game,
    and a refused sheet keeps everything typed, the faulty row marked."""
    tournament = tournament_for(request, key, roles.scores)
    try:
        table = run_selectors.round_table(tournament, pk)
    except RoundTable.DoesNotExist:
        raise Http404 from None
    names = run_selectors.table_names(table)
    layout = run_selectors.layout(tournament, names)
    saved = run_selectors.saved_rows(table)
    context = {
        "tournament": tournament,
        "game": registry.game(tournament.game),
        "table": table,
        "layout": layout,
        "error": None,
    }
    closed = results_services.sheet_closed(table)
    closed = closed and refusal_text(closed)
    if request.method != "POST":
        form = SheetForm(layout, saved=saved)
        context.update(form=form, lines=form.lines(), error=closed, closed=closed)
        return render(
            request, "tournaments/director/sheet.html", context, status=409 if closed else 200
        )
    form = SheetForm(layout, data=request.POST)
    context["form"] = form
    if request.POST.get("more"):  # one more line: nothing is saved
        context["lines"] = form.lines()
        return render(request, "tournaments/director/sheet.html", context)
    try:
        rows = form.rows()
        results_services.enter_sheet(table=table, rows=rows, user=request.user)
    except (RowInputError, services.SheetRefused) as exc:
        text = refusal_text(exc, names, {spec["key"]: _(spec["label"]) for spec in layout.fields})
        status = getattr(exc, "status", 400)
        if exc.row is None:
            context.update(lines=form.lines(), error=text)
        else:
            context.update(lines=form.lines(exc.row, text), error_row=exc.row)
        return render(request, "tournaments/director/sheet.html", context, status=status)
    except services.TournamentError as exc:
        context.update(lines=form.lines(), error=refusal_text(exc))
        return render(request, "tournaments/director/sheet.html", context, status=exc.status)
    return redirect(run_url(tournament, f"table-{table.pk}"))
