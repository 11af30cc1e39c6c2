"""What the seasons' pages read, each at a fixed number of queries however many
tournaments, rounds and entrants a season has."""

from dataclasses import dataclass, replace

from django.db.models import Count

from .. import roles
from ..models import Season, Tournament
from ..selectors import entrants_and_adjustments, played_of, standings_of
from .standings import Played, SeasonStandings, season_standings


def season_by_key(key: str) -> Season:
    """The season of this key; Season.DoesNotExist if there is none."""
    return Season.objects.get(key=key)


def season_list():
    """Every season, newest first, with ``tournament_count`` (1 query)."""
    return Season.objects.annotate(tournament_count=Count("tournaments")).order_by(
        "-created_at", "-pk"
    )


@dataclass
class SeasonTable:
    season: Season
    tournaments: list[Tournament]  # in date order
    standings: SeasonStandings  # players by their club player's id
    names: dict[int, str]  # club player's id: name
    begun: list[bool]  # by tournament: a table of it counts, or a bye was given


def season_table(season: Season) -> SeasonTable:
    """The season's tournaments in date order and its standings, from each tournament's
    standings over its released rounds, once a table of them counts or a bye is given
    (8 queries however many tournaments)."""
    tournaments = list(season.tournaments.order_by("date", "created_at", "pk"))
    entrants, adjusted = entrants_and_adjustments(tournaments)
    # a player is the same person in every tournament of the season: by his club player
    names: dict[int, str] = {}
    results = []
    for played in played_of(tournaments, entrants, released_only=True):
        tournament = played.tournament
        ids = {entrant.player.name: entrant.player_id for entrant in played.entrants}
        names.update({entrant.player_id: entrant.player.name for entrant in played.entrants})
        standings = standings_of(played, adjusted.get(tournament.pk, {}))
        if not any(cell for row in standings.rows for cell in row.rounds):
            # no table of a released round counts yet, nor a bye: it gives nothing yet
            results.append(Played(rows=[], order=tournament.order))
            continue
        results.append(
            Played(
                rows=[replace(row, player=ids[row.player]) for row in standings.rows],
                order=tournament.order,
            )
        )
    return SeasonTable(
        season,
        tournaments,
        season_standings(results, scoring=season.scoring, place_points=season.place_points),
        names,
        [bool(result.rows) for result in results],
    )


def addable(season: Season, user):
    """The tournaments the member may add to the season: of its game, in no season, and
    directed by him."""
    return (
        roles.directed(user)
        .filter(game=season.game, season__isnull=True)
        .order_by("-date", "-created_at")
    )
