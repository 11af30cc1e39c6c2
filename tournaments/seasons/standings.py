"""A season's standings (pure Python, no Django), as docs/rules/tournaments.md ("Seasons")
defines them.

Give ``season_standings`` the season's tournaments in date order, each its standings rows
(anything with ``place``, ``last_place``, ``player`` and the standings keys of
``tournaments.standings``: its ``Standing`` rows do) and its order, and the season's scoring;
it returns ``SeasonStandings``: typed rows in order with their places, each player's points
tournament by tournament and his running total after each. Points are exact (``Fraction``).
"""

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from core.spreadsheets import csv_text

from ..standings import KEYS, number

PLACES, MATCH_POINTS = "places", "match_points"
SCORINGS = (PLACES, MATCH_POINTS)
DEFAULT_PLACE_POINTS = (10, 8, 6, 5, 4, 3, 2, 1)
MOST_PLACES = 64  # a points table's entries
MOST_PLACE_POINTS = 1000  # one place's points


class Result(Protocol):
    """One entrant's row of a tournament's standings."""

    @property
    def place(self) -> int: ...
    @property
    def last_place(self) -> int: ...
    @property
    def player(self) -> Hashable: ...
    @property
    def match_points(self) -> Fraction: ...
    @property
    def points(self) -> int: ...
    @property
    def opponents(self) -> Fraction: ...
    @property
    def wins(self) -> int: ...


@dataclass(frozen=True)
class Played:
    """One tournament of the season: its standings rows (none before a table of it counts:
    it gives nobody anything yet) and the order of its standings."""

    rows: Sequence[Result]
    order: Sequence[str] = KEYS


@dataclass(frozen=True)
class SeasonRow:
    place: int  # the best place of the group that shares it
    last_place: int  # the worst (equal to ``place`` unless the place is shared)
    player: Hashable
    points: Fraction
    cells: tuple[Fraction | None, ...]  # by tournament; None: he did not enter it
    running: tuple[Fraction, ...]  # his season total after each tournament
    keys: tuple[Fraction, ...]  # the season's sums of the tie-break keys, in ``order``

    @property
    def shared(self) -> bool:
        return self.last_place != self.place

    @property
    def shown_place(self) -> str:
        """The place as pages write it: "2", or "2–3" when shared."""
        return f"{self.place}–{self.last_place}" if self.shared else str(self.place)


@dataclass(frozen=True)
class SeasonStandings:
    rows: list[SeasonRow]  # in standings order
    order: tuple[str, ...]  # the tie-break keys: the first tournament's order

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def as_csv(
        self, tournaments: Sequence[str], name: Callable[[Hashable], object] | None = None
    ) -> str:
        """A line a player: place (the best of a shared one), player, season points, and
        his points in each of ``tournaments`` (their headings), blank where he did not
        enter."""
        lines: list[list] = [["place", "player", "season_points", *tournaments]]
        for row in self.rows:
            lines.append(
                [
                    row.place,
                    row.player if name is None else name(row.player),
                    number(row.points),
                    *(None if cell is None else number(cell) for cell in row.cells),
                ]
            )
        return csv_text(lines)


def check_place_points(values: Sequence[int]) -> tuple[int, ...]:
    """The points table as given, if it is one: at most ``MOST_PLACES`` whole numbers
    from 0 to ``MOST_PLACE_POINTS``; ValueError otherwise."""
    values = tuple(values)
    if len(values) > MOST_PLACES:
        raise ValueError(f"a points table has at most {MOST_PLACES} places")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("a place's points are a whole number")
        if not 0 <= value <= MOST_PLACE_POINTS:
            raise ValueError(f"a place's points are from 0 to {MOST_PLACE_POINTS}")
    return values


def place_share(place: int, last_place: int, table: Sequence[int]) -> Fraction:
    """The points of places ``place`` to ``last_place`` (from 1), shared equally by those
    who share them; a place beyond the table gives 0."""
    given = [table[k - 1] if k <= len(table) else 0 for k in range(place, last_place + 1)]
    return Fraction(sum(given), len(given))


def earned(row: Result, scoring: str, table: Sequence[int]) -> Fraction:
    if scoring == PLACES:
        return place_share(row.place, row.last_place, table)
    return Fraction(row.match_points)


def season_standings(
    tournaments: Sequence[Played],
    *,
    scoring: str = PLACES,
    place_points: Sequence[int] = DEFAULT_PLACE_POINTS,
) -> SeasonStandings:
    """Every player who entered a tournament of the season, by season points, then by the
    season's sums of the first tournament's standings keys in its order (those that add up
    over tournaments: a duplicate tournament's percentages do not); players equal on all of
    them share the place, listed in the order they first appear (the first tournament's
    standings, then each next one's newcomers)."""
    if scoring not in SCORINGS:
        raise ValueError(f"the scoring is one of {', '.join(SCORINGS)}")
    table = check_place_points(place_points)
    order = tuple(k for k in tournaments[0].order if k in KEYS) or KEYS if tournaments else KEYS
    if not order or any(key not in KEYS for key in order) or len(set(order)) != len(order):
        raise ValueError(f"the order is a list of different keys from {', '.join(KEYS)}")
    count = len(tournaments)
    cells: dict[Hashable, list[Fraction | None]] = {}
    sums: dict[Hashable, list[Fraction]] = {}
    for index, played in enumerate(tournaments):
        seen = set()
        for row in played.rows:
            if row.player in seen:
                raise ValueError(f"{row.player!r} is listed twice in one tournament")
            seen.add(row.player)
            mine = cells.setdefault(row.player, [None] * count)
            mine[index] = earned(row, scoring, table)
            totals = sums.setdefault(row.player, [Fraction(0)] * len(order))
            for k, key in enumerate(order):
                totals[k] += Fraction(getattr(row, key))
    players = list(cells)  # in the order they first appear

    def running(player) -> tuple[Fraction, ...]:
        total, after = Fraction(0), []
        for cell in cells[player]:
            total += cell or 0
            after.append(total)
        return tuple(after)

    def sort_key(player) -> tuple[Fraction, ...]:
        return (sum((c for c in cells[player] if c is not None), Fraction(0)), *sums[player])

    ranked = sorted(players, key=lambda player: tuple(-v for v in sort_key(player)))
    rows = []
    start = 0
    while start < len(ranked):
        end = start
        while end + 1 < len(ranked) and sort_key(ranked[end + 1]) == sort_key(ranked[start]):
            end += 1
        for player in ranked[start : end + 1]:  # sorted() is stable: first appearance order
            rows.append(
                SeasonRow(
                    place=start + 1,
                    last_place=end + 1,
                    player=player,
                    points=sort_key(player)[0],
                    cells=tuple(cells[player]),
                    running=running(player),
                    keys=tuple(sums[player]),
                )
            )
        start = end + 1
    return SeasonStandings(rows=rows, order=order)
