"""What the public pages show of the club's ratings (``ladder``): on a player's page, game
by game, his rating and place on the ladder, its history as a chart, his rated matches and
his record against each regular opponent; on a tournament's standings (the tournaments app
asks, ``tournaments.public.views.rating_changes``), each entrant's rating before its first
rated table and after its last. A player's rated matches are named by every source."""

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction

from django.core.paginator import Page, Paginator
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Player
from core.charts import Chart, Series, line_chart
from games import registry
from tournaments.models import Tournament
from tournaments.standings import hundredths

from . import ladder, services
from .ladder import Record, Rung, Step
from .models import Rating
from .services import Named
from .tournament_tables import TournamentTables

REGULAR = 3  # an opponent met this many times in rated matches has his record shown
RESULTS_A_PAGE = 20  # of his rated matches in one game, the newest first


@dataclass(frozen=True)
class Result:
    """One of his rated matches as his page lists it."""

    step: Step
    day: date  # the club's local date it was completed
    title: str
    url: str  # "" where the match has no page of its own (a casual table)
    duplicate: bool = False  # a comparison of a duplicate deal: his figure is his margin
    points_scale: int = 1

    @property
    def change(self) -> int:
        return self.step.after - self.step.before

    @property
    def points(self) -> int | Decimal:
        """His figure in the match: game points, a total, or a margin to two decimals."""
        figure = Fraction(self.step.points, self.points_scale)
        if figure.denominator == 1:
            return figure.numerator
        return hundredths(figure)  # as the traveller writes it


@dataclass(frozen=True)
class GameRating:
    """His part in one game's ladder."""

    game: registry.Game
    rung: Rung
    players: int  # on the ladder
    chart: Chart
    results: list[Result]  # the page of them shown, the newest first
    page: Page  # that page of his rated matches (the newest first), for its links
    records: list[Record]  # against each opponent met at least REGULAR times

    @property
    def page_parameter(self) -> str:
        return page_parameter(self.game.key)

    @property
    def duplicate(self) -> bool:
        """A duplicate match among those shown: the legend says what one is."""
        return any(result.duplicate for result in self.results)


def page_parameter(game: str) -> str:
    """The query parameter of a player's page that says which page of his rated matches in
    ``game`` it shows."""
    return f"{game}-page"


@dataclass(frozen=True)
class RatingChange:
    before: int
    after: int

    @property
    def change(self) -> int:
        return self.after - self.before


def player_ratings(player: Player, pages: Mapping[str, str] | None = None) -> list[GameRating]:
    """Each game he has a rating in, in the registry's order, with the page of his rated
    matches that ``pages`` asks for (``page_parameter``: the first where it asks for none,
    the nearest where it asks for one that is not there). The same queries for 3 rated
    matches as for 300: a few a game."""
    rated = set(Rating.objects.filter(player=player).values_list("game", flat=True))
    shown = []
    for game in registry.games():
        if game.key not in rated:
            continue
        rungs = ladder.ladder(game.key)
        steps = ladder.history(player, game.key)
        page = Paginator(steps[::-1], RESULTS_A_PAGE).get_page(
            (pages or {}).get(page_parameter(game.key))
        )
        named = names(step.key for step in page.object_list)
        results = [
            Result(
                step,
                timezone.localdate(step.completed_at),
                name.title,
                name.url,
                name.duplicate,
                name.points_scale,
            )
            for step in page.object_list
            for name in [named.get(step.key) or Named(_("a rated match"))]
        ]
        shown.append(
            GameRating(
                game=game,
                rung=next(rung for rung in rungs if rung.player.pk == player.pk),
                players=len(rungs),
                chart=history_chart(player, steps),
                results=results,
                page=page,
                records=ladder.records(player, game.key, least=REGULAR),
            )
        )
    return shown


def names(keys: Iterable[str]) -> dict[str, Named]:
    """What each match is called and where it links to, asked of its source (one call a
    source)."""
    by_source = defaultdict(list)
    for key in keys:
        by_source[services.source_of(key)].append(key)
    found: dict[str, Named] = {}
    for source, keyed in by_source.items():
        found.update(source.describe(keyed))
    return found


def history_chart(player: Player, steps: list[Step]) -> Chart:
    """His shown rating after each rated match, in the order they were rated: numbered,
    since a club night rates several on one date (the list of matches gives their dates)."""
    return line_chart(
        title=_("Rating after each rated match"),
        x_title=_("Match"),
        y_title=_("Rating"),
        x_labels=[str(number) for number in range(1, len(steps) + 1)],
        series=[Series(player.name, [step.after for step in steps])],
    )


def tournament_changes(tournament: Tournament) -> dict[int, RatingChange]:
    """Each entrant's shown rating before the tournament's first rated table he played and
    after its last, by player id; none for one with no rated table yet (1 query)."""
    scope = f"{TournamentTables.name}:{tournament.pk}:"
    return {
        player: RatingChange(before, after)
        for player, (before, after) in ladder.changes(tournament.game, scope).items()
    }
