"""``python -m bench.seating`` (in ``make bench``): how close mixing comes to the best known
schedules of the social golfer problem, and how long it takes. Pure Python, one process.

For each case, a tournament seated round by round as a director draws it (each round from
the rounds really seated before it, the plans kept between rounds cleared first): its
repeats, the lower bound on them (``least_repeats``), the best known figure (Harvey's table
of the social golfer problem, OEIS A107431: zero repeats up to the rounds listed) and the
seconds the whole tournament's seating took. The requirement: every case under 2 seconds;
it exits 1 when one is not.
"""

import sys
import time

from bench import figures
from config.machine import machine
from tournaments.seating import Round, least_repeats, mixing, repeats, seat_round

REQUIRED_SECONDS = 2.0
SEED = 1

# (players, rounds, table sizes, the best known repeats)
CASES = [
    (16, 5, [4] * 4, 0),
    (20, 5, [4] * 5, 0),
    (24, 7, [4] * 6, 0),
    (28, 7, [4] * 7, 0),
    (28, 9, [4] * 7, 0),
    (32, 8, [4] * 8, 0),
    (32, 9, [4] * 8, 0),
    (32, 10, [4] * 8, 0),
    (40, 10, [4] * 10, 0),
    (40, 13, [4] * 10, 0),
    (15, 7, [4, 4, 4, 3], 42),  # Фантан's tables: the counting bound
    (200, 8, [4] * 50, 0),
]


def seat(players: int, rounds: int, sizes: list[int]) -> tuple[int, float]:
    mixing._plan.cache_clear()
    entrants, history = list(range(players)), list[Round]()
    started = time.perf_counter()
    for number in range(1, rounds + 1):
        history.append(
            seat_round(
                method="mixing",
                sizes=sizes,
                entrants=entrants,
                history=history,
                rounds_planned=rounds,
                round_number=number,
                seed=SEED,
            )
        )
    return repeats(history), time.perf_counter() - started


def main() -> int:
    print(f"Seating by mixing, seed {SEED}, on {machine()}")
    print(f"{'players':>7} {'rounds':>6} {'repeats':>7} {'bound':>5} {'best known':>10}  seconds")
    missed = False
    rows = []
    for players, rounds, sizes, best in CASES:
        found, seconds = seat(players, rounds, sizes)
        bound = least_repeats(sizes=sizes, rounds=rounds, entrants=players)
        quick = seconds < REQUIRED_SECONDS
        missed |= not quick
        verdict = "meets" if quick else "MISSES"
        mark = "" if found <= best else "  (above the best known)"
        print(
            f"{players:>7} {rounds:>6} {found:>7} {bound:>5} {best:>10}  "
            f"{seconds:.3f}: {verdict}{mark}"
        )
        rows.append([players, rounds, f"{found}{mark}", bound, best, f"{seconds:.3f}", verdict])
    figures.record(
        "seating",
        "Seating against the social golfer problem",
        "python -m bench.seating",
        ["players", "rounds", "repeats", "bound", "best known", "seconds", "under 2 s"],
        rows,
        [f"Mixing, seed {SEED}, round by round."],
    )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
