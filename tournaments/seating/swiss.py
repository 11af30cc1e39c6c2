"""Method **Swiss**: players of similar standing meet.

The first round (no results yet) is drawn by lot. After it, the tables are formed from the
top of the standings down: the best player still to seat, with the next best he has not met,
and so on, going back (depth first) when the players left cannot be seated without a rematch;
where every seating has one, the first with one rematch, then two... That search weighs a
fixed number of candidates; when it runs out, tables of two get an exact answer from a
maximum matching of the players who have not met (as few rematches as possible, still from
the top down), and larger tables a bounded search for the fewest rematches, then the
closest standings.
"""

from collections import Counter
from collections.abc import Iterator

from .base import Round, bye_counts, draw_byes, lot, meetings, rank
from .matching import maximum_matching

WORK = 50_000  # candidates weighed by the search down the standings
SEARCH = 300_000  # swaps weighed by the search for the fewest rematches at larger tables
STALL = 100  # ... which stops after this many steps without a better seating
POLISH = 20  # passes of the swaps for closer standings, once the rematches are settled
NEARBY = 3  # ... between tables this close in the standings


class _OutOfWork(Exception):
    pass


def seat(
    *,
    sizes: list[int],
    entrants: list[int],
    history: list[Round],
    standings: list[int] | None,
    round_number: int,
    seed: int,
    rounds_planned: int | None = None,
) -> Round:
    counts = bye_counts(history)
    count = len(entrants) - sum(sizes)
    if standings is None or not history:  # no results yet: by lot
        order = list(entrants)
        lot(seed, "swiss", round_number).shuffle(order)
        byes = draw_byes(count=count, entrants=entrants, counts=counts, seed=seed)
    else:
        place = rank(standings, entrants)
        order = sorted(entrants, key=place.__getitem__)
        byes = draw_byes(count=count, entrants=entrants, counts=counts, seed=seed, standings=order)
    chosen = set(byes)
    players = [p for p in order if p not in chosen]
    met: dict[int, set[int]] = {p: set() for p in players}
    for a, b in meetings(history):
        if a in met and b in met:
            met[a].add(b)
            met[b].add(a)
    tables = seat_players(
        players, sorted(sizes, reverse=True), met, rng=lot(seed, "swiss", round_number, "search")
    )
    return Round(tables, byes)


def seat_players(
    players: list[int], sizes: list[int], met: dict[int, set[int]], *, rng
) -> list[list[int]]:
    """Tables for ``players`` (best first) of the given sizes, from the top down, with no two
    players at a table who have met while such a seating exists."""
    n = len(players)
    known = [{i for i, q in enumerate(players) if q in met[p]} for p in players]
    try:
        tables = _top_down(n, sizes, known)
    except _OutOfWork:
        if all(s == 2 for s in sizes):
            tables = _pairs_fewest_rematches(n, known)
        else:
            tables = _fewest_rematches(n, sizes, known, rng)
    return [[players[i] for i in table] for table in tables]


def _top_down(n: int, sizes: list[int], known: list[set[int]]) -> list[list[int]]:
    """The first seating in standings order, depth first, with no rematch, else with one,
    two...; _OutOfWork after WORK candidates in all."""
    work = 0

    def companions(
        first: int, rest: list[int], k: int, allowed: int
    ) -> Iterator[tuple[list[int], int]]:
        nonlocal work
        chosen: list[tuple[int, int]] = []  # (position in rest, its rematches), increasing
        used = 0
        i = 0
        while True:
            while len(chosen) < k and len(rest) - i >= k - len(chosen):
                work += 1
                seen = known[rest[i]]
                clashes = (first in seen) + sum(1 for j, _ in chosen if rest[j] in seen)
                if used + clashes <= allowed:
                    chosen.append((i, clashes))
                    used += clashes
                i += 1
            if len(chosen) == k:
                yield [rest[j] for j, _ in chosen], used
            if work > WORK:
                raise _OutOfWork
            if not chosen:
                return
            j, clashes = chosen.pop()
            used -= clashes
            i = j + 1

    def place(remaining: list[int], left: Counter, allowed: int) -> list[list[int]] | None:
        if not remaining:
            return []
        first, rest = remaining[0], remaining[1:]
        for size in sorted((s for s in left if left[s]), reverse=True):
            left[size] -= 1
            for others, used in companions(first, rest, size - 1, allowed):
                taken = set(others)
                below = place([p for p in rest if p not in taken], left, allowed - used)
                if below is not None:
                    left[size] += 1
                    return [[first, *others], *below]
            left[size] += 1
        return None

    allowed = 0
    while True:
        tables = place(list(range(n)), Counter(sizes), allowed)
        if tables is not None:
            return tables
        allowed += 1


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


def _greedy_top_down(n: int, sizes: list[int], known: list[set[int]]) -> list[list[int]]:
    """From the top down without going back: each seat to the next player down the standings
    who has met nobody at the table yet (the one who has met the fewest where none is left)."""
    remaining = list(range(n))
    tables = []
    for size in sizes:
        table = [remaining.pop(0)]
        while len(table) < size:
            best, fewest = 0, None
            for i, p in enumerate(remaining):
                met = sum(1 for q in table if q in known[p])
                if fewest is None or met < fewest:
                    best, fewest = i, met
                if not met:
                    break
            table.append(remaining.pop(best))
        tables.append(table)
    return tables


def _fewest_rematches(n: int, sizes: list[int], known: list[set[int]], rng) -> list[list[int]]:
    """Larger tables when the top-down search found no seating free of rematches: a greedy
    seating from the top down, then a tabu search swapping a player of a table with a rematch
    and one of another table, for the fewest rematches and then the closest standings (the
    spread of each table's places), and last swaps between nearby tables that bring closer
    standings together without a rematch more."""
    tables = _greedy_top_down(n, sizes, known)
    where = [0] * n
    for ti, table in enumerate(tables):
        for p in table:
            where[p] = ti

    def clashes(p, table, without=-1):
        seen = known[p]
        return sum(1 for q in table if q != without and q in seen)

    def spread(table):
        return max(table) - min(table)

    def change(a, b):  # (rematches, spread) gained by swapping a and b
        one, two = tables[where[a]], tables[where[b]]
        new_one = [b if p == a else p for p in one]
        new_two = [a if p == b else p for p in two]
        rematches = clashes(a, two, b) + clashes(b, one, a) - clashes(a, one) - clashes(b, two)
        return rematches, spread(new_one) + spread(new_two) - spread(one) - spread(two)

    def swap(a, b):
        ta, tb = where[a], where[b]
        tables[ta][tables[ta].index(a)] = b
        tables[tb][tables[tb].index(b)] = a
        where[a], where[b] = tb, ta

    rematches = sum(clashes(p, t) for t in tables for p in t) // 2
    spreads = sum(map(spread, tables))
    best = (rematches, spreads, [t[:] for t in tables])
    tabu: dict[tuple[int, int], int] = {}
    work = step = last_best = 0
    while rematches and work < SEARCH and step - last_best < STALL:
        step += 1
        chosen, chosen_change, ties = None, None, 0
        anyway, anyway_change = None, None  # the best move, tabu or not
        for a in (p for t in tables for p in t if clashes(p, t)):
            ta = where[a]
            for tb, table in enumerate(tables):
                if tb == ta:
                    continue
                work += len(table)
                for b in table:
                    gain = change(a, b)
                    if anyway_change is None or gain < anyway_change:
                        anyway, anyway_change = (a, b), gain
                    if (tabu.get((a, tb), 0) > step or tabu.get((b, ta), 0) > step) and (
                        rematches + gain[0],
                        spreads + gain[1],
                    ) >= best[:2]:
                        continue
                    if chosen_change is None or gain < chosen_change:
                        chosen, chosen_change, ties = (a, b), gain, 1
                    elif gain == chosen_change:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            chosen = (a, b)
        if chosen is None:  # every move is tabu
            chosen, chosen_change = anyway, anyway_change
        if chosen is None:
            break
        assert chosen_change is not None, "a move is chosen with its change"
        a, b = chosen
        tabu[(a, where[a])] = tabu[(b, where[b])] = step + 2 + rng.randrange(8)
        swap(a, b)
        rematches += chosen_change[0]
        spreads += chosen_change[1]
        if (rematches, spreads) < best[:2]:
            best = (rematches, spreads, [t[:] for t in tables])
            last_best = step
    rematches, spreads, tables = best
    for ti, table in enumerate(tables):
        for p in table:
            where[p] = ti
    for _ in range(POLISH):
        better = False
        for ta in range(len(tables)):
            for tb in range(ta + 1, min(ta + NEARBY + 1, len(tables))):
                for a in list(tables[ta]):
                    for b in list(tables[tb]):
                        # fewer rematches, or as many and closer standings
                        if where[a] == ta and where[b] == tb and change(a, b) < (0, 0):
                            swap(a, b)
                            better = True
        if not better:
            break
    return sorted((sorted(t) for t in tables), key=lambda t: t[0])
