"""A duplicate tournament's scoring, pure Python (docs/rules/duplicate.md): every table of a
round's group plays the same deals, and a seat's result on a deal is compared with those of
the seats that held the same cards at the group's other tables.

Figures are kept exact (``Fraction``) until they are written out.
"""

import functools
import math
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from core.refusals import Refusal, gettext_noop

# The directors' rulings on a deal (docs/rules/duplicate.md): a fouled table played it with
# wrong cards; an adjusted seat scores the percentage awarded.
FOULED = "fouled"
ADJUSTED_PERCENT = {"plus": Fraction(60), "average": Fraction(50), "minus": Fraction(40)}


def check_ruling(*, kind, deal, seat, seats: int, deals: int) -> None:
    """Refusal unless deal ``deal`` (from 1) of a table of ``seats`` whose sheet holds
    ``deals`` may be given this ruling: fouled for the whole table (``seat`` None), an
    adjusted result for one seat (from 0). The directors' page and the tournament document
    check a ruling here."""
    if kind != FOULED and kind not in ADJUSTED_PERCENT:
        raise Refusal(gettext_noop("Choose the ruling."))
    if type(deal) is not int or not 1 <= deal <= deals:
        raise Refusal(
            gettext_noop("The table's sheet has deals 1 to %(deals)s: there is no such deal."),
            deals=deals,
        )
    if kind == FOULED and seat is not None:
        raise Refusal(gettext_noop("A fouled deal is ruled for the whole table: choose no seat."))
    if kind != FOULED and seat is None:
        raise Refusal(gettext_noop("Choose the seat given the adjusted result."))
    if seat is not None and (type(seat) is not int or not 0 <= seat < seats):
        raise Refusal(gettext_noop("That seat is not at the table."))


# A Fraction of two whole numbers, each made once: a big tournament's thousands of results
# share a few hundred figures, and making a Fraction (its gcd, its checks) costs more than
# finding it again.
exact = functools.lru_cache(maxsize=1 << 14)(Fraction)


def margins(scores: Sequence[int | Fraction]) -> list[Fraction]:
    """Each seat's margin on a deal: its score less the mean of the other seats' scores at
    its table, (score × n − total) / (n − 1)."""
    total, others = sum(scores), len(scores) - 1
    if all(type(score) is int for score in scores):
        return [exact(score * (others + 1) - total, others) for score in scores]
    return [Fraction(score) - Fraction(total - score, others) for score in scores]


@dataclass(frozen=True, slots=True)
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
    # whole numbers over the margins' common denominator, in order: a result's smaller and
    # equal ones are found by bisection (comparing every pair of Fractions is slow for a
    # group of fifty tables)
    common = math.lcm(*(margin.denominator for margin in results.values()))
    whole = {t: m.numerator * (common // m.denominator) for t, m in results.items()}
    ordered = sorted(whole.values())
    total = sum(ordered)
    scored = {}
    for table, margin in results.items():
        smaller = bisect_left(ordered, whole[table])
        equal = bisect_right(ordered, whole[table]) - smaller - 1  # not itself
        raw = 2 * smaller + equal
        # Neuberg's (raw + 1) × E / A − 1 where results are missing, over A
        over = raw * played if played == tables else (raw + 1) * tables - played
        points = exact(over, played)
        percent = exact(50) if top == 0 else exact(100 * over, played * top)
        field = exact(whole[table] * played - total, common * played)  # less the mean
        scored[table] = Scored(margin, points, percent, field)
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
    return {(table, seat): scored for table, seat, scored in results(board)}


def results(board: Board) -> Iterator[tuple[Hashable, int, Scored]]:
    """Every result of a scored deal, seat by seat, as (table, seat, result)."""
    table_margins = {
        table: margins(scores) for table, scores in board.rows.items() if table not in board.fouled
    }
    seats = max((len(scores) for scores in board.rows.values()), default=0)
    top = 2 * (board.tables - 1)
    for seat in range(seats):
        comparison = {
            table: m[seat]
            for table, m in table_margins.items()
            if (table, seat) not in board.adjusted
        }
        if comparison:
            for table, scored in compare(comparison, board.tables).items():
                yield table, seat, scored
        for (table, adjusted_seat), percent in board.adjusted.items():
            if adjusted_seat == seat:
                points = Fraction(percent) * top / 100
                yield table, seat, Scored(Fraction(0), points, Fraction(percent), Fraction(0))


def player_totals(boards: Iterable[Board]) -> dict[Hashable, Totals]:
    """Each player's mean percentage (every deal weighing the same), summed field figure
    and count of scored deals, over ``boards``: the scored deals alone."""
    tally = Tally()
    for board in boards:
        tally.add(board)
    return tally.totals()


class Tally:
    """Each player's figures as deals are added (the places after each round add each
    round's to the rounds' before it). Sums are kept as whole numerators by denominator,
    and a deal's results are not kept: adding thousands of Fractions one by one is slow,
    and keeping thousands of objects makes every garbage collection slower."""

    def __init__(self):
        self.percents: dict[Hashable, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.fields: dict[Hashable, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.deals: dict[Hashable, int] = defaultdict(int)

    def add(self, board: Board) -> None:
        for table, seat, scored in results(board):
            player = board.players[table][seat]
            self.percents[player][scored.percent.denominator] += scored.percent.numerator
            self.fields[player][scored.field.denominator] += scored.field.numerator
            self.deals[player] += 1

    def add_tally(self, other: "Tally") -> None:
        for mine, theirs in ((self.percents, other.percents), (self.fields, other.fields)):
            for player, numerators in theirs.items():
                for denominator, numerator in numerators.items():
                    mine[player][denominator] += numerator
        for player, deals in other.deals.items():
            self.deals[player] += deals

    def totals(self) -> dict[Hashable, Totals]:
        return {
            who: Totals(summed(self.percents[who]) / deals, summed(self.fields[who]), deals)
            for who, deals in self.deals.items()
        }


def summed(numerators: Mapping[int, int]) -> Fraction:
    """The sum of the fractions whose numerators are kept by denominator."""
    common = math.lcm(*numerators)
    return Fraction(sum(n * (common // d) for d, n in numerators.items()), common)
