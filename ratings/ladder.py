"""What pages show of the club's ratings (ratings.services stores them): a game's ladder, a
player's history and his record against each opponent, the changes over a set of matches."""

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, OuterRef, Subquery

from club.models import Player

from . import skill
from .models import Rating, RatingStep
from .tournament_tables import DUPLICATE_MARK

RECENT = 10  # the ladder's change: over a player's last ten rated matches


@dataclass(frozen=True)
class Rung:
    place: int
    player: Player
    mu: float
    sigma: float
    matches: int
    change: int  # of the shown rating over his last ten matches (all of them, if fewer)
    duplicate: int = 0  # of his matches, comparisons of a duplicate deal's results

    @property
    def rating(self) -> int:
        return skill.shown((self.mu, self.sigma))

    @property
    def provisional(self) -> bool:
        return skill.provisional((self.mu, self.sigma))

    def as_json(self) -> dict:
        return {
            "place": self.place,
            "player": self.player.name,
            "rating": self.rating,
            "provisional": self.provisional,
            "mu": self.mu,
            "sigma": self.sigma,
            "matches": self.matches,
            "duplicate": self.duplicate,
            "change": self.change,
        }


def ladder(game: str) -> list[Rung]:
    """Every player with a rated match of the game, best first (1 query): by the ordinal
    μ − 3σ; players of one shown rating share its place. Each with how many of his matches
    compare a duplicate deal's results."""
    recent = RatingStep.objects.filter(
        player=OuterRef("player"), match__game=OuterRef("game")
    ).order_by("-match_id")[RECENT - 1 : RECENT]  # ids follow the rating order
    duplicate = (
        RatingStep.objects.filter(
            player=OuterRef("player"),
            match__game=OuterRef("game"),
            match__key__contains=DUPLICATE_MARK,
        )
        .values("player")
        .annotate(count=Count("pk"))
        .values("count")
    )
    ratings = list(
        Rating.objects.filter(game=game)
        .select_related("player")
        .annotate(
            mu_back=Subquery(recent.values("mu_before")),
            sigma_back=Subquery(recent.values("sigma_before")),
            duplicate=Subquery(duplicate),
        )
    )
    ratings.sort(key=lambda r: (-skill.ordinal((r.mu, r.sigma)), r.player.name))
    rungs: list[Rung] = []
    for r in ratings:
        was = skill.START if r.mu_back is None else (r.mu_back, r.sigma_back)
        shown = skill.shown((r.mu, r.sigma))
        same = rungs and rungs[-1].rating == shown
        rungs.append(
            Rung(
                place=rungs[-1].place if same else len(rungs) + 1,
                player=r.player,
                mu=r.mu,
                sigma=r.sigma,
                matches=r.matches,
                change=shown - skill.shown(was),
                duplicate=r.duplicate or 0,
            )
        )
    return rungs


@dataclass(frozen=True)
class Step:
    """One of a player's rated matches, as his page lists it."""

    key: str
    completed_at: object
    rank: int
    players: int  # at the match
    points: int
    before: int  # his shown rating before it
    after: int
    provisional: bool  # after it


def history(player: Player, game: str) -> list[Step]:
    """His rated matches of the game in rating order (1 query)."""
    return [
        Step(
            key=key,
            completed_at=completed,
            rank=rank,
            players=players,
            points=points,
            before=skill.shown((mu0, s0)),
            after=skill.shown((mu, s)),
            provisional=skill.provisional((mu, s)),
        )
        for key, completed, rank, players, points, mu0, s0, mu, s in RatingStep.objects.filter(
            player=player, match__game=game
        )
        .annotate(players=Count("match__steps"))
        .order_by("match__order")
        .values_list(
            "match__key",
            "match__completed_at",
            "rank",
            "players",
            "points",
            "mu_before",
            "sigma_before",
            "mu",
            "sigma",
        )
    ]


@dataclass
class Record:
    """His record against one opponent over the rated matches they played together: a win
    is finishing above him."""

    opponent: Player
    won: int = 0
    drawn: int = 0
    lost: int = 0

    @property
    def matches(self) -> int:
        return self.won + self.drawn + self.lost


def records(player: Player, game: str, least: int = 1) -> list[Record]:
    """His record against each opponent met at least ``least`` times, most met first
    (2 queries)."""
    mine = dict(
        RatingStep.objects.filter(player=player, match__game=game).values_list("match_id", "rank")
    )
    found: dict[int, Record] = {}
    for step in (
        RatingStep.objects.filter(match__in=list(mine))
        .exclude(player=player)
        .select_related("player")
        .only("match_id", "rank", "player__name")
    ):
        record = found.setdefault(step.player_id, Record(step.player))
        mine_rank = mine[step.match_id]
        if mine_rank < step.rank:
            record.won += 1
        elif mine_rank == step.rank:
            record.drawn += 1
        else:
            record.lost += 1
    kept = [r for r in found.values() if r.matches >= least]
    return sorted(kept, key=lambda r: (-r.matches, r.opponent.name))


def changes(game: str, scope: str) -> dict[int, tuple[int, int]]:
    """Each player's shown rating before his first and after his last rated match whose key
    starts with ``scope`` (a tournament's tables), by player id (1 query)."""
    found: dict[int, list] = defaultdict(list)
    for player, mu0, s0, mu, s in (
        RatingStep.objects.filter(match__game=game, match__key__startswith=scope)
        .order_by("match__order")
        .values_list("player_id", "mu_before", "sigma_before", "mu", "sigma")
    ):
        found[player].append(((mu0, s0), (mu, s)))
    return {
        player: (skill.shown(steps[0][0]), skill.shown(steps[-1][1]))
        for player, steps in found.items()
    }
