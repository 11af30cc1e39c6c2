"""Method **mixing**: players meet as many different opponents as possible.

The rounds still to play (this one to the last planned) are seated together, so that the
repeats of the whole tournament are as few as possible, not only this round's; this round is
the plan's first and the rest of the plan is dropped. The next round plans again from what was
really seated, starting from the tail of this round's plan (found again by replaying the plans
of the earlier rounds), so an undisturbed tournament follows its first plan and a changed
round (a director's swap, an entrant who left) is repaired from there.

Each plan starts from a construction (the circle method for tables of two, a greedy draw
otherwise) and is improved by a tabu search over the whole plan: a move swaps two players of
different tables of one round, and the change of the repeats is counted from the pair-meeting
counts of the players involved alone. The search stops at no new repeats, or after a fixed
amount of work (swaps weighed, restarts without progress): never after an amount of time.
"""

from functools import lru_cache
from itertools import combinations

from .base import Round, bye_counts, draw_byes, lot

WORK = 400_000  # swaps weighed at most in the first plan (under a second of one core)
REPLAN = 100_000  # and in a later one, which starts from the previous plan's tail
STALL = 60  # steps without a new best before the search restarts from its best
RESTARTS = 40  # restarts in a row without a new best: the best is as good as it gets
KICK = 3  # random swaps that perturb a restart
TENURE, TENURE_SPAN = 2, 8  # steps a swapped player may not go back to his table

Frozen = tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]  # (tables, byes)


def seat(
    *,
    sizes: list[int],
    entrants: list[int],
    history: list[Round],
    rounds_planned: int,
    round_number: int,
    seed: int,
    standings: list[int] | None = None,
) -> Round:
    planned = plan(
        sizes=sizes,
        entrants=entrants,
        history=history,
        rounds_planned=rounds_planned,
        round_number=round_number,
        seed=seed,
    )
    return planned[0]


def plan(
    *,
    sizes: list[int],
    entrants: list[int],
    history: list[Round],
    rounds_planned: int,
    round_number: int,
    seed: int,
) -> list[Round]:
    """The seating of the rounds ``round_number`` to ``rounds_planned`` (at least one)."""
    frozen = tuple((tuple(tuple(t) for t in r.tables), tuple(r.byes)) for r in history)
    last = max(rounds_planned, round_number)
    rounds = _plan(tuple(sizes), tuple(entrants), frozen, last, round_number, seed)
    return [Round([list(t) for t in tables], list(byes)) for tables, byes in rounds]


@lru_cache(maxsize=64)
def _plan(
    sizes: tuple[int, ...],
    entrants: tuple[int, ...],
    history: tuple[Frozen, ...],
    last: int,
    round_number: int,
    seed: int,
) -> tuple[Frozen, ...]:
    start = None
    if history:  # the previous round's plan, as it was made: its tail is where this one starts
        tables, byes = history[-1]
        order = {e: i for i, e in enumerate(entrants)}
        then = sorted(
            {p for t in tables for p in t} | set(byes), key=lambda p: (order.get(p, len(order)), p)
        )
        then_sizes = tuple(sorted((len(t) for t in tables), reverse=True))
        start = _plan(then_sizes, tuple(then), history[:-1], last, round_number - 1, seed)[1:]
    return _make_plan(sizes, entrants, history, last, round_number, seed, start)


def _make_plan(sizes, entrants, history, last, round_number, seed, start) -> tuple[Frozen, ...]:
    n = len(entrants)
    index = {e: i for i, e in enumerate(entrants)}
    rng = lot(seed, "mixing", round_number)

    # the byes of every planned round, as the lot will give them
    counts = bye_counts([Round([], list(byes)) for _, byes in history])
    byes_by_round, players_by_round = [], []
    for _ in range(round_number, last + 1):
        byes = draw_byes(count=n - sum(sizes), entrants=list(entrants), counts=counts, seed=seed)
        counts.update(byes)
        chosen = set(byes)
        byes_by_round.append(byes)
        players_by_round.append([index[e] for e in entrants if e not in chosen])

    met = [[0] * n for _ in range(n)]  # meetings among the entrants still in
    for tables, _ in history:
        for table in tables:
            _add(met, [index[p] for p in table if p in index])
    bound = _lower_bound(met, sizes, history, index, players_by_round)

    rounds = None
    if start is None and not history and sizes and all(s == 2 for s in sizes):
        local_byes = [[index[e] for e in byes] for byes in byes_by_round]
        rounds = _circle(n, players_by_round, local_byes, rng)
    if rounds is None:
        rounds = []
        for r, players in enumerate(players_by_round):
            if start is not None and r < len(start):
                previous = [[index[p] for p in t if p in index] for t in start[r][0]]
                tables = _repair(previous, players, sizes, rng)
            else:
                tables = _greedy(players, sizes, met, rng)
            rounds.append(tables)
            for table in tables:
                _add(met, table)
    else:
        for tables in rounds:
            for table in tables:
                _add(met, table)

    rounds = _search(rounds, met, bound, rng, WORK if start is None else REPLAN)
    return tuple(
        (tuple(tuple(entrants[p] for p in t) for t in tables), tuple(byes))
        for tables, byes in zip(rounds, byes_by_round, strict=True)
    )


def _add(met: list[list[int]], table: list[int], k: int = 1) -> None:
    for a, b in combinations(table, 2):
        met[a][b] += k
        met[b][a] += k


def _excess(met: list[list[int]]) -> int:
    return sum(k - 1 for a, row in enumerate(met) for k in row[a + 1 :] if k > 1)


def _lower_bound(met, sizes, history, index, players_by_round) -> int:
    """Repeats no plan can go below: those of the rounds played, and at least what the
    rounds to play must add: by counting (a player seated with more others than he has not
    met yet) and by pigeonholes (a table of this round whose players sat at few tables of an
    earlier round has some of them sat together again)."""
    n = len(met)
    floor = _excess(met)
    fresh = [sum(1 for q in range(n) if q != p and not met[p][q]) for p in range(n)]
    smallest = min(sizes, default=1) - 1
    mates = [0] * n
    for players in players_by_round:
        for p in players:
            mates[p] += smallest
    counting = sum(max(0, mates[p] - fresh[p]) for p in range(n)) // 2
    pairs = len(players_by_round) * sum(s * (s - 1) // 2 for s in sizes)
    counting = max(counting, pairs - sum(fresh) // 2)

    def pigeonholes(groups: list[int]) -> int:
        # at least this many pairs of a round seated at ``sizes`` sat together in a round
        # whose tables (ones for the players not at a table then) had ``groups`` players
        total = 0
        for size in sizes:
            taken = [0] * len(groups)
            for _ in range(size):
                g = min(
                    (g for g in range(len(groups)) if taken[g] < groups[g]),
                    key=taken.__getitem__,
                    default=None,
                )
                if g is None:
                    break
                total += taken[g]
                taken[g] += 1
        return total

    def groups_of(tables: list[list[int]]) -> list[int]:
        groups = [len(t) for t in tables if len(t) > 1]
        return groups + [1] * (n - sum(groups))

    played = max(
        (
            pigeonholes(groups_of([[p for p in t if p in index] for t in tables]))
            for tables, _ in history
        ),
        default=0,
    )
    planned = pigeonholes(groups_of([[0] * s for s in sizes]))
    holes = sum(max(played, planned if r else 0) for r in range(len(players_by_round)))
    return floor + max(counting, holes)


def _circle(n, players_by_round, byes_by_round, rng) -> list[list[list[int]]] | None:
    """A round robin by the circle method (no repeats for n − 1 rounds, or n with byes), its
    slots given to the players at random, the bye's slot to the round's bye. None where the
    byes do not fit it (several a round, or a second bye before everyone had one)."""
    odd = n % 2
    slots = n + odd
    if any(len(b) != odd for b in byes_by_round):
        return None
    arrangements = []
    for k in range(len(players_by_round)):
        rest = list(range(1, slots))
        k %= slots - 1
        a = [0] + rest[k:] + rest[:k]
        arrangements.append([(a[i], a[slots - 1 - i]) for i in range(slots // 2)])
    player_of: dict[int, int] = {}
    if odd:  # slot 0 is the bye
        for pairs, byes in zip(arrangements, byes_by_round, strict=True):
            slot = next(b for a, b in pairs if a == 0)
            if player_of.setdefault(slot, byes[0]) != byes[0]:
                return None
        if len(set(player_of.values())) != len(player_of):
            return None
    taken = set(player_of.values())
    free = [p for p in range(n) if p not in taken]
    rng.shuffle(free)
    for slot in range(odd, slots):
        if slot not in player_of:
            player_of[slot] = free.pop()
    rounds = []
    for pairs in arrangements:
        tables = [[player_of[a], player_of[b]] for a, b in pairs if not (odd and a == 0)]
        rng.shuffle(tables)
        rounds.append([t if rng.random() < 0.5 else t[::-1] for t in tables])
    return rounds


def _repair(tables: list[list[int]], players: list[int], sizes, rng) -> list[list[int]]:
    """The previous plan's tables for this round, fitted to who plays it and the sizes."""
    playing = set(players)
    if sorted(map(len, tables)) == sorted(sizes) and {p for t in tables for p in t} == playing:
        ordered = sorted(tables, key=len, reverse=True)
        return [list(t) for t in ordered]
    kept = [p for t in tables for p in t if p in playing]
    kept_set = set(kept)
    new = [p for p in players if p not in kept_set]
    rng.shuffle(new)
    sequence = kept + new
    out, at = [], 0
    for size in sizes:
        out.append(sequence[at : at + size])
        at += size
    return out


def _greedy(players, sizes, met, rng) -> list[list[int]]:
    """Players in random order, each to the table with room where he has met the fewest
    (then the fullest: empty tables are kept for the players hardest to place)."""
    order = list(players)
    rng.shuffle(order)
    tables: list[list[int]] = [[] for _ in sizes]
    for p in order:
        seen = met[p]
        best, best_key = None, None
        for ti, table in enumerate(tables):
            if len(table) >= sizes[ti]:
                continue
            key = (sum(1 for x in table if seen[x]), -len(table))
            if best_key is None or key < best_key:
                best, best_key = ti, key
        assert best is not None, "the tables seat every player: one has room"
        tables[best].append(p)
    return tables


def _search(
    rounds: list[list[list[int]]], met: list[list[int]], floor: int, rng, work_limit: int
) -> list[list[list[int]]]:
    """Tabu search over the whole plan for repeats down to ``floor``; ``met`` counts the
    meetings of history and plan; at most ``work_limit`` swaps weighed."""
    cost = _excess(met)
    if cost <= floor or not rounds:
        return rounds
    n = len(met)
    count = len(rounds[0])  # tables a round
    if count < 2:
        return rounds
    pos = []
    for tables in rounds:
        at = [-1] * n
        for ti, table in enumerate(tables):
            for p in table:
                at[p] = ti
        pos.append(at)
    tabu = [[0] * (n * count) for _ in rounds]
    best, best_cost = [[t[:] for t in tables] for tables in rounds], cost
    step = work = stall = restarts = 0

    def swap(r, a, b, delta):
        nonlocal cost
        tables, at = rounds[r], pos[r]
        ta, tb = at[a], at[b]
        row_a, row_b = met[a], met[b]
        for x in tables[ta]:
            if x != a:
                row_a[x] -= 1
                met[x][a] -= 1
                row_b[x] += 1
                met[x][b] += 1
        for y in tables[tb]:
            if y != b:
                row_b[y] -= 1
                met[y][b] -= 1
                row_a[y] += 1
                met[y][a] += 1
        table_a, table_b = tables[ta], tables[tb]
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        at[a], at[b] = tb, ta
        cost += delta
        return ta, tb

    def delta_of(r, a, b):
        tables, at = rounds[r], pos[r]
        table_a, table_b = tables[at[a]], tables[at[b]]
        row_a, row_b = met[a], met[b]
        d = 0
        for x in table_a:
            if x != a:
                d += (row_b[x] > 0) - (row_a[x] > 1)
        for y in table_b:
            if y != b:
                d += (row_a[y] > 0) - (row_b[y] > 1)
        return d

    while cost > floor and work < work_limit:
        step += 1
        best_delta, choice, ties = None, None, 0
        for r, tables in enumerate(rounds):
            at, banned = pos[r], tabu[r]
            leave, conflicted = {}, []
            for table in tables:
                for p in table:
                    seen = met[p]
                    c = 0
                    for x in table:
                        if seen[x] > 1:
                            c += 1
                    leave[p] = c
                    if c:
                        conflicted.append(p)
            for a in conflicted:
                ta = at[a]
                table_a = tables[ta]
                row_a = met[a]
                base_a = -leave[a]
                row = a * count
                for tb in range(count):
                    if tb == ta:
                        continue
                    table_b = tables[tb]
                    join = base_a
                    for y in table_b:
                        if row_a[y]:
                            join += 1
                    banned_a = banned[row + tb] > step
                    work += len(table_b)
                    for b in table_b:
                        row_b = met[b]
                        d = join - leave[b]
                        for x in table_a:
                            if row_b[x]:
                                d += 1
                        if row_a[b]:
                            d -= 2
                        if (banned_a or banned[b * count + ta] > step) and cost + d >= best_cost:
                            continue
                        if best_delta is None or d < best_delta:
                            best_delta, choice, ties = d, (r, a, b), 1
                        elif d == best_delta:
                            ties += 1
                            if rng.randrange(ties) == 0:
                                choice = (r, a, b)
        if choice is None:  # every move is tabu: a random one
            r = rng.randrange(len(rounds))
            a, b = _random_pair(rounds[r], rng)
            choice, best_delta = (r, a, b), delta_of(r, a, b)
        r, a, b = choice
        ta, tb = swap(r, a, b, best_delta)
        tenure = TENURE + rng.randrange(TENURE_SPAN)
        tabu[r][a * count + ta] = step + tenure
        tabu[r][b * count + tb] = step + tenure
        if cost < best_cost:
            best, best_cost = [[t[:] for t in tables] for tables in rounds], cost
            stall = restarts = 0
            continue
        stall += 1
        if stall < STALL:
            continue
        restarts += 1
        if restarts >= RESTARTS:
            break
        stall = 0
        # restart from the best, shaken by a few random swaps
        for r, tables in enumerate(rounds):
            for table in tables:
                _add(met, table, -1)
            rounds[r] = [t[:] for t in best[r]]
            for ti, table in enumerate(rounds[r]):
                _add(met, table)
                for p in table:
                    pos[r][p] = ti
        cost = best_cost
        for _ in range(KICK):
            r = rng.randrange(len(rounds))
            a, b = _random_pair(rounds[r], rng)
            swap(r, a, b, delta_of(r, a, b))
        work += n * len(rounds)
    return best


def _random_pair(tables, rng) -> tuple[int, int]:
    ta, tb = rng.sample(range(len(tables)), 2)
    return rng.choice(tables[ta]), rng.choice(tables[tb])
