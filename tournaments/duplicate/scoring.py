"""A duplicate tournament's scoring, pure Python (docs/rules/duplicate.md): every table of a
round's group plays the same deals, and a seat's result on a deal is compared with those of
the seats that held the same cards at the group's other tables.

Figures are kept exact (``Fraction``) until they are written out.
"""

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

# The directors' rulings on a deal (docs/rules/duplicate.md): a fouled table played it with
# wrong cards; an adjusted seat scores the percentage awarded.
FOULED = "fouled"
ADJUSTED_PERCENT = {"plus": Fraction(60), "average": Fraction(50), "minus": Fraction(40)}


def margins(scores: Sequence[int | Fraction]) -> list[Fraction]:
    """Each seat's margin on a deal: its score less the mean of the other seats' scores at
    its table."""
    total, others = sum(scores), len(scores) - 1
    return [Fraction(score) - Fraction(total - score, others) for score in scores]


@dataclass(frozen=True)
class Scored:
    """One result of a comparison: its margin, matchpoints (Neuberg's where results are
    missing), percentage of the top and field figure."""

    margin: Fraction
    matchpoints: Fraction
    percent: Fraction
    field: Fraction


def compare(results: Mapping[Hashable, Fraction], tables: int) -> dict[Hashable, Scored]:
    """The comparison of one seat on one deal: ``results`` the margins of the tables that
    played it (by table), ``tables`` how many tables the group has (E). Two matchpoints for
    every other result with a smaller margin, one for every equal one; with fewer results
    than tables, Neuberg's formula; a group of one table scores 50 %."""
    played = len(results)
    if not 0 < played <= tables:
        raise ValueError(f"{played} results for a group of {tables} tables")
    top = 2 * (tables - 1)
    mean = sum(results.values(), Fraction(0)) / played
    scored = {}
    for table, margin in results.items():
        raw = sum(
            2 if other < margin else 1 if other == margin else 0
            for key, other in results.items()
            if key != table
        )
        points = Fraction(raw) if played == tables else Fraction((raw + 1) * tables, played) - 1
        percent = Fraction(50) if top == 0 else 100 * points / top
        scored[table] = Scored(margin, points, percent, margin - mean)
    return scored


@dataclass(frozen=True)
class Board:
    """One deal of a round's group as its tables played it: ``rows`` each table's scores on
    it by seat (only the tables that have a row for it), ``players`` each table's players by
    seat, ``tables`` how many tables the group has. The directors' rulings: ``fouled``
    tables (played with wrong cards) are left out of the comparisons, their players get no
    result unless adjusted; ``adjusted`` gives a (table, seat) the percentage a director
    awarded (60, 50 or 40), its result left out of the others' comparison."""

    rows: Mapping[Hashable, Sequence[int | Fraction]]
    players: Mapping[Hashable, Sequence[Hashable]]
    tables: int
    fouled: frozenset = frozenset()
    adjusted: Mapping[tuple[Hashable, int], Fraction] = field(default_factory=dict)


@dataclass(frozen=True)
class Totals:
    """A player's duplicate figures over the scored deals he played."""

    percent: Fraction
    field: Fraction
    deals: int


def board_results(board: Board) -> dict[tuple[Hashable, int], Scored]:
    """Every result of a scored deal, by (table, seat): an adjusted one scores its
    percentage (matchpoints of the top in proportion, field 0)."""
    table_margins = {
        table: margins(scores) for table, scores in board.rows.items() if table not in board.fouled
    }
    seats = max((len(scores) for scores in board.rows.values()), default=0)
    top = 2 * (board.tables - 1)
    found = {}
    for seat in range(seats):
        comparison = {
            table: m[seat]
            for table, m in table_margins.items()
            if (table, seat) not in board.adjusted
        }
        if comparison:
            for table, scored in compare(comparison, board.tables).items():
                found[table, seat] = scored
        for (table, adjusted_seat), percent in board.adjusted.items():
            if adjusted_seat == seat:
                points = Fraction(percent) * top / 100
                found[table, seat] = Scored(Fraction(0), points, Fraction(percent), Fraction(0))
    return found


def player_totals(boards: Iterable[Board]) -> dict[Hashable, Totals]:
    """Each player's mean percentage (every deal weighing the same), summed field figure
    and count of scored deals, over ``boards``: the scored deals alone."""
    percents: dict[Hashable, list[Fraction]] = defaultdict(list)
    fields: dict[Hashable, Fraction] = defaultdict(Fraction)
    for board in boards:
        for (table, seat), scored in board_results(board).items():
            player = board.players[table][seat]
            percents[player].append(scored.percent)
            fields[player] += scored.field
    return {
        player: Totals(sum(found, Fraction(0)) / len(found), fields[player], len(found))
        for player, found in percents.items()
    }
