"""Method **mixing**: players meet as many different opponents as possible.

The rounds still to play (this one to the last planned) are seated together, so that the
repeats of the whole tournament are as few as possible, not only this round's; this round is
the plan's first and the rest of the plan is dropped. The next round plans again from what was
really seated, starting from the tail of this round's plan (found again by replaying the plans
of the earlier rounds): where the round was seated as planned and the tail still fits, the
tail is kept as it is, so an undisturbed tournament follows its first plan; a changed round (a
director's swap, an entrant who left or joined, an absence) is repaired from there.

Each plan starts from a construction: the circle method for tables of two; for tables of four
(and three, a table of four with an empty place) a design without repeats (``designs``); a
greedy draw otherwise. It is then improved by a tabu search over the whole plan: a move swaps
two players of different tables of one round, and the change of the repeats is counted from
the pair-meeting counts of the players involved alone. The search stops at the lower bound
(``bounds``), or after a fixed amount of work (swaps weighed, restarts without progress):
never after an amount of time.
"""

import random
from functools import lru_cache
from itertools import combinations

from .base import Round, bye_counts, draw_byes, lot
from .bounds import future_repeats
from .designs import TABLE, design_round, rounds_without_repeats

WORK = 400_000  # swaps weighed at most in the first plan (under a second of one core)
REPLAN = 100_000  # and in a later one, which starts from the previous plan's tail
STALL = 60  # steps without a new best before the search restarts from its best
RESTARTS = 40  # restarts in a row without a new best: the best is as good as it gets
PLACES, PLACES_TRY = 60_000, 500  # steps of the search for the reserves' places
KICK = 3  # random swaps that perturb a restart
TENURE, TENURE_SPAN = 2, 8  # steps a swapped player may not go back to his table

GHOST = -1  # an empty place of a design's table (a table of three)
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
    starts: list[tuple[Frozen, ...]] = []
    if history:  # the previous round's plan, as it was made: its tail is where this one starts
        tables, byes = history[-1]
        # the entrants of that round in entry order: by number, as entry numbers are (the
        # order of those still in otherwise, those gone after them)
        order = {e: i for i, e in enumerate(entrants)}
        ascending = list(entrants) == sorted(entrants)
        then = sorted(
            {p for t in tables for p in t} | set(byes),
            key=lambda p: (0, p) if ascending else (order.get(p, len(order)), p),
        )
        then_sizes = tuple(sorted((len(t) for t in tables), reverse=True))
        previous = _plan(then_sizes, tuple(then), history[:-1], last, round_number - 1, seed)
        if _same(previous[0], history[-1]):
            tail = previous[1:]
            if _fits(tail, sizes, entrants, history, seed):  # undisturbed: the plan stands
                return tail
        starts.append(previous[1:])
        # a round seated otherwise than planned (a director's swap): the tail with the same
        # players swapped keeps what the plan had for the others
        moved = _relabelling(previous[0], history[-1])
        if moved is not None:
            starts.append(tuple(_relabel(rnd, moved) for rnd in previous[1:]))
    return _make_plan(sizes, entrants, history, last, round_number, seed, starts)


def _make_plan(sizes, entrants, history, last, round_number, seed, starts) -> tuple[Frozen, ...]:
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

    played = [0] * n
    for players in players_by_round:
        for p in players:
            played[p] += 1
    met = [[0] * n for _ in range(n)]  # meetings among the entrants still in
    for tables, _ in history:
        for table in tables:
            _add(met, [index[p] for p in table if p in index])
    floor = _excess(met) + future_repeats(
        sizes=list(sizes),
        rounds=len(players_by_round),
        entrants=list(entrants),
        history=[Round([list(t) for t in tables], list(b)) for tables, b in history],
        played=[(k, k) for k in played],
    )

    rounds = None
    if not starts and not history and sizes:
        if all(s == 2 for s in sizes):
            local_byes = [[index[e] for e in byes] for byes in byes_by_round]
            rounds = _circle(n, players_by_round, local_byes, rng)
        else:
            rounds = _designed(n, sizes, players_by_round, met, rng)
    if rounds is None:
        best_cost = None
        for start in starts or [()]:
            tried = [row[:] for row in met]
            built = []
            for r, players in enumerate(players_by_round):
                if r < len(start):
                    previous = [[index[p] for p in t if p in index] for t in start[r][0]]
                    tables = _repair(previous, players, sizes, tried, rng)
                else:
                    tables = _greedy(players, sizes, tried, rng)
                built.append(tables)
                for table in tables:
                    _add(tried, table)
            cost = _excess(tried)
            if best_cost is None or cost < best_cost:
                rounds, best_cost, best_met = built, cost, tried
        met = best_met
    else:
        for tables in rounds:
            for table in tables:
                _add(met, table)

    assert rounds is not None
    rounds = _search(rounds, met, floor, rng, WORK if not starts else REPLAN)
    return tuple(
        (tuple(tuple(entrants[p] for p in t) for t in tables), tuple(byes))
        for tables, byes in zip(rounds, byes_by_round, strict=True)
    )


def _same(planned: Frozen, seated: Frozen) -> bool:
    """Whether the round was seated as planned (seat order and table order aside)."""
    return sorted(map(sorted, planned[0])) == sorted(map(sorted, seated[0])) and sorted(
        planned[1]
    ) == sorted(seated[1])


def _fits(tail: tuple[Frozen, ...], sizes, entrants, history, seed) -> bool:
    """Whether the plan's rounds still fit: the same players at the same tables' sizes,
    and the byes as the lot gives them now."""
    counts = bye_counts([Round([], list(byes)) for _, byes in history])
    everyone = sorted(entrants)
    for tables, byes in tail:
        drawn = draw_byes(
            count=len(entrants) - sum(sizes), entrants=list(entrants), counts=counts, seed=seed
        )
        counts.update(drawn)
        if list(byes) != drawn or sorted(map(len, tables), reverse=True) != list(sizes):
            return False
        if sorted([p for t in tables for p in t] + list(byes)) != everyone:
            return False
    return bool(tail)


def _relabelling(planned: Frozen, seated: Frozen) -> dict[int, int] | None:
    """Who took whose place where ``seated`` differs from the ``planned`` round of the same
    players and table sizes (a swap: the two players exchanged), or None: each planned table
    (and the byes) matched with the seated one it has most players in common with, the
    common ones in their own places and the others in those left."""
    groups = [*planned[0], planned[1]]
    seated_groups = [*seated[0], seated[1]]
    if groups == seated_groups or sorted(p for g in groups for p in g) != sorted(
        p for g in seated_groups for p in g
    ):
        return None
    overlaps = sorted(
        (-len(set(g) & set(h)), i, j)
        for i, g in enumerate(groups)
        for j, h in enumerate(seated_groups)
        if len(g) == len(h) and (i == len(groups) - 1) == (j == len(seated_groups) - 1)
    )
    moved: dict[int, int] = {}
    used_planned, used_seated = set(), set()
    for _, i, j in overlaps:
        if i in used_planned or j in used_seated:
            continue
        used_planned.add(i)
        used_seated.add(j)
        common = set(groups[i]) & set(seated_groups[j])
        leaving = [p for p in groups[i] if p not in common]
        coming = [p for p in seated_groups[j] if p not in common]
        moved.update(zip(leaving, coming, strict=True))
    if len(used_planned) != len(groups) or len(used_seated) != len(seated_groups):
        return None
    return moved


def _relabel(rnd: Frozen, moved: dict[int, int]) -> Frozen:
    tables, byes = rnd
    return (
        tuple(tuple(moved.get(p, p) for p in t) for t in tables),
        tuple(moved.get(p, p) for p in byes),
    )


def _designed(n, sizes, players_by_round, met, rng) -> list[list[list[int]]] | None:
    """The rounds of the design with a place for each of the round's tables of four
    (``designs``), its points given to the players and its rounds chosen and ordered at
    random; rounds beyond it drawn greedily (the search then seats them). None where it
    does not fit.

    Tables of three are tables of four with an empty place: points of the design that never
    meet in the rounds used (one at each table of three) are left empty. With byes, some
    players without any are the reserves: in each round they take the places of the others
    who have a bye. Where every bye of the plan is a different player's, the places are
    chosen so that no reserve meets anyone twice (``_places``); otherwise each takes the
    place where he has met the fewest."""
    points = TABLE * len(sizes)
    design = rounds_without_repeats(points)
    empty = sum(1 for s in sizes if s == TABLE - 1)
    count = n - sum(sizes)
    if not design or any(s not in (TABLE, TABLE - 1) for s in sizes) or (empty and count):
        return None
    used = min(design, len(players_by_round))
    byes = [sorted(set(range(n)) - set(players)) for players in players_by_round]
    had = [p for b in byes for p in b]
    order = rng.sample(range(n), n)
    order.sort(key=had.count)
    reserves = order[:count]  # those with the fewest byes
    vacancies = None
    ghosts: list[int] = []
    if empty:
        found = _apart(points, design, used, empty, rng)
        if found is None:
            return None
        rounds_order, ghosts = found
    elif count and not set(reserves) & set(had) and len(set(had)) == len(had):
        found = _places(points, design, used, count, rng)
        if found is not None:
            rounds_order, vacancies = found
    if not empty and vacancies is None:
        rounds_order = rng.sample(range(design), design)
    # the design's points given to the players (reserves aside): first those whose places
    # the reserves take, to the players with a bye in that round
    label: list[int | None] = [None] * points
    for q in ghosts:
        label[q] = GHOST
    for r, spots in enumerate(vacancies or []):
        for spot, player in zip(spots, byes[r], strict=True):
            label[spot] = player
    taken = set(label) | set(reserves)
    rest = [p for p in range(n) if p not in taken]
    rng.shuffle(rest)
    for q in range(points):
        if label[q] is None:
            label[q] = rest.pop()
    player_at = [p for p in label if p is not None]

    rounds = []
    for r, players in enumerate(players_by_round):
        if r < design:
            here = set(players)
            plan_round = design_round(points, rounds_order[r])
            filling = dict(zip(vacancies[r], reserves, strict=True)) if vacancies else {}
            tables = [[filling.get(q, player_at[q]) for q in t] for t in plan_round]
            waiting = [p for p in reserves if p in here and p not in filling.values()]
            spots = [
                (ti, si)
                for ti, t in enumerate(tables)
                for si, p in enumerate(t)
                if p != GHOST and p not in here
            ]
            rng.shuffle(spots)
            for ti, si in spots:  # the reserves' places by how few they have met there
                table = tables[ti]
                p = min(waiting, key=lambda w: sum(met[w][x] for x in table if x in here))
                waiting.remove(p)
                table[si] = p
            tables = [[p for p in t if p != GHOST] for t in tables]
            for table in tables:
                rng.shuffle(table)
            rng.shuffle(tables)
            tables.sort(key=len, reverse=True)
        else:
            tables = _greedy(players, sizes, met, rng)
        rounds.append(tables)
        for table in tables:
            _add(met, table)
    for tables in rounds:
        for table in tables:
            _add(met, table, -1)
    return rounds


def _apart(points, design, rounds, count, rng) -> tuple[list[int], list[int]] | None:
    """``count`` points of the design no two of which meet in some ``rounds`` of its rounds,
    and those rounds (in a random order, then the others): the first such points in a
    random order, or None."""
    meets: dict[tuple[int, int], int] = {}
    for t in range(design):
        for table in design_round(points, t):
            for a, b in combinations(sorted(table), 2):
                meets[a, b] = t
    order = rng.sample(range(points), points)
    for group in combinations(order, count):
        apart = {meets.get((min(a, b), max(a, b)), -1) for a, b in combinations(group, 2)}
        left = [t for t in range(design) if t not in apart]
        if len(left) >= rounds:
            rng.shuffle(left)
            return left + [t for t in range(design) if t in apart], list(group)
    return None


def _places(points, design, rounds, count, rng):
    """For ``rounds`` rounds of the design: which of its rounds each is, and the ``count``
    places in each that the reserves (in order) take, every place a different one, such that
    no reserve meets anyone twice; None if the search finds none within ``PLACES`` steps
    (a depth-first search, begun again from a new random order every ``PLACES_TRY``)."""
    tables_of = [design_round(points, t) for t in range(design)]
    mates_of = [{q: [x for x in t if x != q] for t in tables for q in t} for tables in tables_of]
    steps = 0
    while steps < PLACES:
        search = _PlaceSearch(mates_of, points, rounds, count, rng, PLACES_TRY)
        if search.fill(0):
            return search.chosen_rounds, search.chosen
        steps += search.steps
    return None


class _PlaceSearch:
    """One depth-first search of ``_places``, of at most ``limit`` steps."""

    def __init__(
        self,
        mates_of: list[dict[int, list[int]]],
        points: int,
        rounds: int,
        count: int,
        rng: random.Random,
        limit: int,
    ) -> None:
        self.mates_of, self.points, self.rounds, self.count = mates_of, points, rounds, count
        self.rng, self.limit, self.steps = rng, limit, 0
        self.met: list[set[int]] = [set() for _ in range(count)]  # points (reserve i: -1 − i)
        self.taken: set[int] = set()
        self.chosen_rounds: list[int] = []
        self.chosen: list[list[int]] = []

    def fill(self, r: int) -> bool:
        if r == self.rounds:
            return True
        design = len(self.mates_of)
        for t in self.rng.sample(range(design), design):
            if t in self.chosen_rounds:
                continue
            spots = [q for q in range(self.points) if q not in self.taken]
            self.rng.shuffle(spots)
            self.chosen_rounds.append(t)
            self.chosen.append([])
            if self.pick(r, t, spots, 0):
                return True
            self.chosen_rounds.pop()
            self.chosen.pop()
            if self.steps > self.limit:
                return False
        return False

    def pick(self, r: int, t: int, spots: list[int], i: int) -> bool:
        if i == self.count:
            return self.fill(r + 1)
        picked = self.chosen[-1]
        for q in spots:
            self.steps += 1
            if self.steps > self.limit:
                return False
            if q in self.taken:
                continue
            mates = {-1 - picked.index(x) if x in picked else x for x in self.mates_of[t][q]}
            if mates & self.met[i]:
                continue
            picked.append(q)
            self.met[i] |= mates
            self.taken.add(q)
            if self.pick(r, t, spots, i + 1):
                return True
            picked.pop()
            self.met[i] -= mates
            self.taken.discard(q)
        return False


def _add(met: list[list[int]], table: list[int], k: int = 1) -> None:
    for a, b in combinations(table, 2):
        met[a][b] += k
        met[b][a] += k


def _excess(met: list[list[int]]) -> int:
    return sum(k - 1 for a, row in enumerate(met) for k in row[a + 1 :] if k > 1)


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


def _repair(tables: list[list[int]], players: list[int], sizes, met, rng) -> list[list[int]]:
    """The previous plan's tables for this round, fitted to who plays it and the sizes: a
    table still whole for a table of its size, what is left of the others (the largest
    first) to start a larger one, and the rest (and new players) to the tables with room,
    each where he has met the fewest."""
    playing = set(players)
    pieces = [[p for p in t if p in playing] for t in tables]
    pieces = sorted((t for t in pieces if t), key=len, reverse=True)
    out: list[list[int] | None] = [None] * len(sizes)
    left = []
    for piece in pieces:  # whole tables first
        at = next((i for i, s in enumerate(sizes) if out[i] is None and s == len(piece)), None)
        if at is None:
            left.append(piece)
        else:
            out[at] = list(piece)
    pool = []
    for piece in left:  # then the largest pieces start the tables with more room
        at = next((i for i, s in enumerate(sizes) if out[i] is None and s > len(piece)), None)
        if at is None:
            pool.extend(piece)
        else:
            out[at] = list(piece)
    seated = {p for t in out if t for p in t} | set(pool)
    new = [p for p in players if p not in seated]
    rng.shuffle(new)
    pool.extend(new)
    filled = [t if t is not None else [] for t in out]
    for p in pool:
        seen = met[p]
        best, best_key = None, None
        for ti, table in enumerate(filled):
            if len(table) >= sizes[ti]:
                continue
            key = (sum(1 for x in table if seen[x]), -len(table))
            if best_key is None or key < best_key:
                best, best_key = ti, key
        assert best is not None, "the tables seat every player: one has room"
        filled[best].append(p)
    return filled


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
