"""A tournament's standings (pure Python, no Django), as docs/rules/tournaments.md
("Scoring a table", "Standings") defines them.

Give ``standings`` the entrants in entry order (names, ids: anything hashable), every round's
counted tables (``Table``: its players in seat order and each one's game points; only
complete tables) and byes, the bye points and the order; it returns ``Standings``: typed rows
in order with their places, and each entrant's round by round breakdown. Match points are
exact (``Fraction``); ``number`` writes them as JSON and CSV do (4 or 4.5).
"""

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from core.spreadsheets import csv_text

from .duplicate.scoring import Totals

KEYS = ("match_points", "points", "opponents", "wins")
DUPLICATE_KEYS = ("percent", "field", "deals")  # a duplicate tournament's (``duplicate``)
DEFAULT_ORDER = KEYS  # a club that ranks by total points alone: ("points", "match_points")
BYE_POINTS = 3
COLUMNS = ("place", "player", "match_points", "points", "opponents", "wins")
DUPLICATE_COLUMNS = ("place", "player", "percent", "field", "deals", *COLUMNS[2:])
NO_DEALS = Totals(Fraction(0), Fraction(0), 0)


@dataclass(frozen=True)
class Table:
    """A counted table: its players in seat order and each one's game points there."""

    players: Sequence[Hashable]
    points: Sequence[int]


@dataclass(frozen=True)
class Round:
    tables: Sequence[Table] = ()  # the counted (complete) tables only
    byes: Sequence[Hashable] = ()


@dataclass(frozen=True)
class RoundCell:
    """One entrant's round: a counted table (his match and game points) or a bye (the bye
    points, no game points)."""

    match_points: Fraction
    points: int | None  # None for a bye
    bye: bool = False


@dataclass(frozen=True)
class Standing:
    place: int  # the best place of the group that shares it
    last_place: int  # the worst (equal to ``place`` unless the place is shared: "2–3")
    player: Hashable
    match_points: Fraction
    points: int
    opponents: Fraction
    wins: int
    rounds: tuple[RoundCell | None, ...]  # by round; None: not at a counted table nor a bye
    adjustment: int = 0  # the director's adjustments, included in ``points``
    duplicate: Totals | None = None  # a duplicate tournament's: over his scored deals

    @property
    def shared(self) -> bool:
        return self.last_place != self.place

    @property
    def shown_place(self) -> str:
        """The place as pages write it: "2", or "2–3" when shared."""
        return f"{self.place}–{self.last_place}" if self.shared else str(self.place)

    def as_json(self, name: Callable[[Hashable], object] | None = None) -> dict:
        duplicate = self.duplicate
        return {
            "place": self.place,
            "player": self.player if name is None else name(self.player),
            **(
                {
                    "percent": two_places(duplicate.percent),
                    "field": two_places(duplicate.field),
                    "deals": duplicate.deals,
                }
                if duplicate
                else {}
            ),
            "match_points": number(self.match_points),
            "points": self.points,
            "opponents": number(self.opponents),
            "wins": self.wins,
        }


@dataclass(frozen=True)
class Standings:
    rows: list[Standing]  # in standings order
    order: tuple[str, ...]
    duplicate: bool = False  # every row has its percentage, field figure and deals

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def as_json(self, name: Callable[[Hashable], object] | None = None) -> list[dict]:
        """The list ``tournament standings --json`` prints (``name`` gives a player's name
        when the entrants are not names)."""
        return [row.as_json(name) for row in self.rows]

    def as_csv(self, name: Callable[[Hashable], object] | None = None) -> str:
        columns = DUPLICATE_COLUMNS if self.duplicate else COLUMNS
        rows = [[row[column] for column in columns] for row in self.as_json(name)]
        return csv_text([columns, *rows])


def number(value: Fraction | int) -> int | float:
    """An exact figure as JSON writes it: a whole number as an int, else a float (4.5)."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else float(value)


def hundredths(value: Fraction) -> Decimal:
    """A percentage, margin or field figure to two decimals (83.33, 50.00), as the pages,
    JSON and CSV write it: rounded half to even, exactly."""
    rounded = round(Fraction(value), 2)
    return (Decimal(rounded.numerator) / rounded.denominator).quantize(Decimal("0.01"))


def two_places(value: Fraction) -> float:
    """A percentage or field figure as JSON and CSV write it: rounded to two decimals."""
    return float(hundredths(value))


def exact(value) -> Fraction:
    """Bye points as given (3, 1.5, "1.5" or a Fraction), exactly."""
    if isinstance(value, bool):
        raise ValueError("bye points must be a number")
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def match_points(points: Sequence[int]) -> list[Fraction]:
    """Each player's match points at a table where they finished with these game points:
    ``3 × (2b + t) / (n − 1)`` for ``b`` players beaten and ``t`` tied."""
    n = len(points)
    if n < 2:
        raise ValueError("a table has at least two players")
    result = []
    for i, mine in enumerate(points):
        beaten = sum(1 for j, other in enumerate(points) if j != i and mine > other)
        tied = sum(1 for j, other in enumerate(points) if j != i and mine == other)
        result.append(Fraction(3 * (2 * beaten + tied), n - 1))
    return result


def standings(
    entrants: Sequence[Hashable],
    rounds: Iterable[Round],
    *,
    bye_points=BYE_POINTS,
    order: Sequence[str] = DEFAULT_ORDER,
    adjustments: Mapping[Hashable, int] | None = None,
    duplicate: Mapping[Hashable, Totals] | None = None,
) -> Standings:
    """``adjustments``: game points the director added to (or took from) an entrant's
    total; they count in ``points`` only (not in any table's match points). ``duplicate``:
    a duplicate tournament's figures by entrant (``duplicate.scoring.Tally``; one
    with no scored deal has none), which its order may name."""
    entrants = list(entrants)
    index = {player: i for i, player in enumerate(entrants)}
    if len(index) != len(entrants):
        raise ValueError("an entrant is listed twice")
    order = tuple(order)
    allowed = KEYS + DUPLICATE_KEYS if duplicate is not None else KEYS
    if not order or any(key not in allowed for key in order) or len(set(order)) != len(order):
        raise ValueError(f"the order is a list of different keys from {', '.join(allowed)}")
    bye = exact(bye_points)

    def entrant(player) -> int:
        try:
            return index[player]
        except (KeyError, TypeError):
            raise ValueError(f"{player!r} is not an entrant") from None

    rounds = list(rounds)
    count = len(entrants)
    totals = [Fraction(0)] * count
    points = [0] * count
    wins = [0] * count
    met: list[list[int]] = [[] for _ in entrants]  # every opponent at every counted table
    cells: list[list[RoundCell | None]] = [[None] * len(rounds) for _ in entrants]
    for number_, round_ in enumerate(rounds):
        for table in round_.tables:
            seats = [entrant(player) for player in table.players]
            figures = list(table.points)
            if len(figures) != len(seats):
                raise ValueError("a table gives one figure per player")
            if len(set(seats)) != len(seats):
                raise ValueError("a player sits twice at one table")
            for seat, (who, won) in enumerate(zip(seats, match_points(figures), strict=True)):
                totals[who] += won
                points[who] += figures[seat]
                if all(figures[seat] > other for j, other in enumerate(figures) if j != seat):
                    wins[who] += 1
                met[who].extend(other for other in seats if other != who)
                cells[who][number_] = RoundCell(won, figures[seat])
        for player in round_.byes:
            who = entrant(player)
            totals[who] += bye
            cells[who][number_] = RoundCell(bye, None, bye=True)
    extra = [0] * count
    for player, figure in (adjustments or {}).items():
        extra[entrant(player)] += figure
        points[entrant(player)] += figure
    opponents = [sum((totals[other] for other in met[who]), Fraction(0)) for who in range(count)]
    per_deal = [(duplicate or {}).get(player, NO_DEALS) for player in entrants]
    keys: dict[str, Sequence[Fraction | int]] = {
        "match_points": totals,
        "points": points,
        "opponents": opponents,
        "wins": wins,
        "percent": [f.percent for f in per_deal],
        "field": [f.field for f in per_deal],
        "deals": [f.deals for f in per_deal],
    }

    def sort_key(who: int) -> tuple:
        return tuple(keys[key][who] for key in order)

    ranked = sorted(range(count), key=lambda who: tuple(-v for v in sort_key(who)))
    rows = []
    start = 0
    while start < count:
        end = start
        while end + 1 < count and sort_key(ranked[end + 1]) == sort_key(ranked[start]):
            end += 1
        for who in ranked[start : end + 1]:  # sorted() is stable: a group is in entry order
            rows.append(
                Standing(
                    place=start + 1,
                    last_place=end + 1,
                    player=entrants[who],
                    match_points=totals[who],
                    points=points[who],
                    opponents=opponents[who],
                    wins=wins[who],
                    rounds=tuple(cells[who]),
                    adjustment=extra[who],
                    duplicate=per_deal[who] if duplicate is not None else None,
                )
            )
        start = end + 1
    return Standings(rows=rows, order=order, duplicate=duplicate is not None)
