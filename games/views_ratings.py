"""The club's ladders, public (GET, anyone): the games' ladders, and each game's players by
their rating (club.ladder). Here rather than in club: the games are the registry's."""

from django.db.models import Count
from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ratings import ladder
from ratings.models import Rating

from . import registry


@require_GET
def ladders(request):
    """Each game's ladder, with the number of its rated players (1 query)."""
    rated = dict(
        Rating.objects.values("game").annotate(players=Count("pk")).values_list("game", "players")
    )
    games = [(game, rated.get(game.key, 0)) for game in registry.games()]
    return render(request, "games/ladders.html", {"games": games})


@require_GET
def ladder_page(request, game: str):
    """A game's ladder: place, player, rating (marked while provisional), rated matches and
    the change over the last ten; the same queries for 8 players as for 200."""
    if game not in registry.GAMES:
        raise Http404
    return render(
        request,
        "games/ladder.html",
        {
            "game": registry.game(game),
            "games": registry.games(),
            "rungs": ladder.ladder(game),
            "recent": ladder.RECENT,
        },
    )
