"""Method **Swiss**: players of similar standing meet.

The first round (no results yet) is drawn by lot. After it, the tables are formed from the
top of the standings down: the best player still to seat, with the next best he has not met,
and so on, going back (depth first) when the players left cannot be seated without a rematch.
That search weighs a fixed number of candidates; when it runs out, or proves that every
seating has a rematch, tables of two get an exact answer from a maximum matching of the
players who have not met (as few rematches as possible, still from the top down), and larger
tables a bounded search for the fewest rematches, then the closest standings.
"""

from collections import Counter
from collections.abc import Iterator

from . import mixing
from .base import Round, bye_counts, draw_byes, lot, meetings, rank
from .matching import maximum_matching

WORK = 50_000  # candidates weighed by the search down the standings
POLISH = 50  # passes of the search for closer standings, once the rematches are settled


class _OutOfWork(Exception):
    pass


def seat(*, sizes: list[int], entrants: list[int], history: list[Round],
         standings: list[int] | None, round_number: int, seed: int,
         rounds_planned: int | None = None) -> Round:
    counts = bye_counts(history)
    count = len(entrants) - sum(sizes)
    if standings is None or not history:  # no results yet: by lot
        order = list(entrants)
        lot(seed, "swiss", round_number).shuffle(order)
        byes = draw_byes(count=count, entrants=entrants, counts=counts, seed=seed)
    else:
        place = rank(standings, entrants)
        order = sorted(entrants, key=place.__getitem__)
        byes = draw_byes(count=count, entrants=entrants, counts=counts, seed=seed,
                         standings=order)
    chosen = set(byes)
    players = [p for p in order if p not in chosen]
    met = {p: set() for p in players}
    for a, b in meetings(history):
        if a in met and b in met:
            met[a].add(b)
            met[b].add(a)
    tables = seat_players(players, sorted(sizes, reverse=True), met,
                          rng=lot(seed, "swiss", round_number, "search"))
    return Round(tables, byes)


def seat_players(players: list[int], sizes: list[int], met: dict[int, set[int]], *, rng
                 ) -> list[list[int]]:
    """Tables for ``players`` (best first) of the given sizes, from the top down, with no two
    players at a table who have met while such a seating exists."""
    n = len(players)
    known = [{i for i, q in enumerate(players) if q in met[p]} for p in players]
    try:
        tables = _top_down(n, sizes, known)
    except _OutOfWork:
        tables = None
    if tables is None:
        if all(s == 2 for s in sizes):
            tables = _pairs_fewest_rematches(n, known)
        else:
            tables = _fewest_rematches(n, sizes, known, rng)
    return [[players[i] for i in table] for table in tables]


def _top_down(n: int, sizes: list[int], known: list[set[int]]) -> list[list[int]] | None:
    """The first seating without a rematch in standings order, depth first (None: there is
    none); _OutOfWork after WORK candidates."""
    work = [0]

    def companions(first: int, rest: list[int], k: int) -> Iterator[list[int]]:
        chosen: list[int] = []  # positions in rest, increasing
        i = 0
        while True:
            while len(chosen) < k and len(rest) - i >= k - len(chosen):
                work[0] += 1
                candidate = rest[i]
                seen = known[candidate]
                if first not in seen and not any(rest[j] in seen for j in chosen):
                    chosen.append(i)
                i += 1
            if len(chosen) == k:
                yield [rest[j] for j in chosen]
            if work[0] > WORK:
                raise _OutOfWork
            if not chosen:
                return
            i = chosen.pop() + 1

    def place(remaining: list[int], left: Counter) -> list[list[int]] | None:
        if not remaining:
            return []
        first, rest = remaining[0], remaining[1:]
        for size in sorted((s for s in left if left[s]), reverse=True):
            left[size] -= 1
            for others in companions(first, rest, size - 1):
                taken = set(others)
                below = place([p for p in rest if p not in taken], left)
                if below is not None:
                    left[size] += 1
                    return [[first, *others], *below]
            left[size] += 1
        return None

    return place(list(range(n)), Counter(sizes))


def _pairs_fewest_rematches(n: int, known: list[set[int]]) -> list[list[int]]:
    """Tables of two with as few rematches as any pairing has (n/2 less the maximum matching
    of the players who have not met), each player from the top paired with the nearest one
    that keeps that number reachable."""
    remaining = list(range(n))

    def matching(players: list[int]) -> tuple[int, dict[int, int]]:
        at = {p: i for i, p in enumerate(players)}
        adjacent = [[at[q] for q in players if q != p and q not in known[p]] for p in players]
        mate = maximum_matching(len(players), adjacent)
        pairs = {players[v]: players[w] for v, w in enumerate(mate) if w != -1}
        return len(pairs) // 2, pairs

    need, mate = matching(remaining)
    tables = []
    while remaining:
        first = remaining[0]
        for other in remaining[1:]:
            fresh = other not in known[first]
            rest = [p for p in remaining if p != first and p != other]
            if fresh and mate.get(first) == other:
                mate = {p: q for p, q in mate.items() if p not in (first, other)}
                size = need - 1
            elif not fresh and first not in mate and other not in mate:
                size = need
            else:
                size, new_mate = matching(rest)
                if size + fresh != need:
                    continue
                mate = new_mate
            tables.append([first, other])
            remaining, need = rest, size
            break
    return tables


def _fewest_rematches(n: int, sizes: list[int], known: list[set[int]], rng
                      ) -> list[list[int]]:
    """Larger tables when the top-down search found no seating free of rematches: the
    standings cut into tables, then the mixing search for fewer rematches, then swaps that
    bring closer standings together without adding a rematch."""
    met = [[1 if j in known[i] else 0 for j in range(n)] for i in range(n)]
    floor = mixing._excess(met)
    tables, at = [], 0
    for size in sizes:
        tables.append(list(range(at, at + size)))
        at += size
    for table in tables:
        mixing._add(met, table)
    tables = mixing._search([tables], met, floor, rng, mixing.WORK)[0]

    def rematches(table):
        return sum(1 for i, a in enumerate(table) for b in table[i + 1:] if b in known[a])

    def spread(table):
        return max(table) - min(table)

    for _ in range(POLISH):
        better = False
        for ta in range(len(tables)):
            for tb in range(ta + 1, len(tables)):
                one, two = tables[ta], tables[tb]
                for i in range(len(one)):
                    for j in range(len(two)):
                        new_one = one[:i] + [two[j]] + one[i + 1:]
                        new_two = two[:j] + [one[i]] + two[j + 1:]
                        change = (rematches(new_one) + rematches(new_two)
                                  - rematches(one) - rematches(two),
                                  spread(new_one) + spread(new_two) - spread(one) - spread(two))
                        if change < (0, 0):
                            tables[ta], tables[tb] = one, two = new_one, new_two
                            better = True
        if not better:
            break
    return sorted((sorted(t) for t in tables), key=lambda t: t[0])
