"""What every seating method shares: a round as entrant ids, repeats, who met whom, the byes.

Pure Python (no Django). Every draw follows from the seed, the round number, the entrants and
the rounds so far (docs/rules/tournaments.md, "Seating").
"""

import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations


@dataclass
class Round:
    """One round's seating: ``tables`` of entrant ids (seat order), and ``byes``."""

    tables: list[list[int]]
    byes: list[int] = field(default_factory=list)

    def players(self) -> list[int]:
        return [p for table in self.tables for p in table]


def meetings(rounds: list[Round]) -> Counter:
    """How many times each pair (a frozenset of two ids) sat at one table."""
    met: Counter = Counter()
    for rnd in rounds:
        for table in rnd.tables:
            met.update(frozenset(pair) for pair in combinations(table, 2))
    return met


def repeats(rounds: list[Round]) -> int:
    """The repeats of a seating: a pair that sat at one table k times in all counts k − 1."""
    return sum(k - 1 for k in meetings(rounds).values())


def bye_counts(history: list[Round]) -> Counter:
    return Counter(p for rnd in history for p in rnd.byes)


def lot(seed: int, *parts) -> random.Random:
    """A random stream that follows from the seed and the given parts alone (the same on any
    machine and in any process: ``random.Random`` hashes a string seed with SHA-512)."""
    return random.Random(":".join(str(p) for p in (seed, *parts)))


def bye_lot(seed: int, entrant: int, byes_had: int) -> float:
    """The entrant's ticket in the draw for his next bye (mixing, and Swiss's first round).

    It depends only on the seed, the entrant and how many byes he has had, so a plan of the
    later rounds knows now who the lot will give their byes to (and still nobody can pick).
    """
    return lot(seed, "bye", entrant, byes_had).random()


def draw_byes(
    *,
    count: int,
    entrants: list[int],
    counts: Counter,
    seed: int,
    standings: list[int] | None = None,
) -> list[int]:
    """``count`` byes to the entrants with the fewest byes so far; among them by lot, or the
    lowest in ``standings`` (best first) when given. Returned in entry order."""
    if count <= 0:
        return []
    if standings is None:

        def key(e):
            return counts[e], bye_lot(seed, e, counts[e])
    else:
        place = rank(standings, entrants)

        def key(e):
            return counts[e], -place[e]

    chosen = set(sorted(entrants, key=key)[:count])
    return [e for e in entrants if e in chosen]


def rank(standings: list[int], entrants: list[int]) -> dict[int, int]:
    """Each entrant's position in the standings (best 0); entrants the standings do not list
    come last, in entry order."""
    place: dict[int, int] = {}
    for e in standings:
        if e not in place:
            place[e] = len(place)
    for e in entrants:
        if e not in place:
            place[e] = len(place)
    return place


def check(*, sizes: list[int], entrants: list[int]) -> None:
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is listed twice")
    if any(not isinstance(s, int) or s < 2 for s in sizes):
        raise ValueError(f"table sizes must be whole numbers from 2: {sizes}")
    if sum(sizes) > len(entrants):
        raise ValueError(f"{len(entrants)} entrants cannot fill tables of {sizes}")
