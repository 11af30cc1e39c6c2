"""Which deals of a duplicate tournament are scored, and their comparisons, from the rounds
as played (pure Python, on the document's rounds): a round's group is its tables of one
size; deal k of a group is scored once every table of the group has a row for it, or once a
later round has been released. Until then it counts for nobody and is shown to nobody but
the tournament's officials and the table that played it."""

from collections.abc import Sequence
from dataclasses import dataclass

from ..document import Round
from .scoring import Board


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


def scored_deals(rounds: Sequence[Round], points, *, over: int) -> list[Deal]:
    """Every scored deal; ``points(round, table, row)`` gives each seat's figure of a row
    (``round`` and ``table`` from 0): the tables' rows of their scored deals alone."""
    deals = []
    for group in groups(rounds, over=over):
        round_ = rounds[group.round - 1]
        players = {index: round_.tables[index].players for index in group.tables}
        for number in range(1, group.scored + 1):
            rows = {
                index: points(group.round - 1, index, round_.tables[index].rows[number - 1])
                for index in group.tables
                if len(round_.tables[index].rows) >= number
            }
            deals.append(Deal(group, number, Board(rows, players, len(group.tables))))
    return deals
