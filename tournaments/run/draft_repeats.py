"""How good a draft's seating is: at each of its tables, the players who met before and in
which rounds; the repeats the round adds and the tournament's in all (as
``tournaments.seating`` counts them: a pair that sat at one table ``k`` times counts
``k − 1``); and what a swap would make of them. Pure Python (no Django): the rounds are
``seating.Round`` of any hashable ids."""

from collections.abc import Hashable
from dataclasses import dataclass
from itertools import combinations

from ..seating import Round, repeats


@dataclass(frozen=True)
class Repeat:
    """Two players at one table of the draft who sat at one table before, in ``rounds``
    (numbered from 1)."""

    first: Hashable
    second: Hashable
    rounds: tuple[int, ...]


@dataclass(frozen=True)
class DraftRepeats:
    tables: list[list[Repeat]]  # by table of the draft, in its order
    round_total: int  # the repeats the draft adds: each pair of it that met before, once
    total: int  # the tournament's repeats with the draft, over every round

    @property
    def before(self) -> int:
        """The tournament's repeats over the rounds before the draft."""
        return self.total - self.round_total


def met_in(history: list[Round]) -> dict[frozenset, list[int]]:
    """For each pair that sat at one table, the rounds (from 1) it did."""
    met: dict[frozenset, list[int]] = {}
    for number, round_ in enumerate(history, start=1):
        for table in round_.tables:
            for pair in combinations(table, 2):
                met.setdefault(frozenset(pair), []).append(number)
    return met


def draft_repeats(history: list[Round], draft: Round) -> DraftRepeats:
    """The draft's repeats against ``history``, the rounds before it in order."""
    met = met_in(history)
    tables = [
        [
            Repeat(first, second, tuple(met[frozenset((first, second))]))
            for first, second in combinations(table, 2)
            if frozenset((first, second)) in met
        ]
        for table in draft.tables
    ]
    return DraftRepeats(tables, sum(map(len, tables)), repeats([*history, draft]))


def swapped(draft: Round, first: Hashable, second: Hashable) -> Round:
    """The draft with the two players' places (a seat or a bye) exchanged; unchanged if
    either is not in it."""
    placed = set(draft.players()) | set(draft.byes)
    if first not in placed or second not in placed:
        return draft

    def other(player):
        return second if player == first else first if player == second else player

    return Round(
        [[other(p) for p in table] for table in draft.tables], [other(p) for p in draft.byes]
    )
