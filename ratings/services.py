"""The club's ratings per game (docs/decisions.md, "Ratings"): derived from the results,
stored, and kept equal to a rebuild.

The results come from sources that this app registers when it is ready (``register``): the
casual tables (``casual_tables``) and the tournaments' (``tournament_tables``), whose apps
announce each change of them by a signal. A source lists a game's rated matches (``Match``)
and names them for pages. ``rerate`` is called in the transaction of every change of a
source's results: it compares the matches of what changed with those rated, and re-rates
the game from the first that differs, so that the stored ratings always equal
``rebuild``'s.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from django.db import transaction

from . import skill
from .models import Ladder, RatedMatch, Rating, RatingStep


@dataclass(frozen=True)
class Match:
    """A rated match as its source gives it: its players (club player ids, in seat order)
    and what ranked them (higher is better; equal figures tie)."""

    key: str  # stable and unique in its game: the source's name of it
    completed_at: datetime
    tiebreak: tuple[int, ...]  # orders the source's matches completed at one time
    players: tuple[int, ...]
    points: tuple[int, ...]
    source: str = ""

    @property
    def order(self) -> str:
        when = self.completed_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")
        return "|".join([when, self.source, *(f"{n:012d}" for n in self.tiebreak)])


@dataclass(frozen=True)
class Named:
    """What a page calls a rated match, and where it links to."""

    title: str
    url: str = ""  # none for a casual table: its addresses are its players' own
    duplicate: bool = False  # a comparison of a duplicate deal's results, ranked by margin
    points_scale: int = 1  # its players' figures are stored this many times over, whole


class Source(Protocol):
    name: str  # part of every order: matches of two sources completed at once stay apart

    def matches(
        self, game: str, *, since: datetime | None = None, scope: str | None = None
    ) -> Iterable[Match]:
        """The game's rated matches: completed at or after ``since``, or those whose key
        starts with ``scope``; all of them when neither is given."""
        ...

    def describe(self, keys: Sequence[str]) -> dict[str, Named]: ...


SOURCES: list[Source] = []


def register(source: Source) -> None:
    if all(known.name != source.name for known in SOURCES):
        SOURCES.append(source)


def source_of(key: str) -> Source:
    return next(s for s in SOURCES if key.startswith(f"{s.name}:"))


def collected(source: Source, game: str, **filters) -> list[Match]:
    return [
        Match(m.key, m.completed_at, m.tiebreak, m.players, m.points, source.name)
        for m in source.matches(game, **filters)
    ]


def all_matches(game: str, since: datetime | None = None) -> list[Match]:
    found = [m for source in SOURCES for m in collected(source, game, since=since)]
    return sorted(found, key=lambda m: m.order)


def rebuild(game: str) -> int:
    """Every rating of the game recomputed from the results alone: the number of matches."""
    with transaction.atomic():
        lock(game)
        RatedMatch.objects.filter(game=game).delete()
        Rating.objects.filter(game=game).delete()
        matches = all_matches(game)
        write(game, matches, {})
    return len(matches)


def rerate(game: str, scope: str) -> None:
    """After a change of the results of the matches whose keys start with ``scope`` (a
    tournament's tables, a table's cycles): the game re-rated from the first of them that
    is rated otherwise than the results now say, if any."""
    source = source_of(scope)
    with transaction.atomic():
        lock(game)
        now = {m.key: m for m in collected(source, game, scope=scope)}
        stored = stored_matches(game, scope)
        changed = [
            order
            for key in now.keys() | stored.keys()
            if (order := differs(now.get(key), stored.get(key))) is not None
        ]
        if changed:
            replay_from(game, min(changed))


def differs(now: Match | None, stored: tuple | None) -> str | None:
    """The earliest order at which a match's result and its rating disagree, or None."""
    if now is None:
        return None if stored is None else stored[0]
    if stored is None:
        return now.order
    if stored != (now.order, now.players, now.points):
        return min(now.order, stored[0])
    return None


def stored_matches(game: str, scope: str) -> dict[str, tuple]:
    """Each rated match of ``scope`` as (order, players, points), by key."""
    found: dict[str, tuple[str, list[int], list[int]]] = {}
    for key, order, player, points in (
        RatingStep.objects.filter(match__game=game, match__key__startswith=scope)
        .order_by("match", "seat")
        .values_list("match__key", "match__order", "player_id", "points")
    ):
        entry = found.setdefault(key, (order, [], []))
        entry[1].append(player)
        entry[2].append(points)
    return {key: (order, tuple(p), tuple(f)) for key, (order, p, f) in found.items()}


def replay_from(game: str, start: str) -> None:
    """The rated matches from ``start`` on taken away, and the game's matches from there
    rated again, from each player's rating before them."""
    later = RatedMatch.objects.filter(game=game, order__gte=start)
    before: dict[int, tuple[float, float, int]] = {}
    taken: dict[int, int] = {}
    for player, mu, sigma in (
        RatingStep.objects.filter(match__in=later)
        .order_by("-match__order")
        .values_list("player_id", "mu_before", "sigma_before")
    ):
        taken[player] = taken.get(player, 0) + 1
        before[player] = (mu, sigma, 0)  # the earliest taken step's is kept: ordered last
    for player, matches in taken.items():
        before[player] = (*before[player][:2], matches)
    current = {r.player_id: r for r in Rating.objects.filter(game=game, player_id__in=list(before))}
    state = {}
    for player, (mu, sigma, count) in before.items():
        state[player] = (mu, sigma, current[player].matches - count)
    later.delete()
    since = datetime.strptime(start.split("|")[0], "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=UTC)
    matches = [m for m in all_matches(game, since=since) if m.order >= start]
    write(game, matches, state)


def write(game: str, matches: list[Match], state: dict[int, tuple[float, float, int]]) -> None:
    """``matches`` rated in order from ``state`` (μ, σ, matches by player; stored ratings
    for the others), their steps and the players' ratings saved."""
    players = {p for m in matches for p in m.players} - state.keys()
    for r in Rating.objects.filter(game=game, player_id__in=players):
        state[r.player_id] = (r.mu, r.sigma, r.matches)
    rated = RatedMatch.objects.bulk_create(
        RatedMatch(game=game, key=m.key, order=m.order, completed_at=m.completed_at)
        for m in matches
    )
    steps = []
    for match, row in zip(matches, rated, strict=True):
        before = [state.get(p, (*skill.START, 0)) for p in match.players]
        after = skill.rate([b[:2] for b in before], match.points)
        for seat, (player, was, now, figure, rank) in enumerate(
            zip(match.players, before, after, match.points, skill.ranks(match.points), strict=True)
        ):
            steps.append(
                RatingStep(
                    match=row,
                    player_id=player,
                    seat=seat,
                    points=figure,
                    rank=rank,
                    mu_before=was[0],
                    sigma_before=was[1],
                    mu=now[0],
                    sigma=now[1],
                )
            )
            state[player] = (*now, was[2] + 1)
    RatingStep.objects.bulk_create(steps, batch_size=2000)
    save_ratings(game, state)


def save_ratings(game: str, state: dict[int, tuple[float, float, int]]) -> None:
    """The players' ratings as ``state`` has them; a player with no rated match left has
    none."""
    Rating.objects.filter(game=game, player_id__in=list(state)).delete()
    Rating.objects.bulk_create(
        (
            Rating(player_id=player, game=game, mu=mu, sigma=sigma, matches=count)
            for player, (mu, sigma, count) in state.items()
            if count
        ),
        batch_size=2000,
    )


def lock(game: str) -> None:
    Ladder.objects.get_or_create(game=game)
    Ladder.objects.select_for_update().get(game=game)
