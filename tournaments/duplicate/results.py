"""Which deals of a duplicate tournament are scored, and their comparisons, from the rounds
as played (pure Python, on the document's rounds): a round's group is its tables of one
size; deal k of a group is scored once every table of the group has a row for it, or once a
later round has been released. Until then it counts for nobody and is shown to nobody but
the tournament's officials and the table that played it."""

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..document import Round
from .scoring import ADJUSTED_PERCENT, FOULED, Board


@dataclass(frozen=True)
class Group:
    """A round's tables of one size (``tables``: their indexes in the round, from 0) and how
    many of its deals are scored."""

    round: int  # from 1
    size: int
    tables: tuple[int, ...]
    scored: int  # deals 1..scored are scored


def groups(rounds: Sequence[Round], *, over: int) -> list[Group]:
    """Every round's groups; the first ``over`` rounds are over (a later one is released):
    every deal any of their tables has played is scored."""
    found = []
    for number, round_ in enumerate(rounds, start=1):
        sizes: dict[int, list[int]] = {}
        for index, table in enumerate(round_.tables):
            sizes.setdefault(len(table.players), []).append(index)
        for size, tables in sizes.items():
            counts = [len(round_.tables[i].rows) for i in tables]
            scored = max(counts) if number <= over else min(counts)
            found.append(Group(number, size, tuple(tables), scored))
    return found


def scored_rows(rounds: Sequence[Round], *, over: int) -> list[list[int]]:
    """By round and table, how many of the table's rows are of scored deals."""
    shown = [[0] * len(round_.tables) for round_ in rounds]
    for group in groups(rounds, over=over):
        for index in group.tables:
            rows = len(rounds[group.round - 1].tables[index].rows)
            shown[group.round - 1][index] = min(rows, group.scored)
    return shown


@dataclass(frozen=True)
class Deal:
    """A scored deal of a group, as its tables played it."""

    group: Group
    number: int  # from 1
    board: Board  # tables keyed by their index in the round


@dataclass(frozen=True)
class Ruling:
    """A director's ruling on a deal of a round's table: ``kind`` ``FOULED`` (``seat``
    None) or one of ``ADJUSTED_PERCENT`` for a seat."""

    round: int  # from 1
    table: int  # its index in the round, from 0
    deal: int  # from 1
    seat: int | None  # from 0
    kind: str


def ruled(
    rulings: Iterable[Ruling],
) -> dict[tuple[int, int], tuple[set[int], dict[tuple[int, int], Fraction]]]:
    """By (round, deal): the fouled tables and the adjusted (table, seat) with their
    percentage."""
    found: dict[tuple[int, int], tuple[set[int], dict[tuple[int, int], Fraction]]] = {}
    for ruling in rulings:
        fouled, adjusted = found.setdefault((ruling.round, ruling.deal), (set(), {}))
        if ruling.kind == FOULED:
            fouled.add(ruling.table)
        elif ruling.seat is not None:
            adjusted[ruling.table, ruling.seat] = ADJUSTED_PERCENT[ruling.kind]
    return found


def scored_deals(
    rounds: Sequence[Round], points, *, over: int, rulings: Iterable[Ruling] = ()
) -> list[Deal]:
    """Every scored deal; ``points(round, table, row)`` gives each seat's figure of a row
    (``round`` and ``table`` from 0): the tables' rows of their scored deals alone, with
    the directors' ``rulings`` on them."""
    by_deal = ruled(rulings)
    deals = []
    for group in groups(rounds, over=over):
        round_ = rounds[group.round - 1]
        players: dict[Hashable, Sequence[Hashable]] = {
            index: round_.tables[index].players for index in group.tables
        }
        for number in range(1, group.scored + 1):
            rows: dict[Hashable, Sequence[int | Fraction]] = {
                index: points(group.round - 1, index, round_.tables[index].rows[number - 1])
                for index in group.tables
                if len(round_.tables[index].rows) >= number
            }
            fouled, adjusted = by_deal.get((group.round, number), (set(), {}))
            board = Board(
                rows,
                players,
                len(group.tables),
                fouled=frozenset(fouled & set(group.tables)),
                adjusted={
                    (table, seat): percent  # a seat the table has (its size is the group's)
                    for (table, seat), percent in adjusted.items()
                    if table in group.tables and seat < group.size
                },
            )
            deals.append(Deal(group, number, board))
    return deals
