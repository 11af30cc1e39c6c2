"""Check-in's pages: a director marks who is here on the run page (one tap a name, or
everyone at once) and draws the draft again for those checked in since it was drawn; a
signed-in player checks himself in from his own page or the tournament's, and any player
from his seat's own link (the seat's page, no sign-in). Each calls one service; an htmx
request gets its part of the page back (a refusal with its message and status), any other
is sent back to the page."""

from django.http import Http404
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_POST

from club.roles import allowed, signed_in
from club.services import ServiceError
from core.wording import refusal_text
from games import selectors as games_selectors
from games.models import Seat

from .. import roles, selectors
from ..models import Entrant, Round, Tournament
from ..pages import render_run, run_url, tournament_for, tournament_or_404
from ..services import TournamentError
from . import selectors as check_in_selectors
from . import services as check_in_services

DAMAGED = gettext_noop("The form was incomplete or damaged; nothing was done.")


def posted_round(request) -> int | None:
    """The round the page offered check-in for, as it posted it (in the digits 0 to 9)."""
    value = request.POST.get("round", "")
    return int(value) if value.isascii() and value.isdigit() else None


def posted_change(request):
    """The service the form asks for: check in (``present=1``) or out (``present=0``)."""
    change = {
        "1": check_in_services.check_in_entrant,
        "0": check_in_services.check_out_entrant,
    }.get(request.POST.get("present", ""))
    if change is None:
        raise TournamentError(DAMAGED)
    return change


def run_check_in(tournament: Tournament) -> check_in_selectors.CheckInList | None:
    """The run page's check-in, read for its own part (4 queries)."""
    rounds = list(tournament.rounds.order_by("number").values_list("pk", "released"))
    released = sum(1 for _, flag in rounds if flag)
    drafted = None
    if rounds and not rounds[-1][1]:
        drafted = check_in_selectors.drafted(rounds[-1][0])
    entrants = list(tournament.entrants.select_related("player").order_by("number"))
    return check_in_selectors.check_in_list(tournament, entrants, released, drafted)


def check_in_answer(request, tournament: Tournament, *, error=None, status=200):
    """The run page's check-in part (htmx), or the run page."""
    if not request.htmx:
        if error:
            return render_run(request, tournament, error=error, status=status)
        return redirect(run_url(tournament, "check-in"))
    return render(
        request,
        "tournaments/director/run.html#check-in",
        {
            "tournament": tournament,
            "check_in": run_check_in(tournament),
            "is_director": True,
            "check_in_error": error,
        },
        status=status,
    )


@require_POST
@allowed(signed_in, pages=False)
def mark(request, key, pk):
    """A director checks one entrant in (``present=1``) or out (``present=0``)."""
    tournament = tournament_for(request, key, roles.directs)
    entrant = Entrant.objects.filter(tournament=tournament, pk=pk).first()
    if entrant is None:
        raise Http404
    try:
        posted_change(request)(entrant=entrant, user=request.user, round_seen=posted_round(request))
    except ServiceError as exc:
        return check_in_answer(request, tournament, error=refusal_text(exc), status=exc.status)
    return check_in_answer(request, tournament)


@require_POST
@allowed(signed_in, pages=False)
def everyone(request, key):
    """A director checks in every entrant still in who is not yet checked in."""
    tournament = tournament_for(request, key, roles.directs)
    try:
        check_in_services.check_in_everyone(
            tournament=tournament, user=request.user, round_seen=posted_round(request)
        )
    except ServiceError as exc:
        return check_in_answer(request, tournament, error=refusal_text(exc), status=exc.status)
    return check_in_answer(request, tournament)


@require_POST
@allowed(signed_in, pages=False)
def redraw(request, key, number):
    """A director draws the draft again for whom the round seats now."""
    tournament = tournament_for(request, key, roles.directs)
    round_ = Round.objects.filter(tournament=tournament, number=number).first()
    if round_ is None:
        raise Http404
    try:
        check_in_services.redraw_round(round_=round_, user=request.user)
    except ServiceError as exc:
        return render_run(request, tournament, error=refusal_text(exc), status=exc.status)
    return redirect(run_url(tournament, f"round-{number}"))


# -- a player's own check-in ---------------------------------------------------------------

BACK = ("player", "tournament")  # the pages the player's own button is on


def own_offer(request, tournament: Tournament) -> check_in_selectors.Offer | None:
    played_ = selectors.played(tournament).disclosed()
    return check_in_selectors.own_offers(request.user, [(tournament, played_)]).get(tournament.pk)


@require_POST
@allowed(signed_in, pages=False)
def own(request, key):
    """The signed-in member checks himself in (``present=1``) or out (``present=0``): the
    entrant of the tournament who is his own club player, and no other."""
    tournament = tournament_or_404(key)
    entrant = (
        Entrant.objects.select_related("player")
        .filter(tournament=tournament, player__user_id=request.user.pk)
        .first()
    )
    back = request.POST.get("back", "")
    back = back if back in BACK else "tournament"
    error, status = None, 200
    try:
        if entrant is None:
            raise TournamentError(gettext_noop("You have not entered this tournament."))
        posted_change(request)(entrant=entrant, user=request.user, round_seen=posted_round(request))
    except ServiceError as exc:
        error, status = refusal_text(exc), exc.status
    if back == "player" and entrant is not None:
        back_url = reverse("player", args=[entrant.player_id])
    else:
        back_url = reverse("tournament", args=[tournament.key])
    if not request.htmx and not error:
        return redirect(back_url)
    context = {
        "tournament": tournament,
        "offer": own_offer(request, tournament),
        "back": back,
        "back_url": back_url,
        "check_in_error": error,
    }
    template = (
        "tournaments/public/_check_in.html" if request.htmx else "tournaments/public/check_in.html"
    )
    return render(request, template, context, status=status)


# -- a player's check-in from his seat's own link -----------------------------------------

SEAT_PART = "tournaments/public/_seat_check_in.html"


def seat_or_404(key: str) -> Seat:
    """The person's seat of this key as its own page reads it (its player, its table with
    the table's seats and the tournament's table it is played for); 404 if none."""
    try:
        seat = games_selectors.seat_by_key(key)
    except Seat.DoesNotExist:
        raise Http404 from None
    return next(s for s in seat.table.seats.all() if s.pk == seat.pk)


def seat_check_in(request, seat: Seat) -> str | None:
    """What a seat's own page shows of check-in (``games.selectors.seat_page_part``): its
    player's button for the tournament's next round, while he has one to check in for."""
    offer = check_in_selectors.seat_offer(seat)
    if offer is None:
        return None
    context = {"tournament": offer.entrant.tournament, "offer": offer, "seat_key": seat.key}
    return render_to_string(SEAT_PART, context, request=request)


@require_POST
def seat(request, key, seat_key):
    """Whoever holds a seat's own link checks its player in (``present=1``) or out
    (``present=0``), signed in or not: the seat's key is the credential, good for the
    entrant who is the seat's player, at a table of this tournament on his device, and for
    no other."""
    tournament = tournament_or_404(key)
    place = seat_or_404(seat_key)
    error, status = None, 200
    try:
        check_in_services.seat_table(place, tournament)  # another tournament's seat: why not
        entrant = (
            Entrant.objects.select_related("player")
            .filter(tournament=tournament, player_id=place.player_id)
            .first()
        )
        if entrant is None:
            raise TournamentError(
                gettext_noop("This seat's player has not entered this tournament.")
            )
        posted_change(request)(
            entrant=entrant, user=None, round_seen=posted_round(request), seat=place
        )
    except ServiceError as exc:
        error, status = refusal_text(exc), exc.status
    back_url = place.get_absolute_url()
    if not request.htmx and not error:
        return redirect(back_url)
    offer = check_in_selectors.seat_offer(place)
    if offer is not None and offer.entrant.tournament_id != tournament.pk:
        offer = None  # another tournament's seat: nothing of it is offered here
    context = {
        "tournament": tournament,
        "offer": offer,
        "seat_key": place.key,
        "back_url": back_url,
        "check_in_error": error,
        "check_in_part": SEAT_PART,
        "titled": not request.htmx,
    }
    template = SEAT_PART if request.htmx else "tournaments/public/check_in.html"
    return render(request, template, context, status=status)
