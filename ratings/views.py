"""The club's ratings, public (GET, anyone): the games' ladders, each game's players by their
rating (``ladder``), and a player's page: his tournaments and, game by game, his ratings."""

from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from club.models import Player
from games import registry
from tournaments.public.views import player_tournaments

from . import ladder, pages
from .models import Rating


@require_GET
def ladders(request):
    """Each game's ladder, with the number of its rated players (1 query)."""
    rated = dict(
        Rating.objects.values("game").annotate(players=Count("pk")).values_list("game", "players")
    )
    games = [(game, rated.get(game.key, 0)) for game in registry.games()]
    return render(request, "ratings/ladders.html", {"games": games})


@require_GET
def ladder_page(request, game: str):
    """A game's ladder: place, player, rating (marked while provisional), rated matches (and
    of them the duplicate ones, where there are any) and the change over the last ten; the
    same queries for 8 players as for 200."""
    if game not in registry.GAMES:
        raise Http404
    rungs = ladder.ladder(game)
    return render(
        request,
        "ratings/ladder.html",
        {
            "game": registry.game(game),
            "games": registry.games(),
            "rungs": rungs,
            "recent": ladder.RECENT,
            "duplicate": any(rung.duplicate for rung in rungs),
        },
    )


@require_GET
def player_page(request, pk: int):
    """A player's page: his tournaments, round by round, and where he sits in a round being
    played (live: it follows the newest tournament under way), then his ratings, game by
    game, with the page of his rated matches that the query asks for."""
    player = get_object_or_404(Player, pk=pk)
    return render(
        request,
        "ratings/player.html",
        {
            "player": player,
            **player_tournaments(request, player),
            "ratings": pages.player_ratings(player, request.GET),
        },
    )
